// HTTP for Privacy and data (issue 24, decision 049): what is held, the data download, the marketing
// choice, the versions of the terms, correction requests (signed in; another person's download is a
// 404), the administrators' answers to corrections and their news mail (admins, audited), and the
// one-click unsubscribe (no sign-in: the link's token is the proof).
import {
  acceptPoliciesBodySchema,
  adminCorrectionRequestSchema,
  consentStateSchema,
  correctionDecisionBodySchema,
  correctionRequestBodySchema,
  correctionRequestSchema,
  dataExportSchema,
  emptyEnvelope,
  envelope,
  marketingChoiceBodySchema,
  policyStateSchema,
  privacyOverviewSchema,
  safeText,
} from '@karoo/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { sendPrivateFile } from '../../lib/uploads';
import { fileAnswer } from '../../plugins/openapi';
import { currentUser, routesFor } from '../../plugins/auth';
import * as privacy from './privacy.service';

const tags = ['Privacy'];
const idParams = z.object({ id: z.uuid({ error: 'Not found' }) });

export function privacyRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (root) => {
    await root.register(personRoutes(ctx));
    await root.register(adminRoutes(ctx));
    await root.register(unsubscribeRoutes(ctx));
  };
}

function personRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return routesFor('signed-in', async (app) => {
    app.get('/privacy/overview', {
      schema: { tags, summary: 'What Karoo holds about the signed-in person, who viewed their documents, their marketing choice and accepted versions', response: { 200: envelope(privacyOverviewSchema) } },
    }, async (request) => ({ success: true as const, data: await privacy.overview(ctx, currentUser(request)) }));

    app.get('/privacy/exports', {
      schema: { tags, summary: 'The person\u2019s latest data downloads, newest first (preparing, ready until, expired)', response: { 200: envelope(z.array(dataExportSchema)) } },
    }, async (request) => ({ success: true as const, data: await privacy.listExports(ctx, currentUser(request)) }));

    app.post('/privacy/exports', {
      schema: { tags, summary: 'Ask for a ZIP of all one\u2019s data, built in the background and linked by email (one at a time)', response: { 202: envelope(dataExportSchema) } },
    }, async (request, reply) => {
      const created = await privacy.requestExport(ctx, currentUser(request));
      return reply.status(202).send({ success: true, message: 'We are preparing your data. We will email you when it is ready.', data: created });
    });

    app.get('/privacy/exports/:id/download', {
      schema: { tags, summary: 'Download a ready export (its owner only, for 24 hours; 404 otherwise)', params: idParams },
      config: fileAnswer('The ZIP of the person\u2019s data', ['application/zip']),
    }, async (request, reply) => {
      const file = await privacy.readExport(ctx, currentUser(request), request.params.id);
      return sendPrivateFile(reply, { data: file.data, mime: 'application/zip' }, { filename: file.filename });
    });

    app.put('/privacy/marketing', {
      schema: { tags, summary: 'Opt in to or out of marketing email (recorded with time and the words shown)', body: marketingChoiceBodySchema, response: { 200: envelope(consentStateSchema) } },
    }, async (request) => {
      const state = await privacy.setMarketingChoice(ctx, currentUser(request), request.body.granted);
      return { success: true as const, message: state.granted ? 'You will get Karoo news by email.' : 'You will not get marketing email from Karoo.', data: state };
    });

    app.get('/privacy/policies', {
      schema: { tags, summary: 'The versions of the terms and privacy notice in force and those the person accepted', response: { 200: envelope(z.array(policyStateSchema)) } },
    }, async (request) => ({ success: true as const, data: await privacy.policiesOf(ctx.db, currentUser(request)) }));

    app.post('/privacy/policies/accept', {
      schema: { tags, summary: 'Accept the current versions of the terms and privacy notice (409 if they changed meanwhile)', body: acceptPoliciesBodySchema, response: { 200: envelope(z.array(policyStateSchema)) } },
    }, async (request) => ({ success: true as const, message: 'Thank you', data: await privacy.acceptPolicies(ctx, currentUser(request), request.body) }));

    app.get('/privacy/corrections', {
      schema: { tags, summary: 'The person\u2019s correction requests, newest first', response: { 200: envelope(z.array(correctionRequestSchema)) } },
    }, async (request) => ({ success: true as const, data: await privacy.correctionsOf(ctx, currentUser(request)) }));

    app.post('/privacy/corrections', {
      schema: { tags, summary: 'Ask an administrator to correct a verified detail (one open request per field)', body: correctionRequestBodySchema, response: { 201: envelope(correctionRequestSchema) } },
    }, async (request, reply) => {
      const created = await privacy.requestCorrection(ctx, currentUser(request), request.body);
      return reply.status(201).send({ success: true, message: 'Request sent. We will tell you when it is answered.', data: created });
    });
  });
}

const newsBodySchema = z.object({
  subject: safeText('Subject').min(3, 'Write a subject').max(120, 'At most 120 characters'),
  message: safeText('Message', { multiline: true }).min(10, 'Write the news (at least 10 characters)').max(5000, 'At most 5000 characters'),
});

function adminRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return routesFor('admin', async (app) => {
    app.get('/admin/privacy/corrections', {
      schema: { tags, operationId: 'listCorrectionRequests', summary: 'Open correction requests, oldest first (admin)', response: { 200: envelope(z.array(adminCorrectionRequestSchema)) } },
    }, async () => ({ success: true as const, data: await privacy.listOpenCorrections(ctx) }));

    app.post('/admin/privacy/corrections/:id/decision', {
      schema: {
        tags,
        operationId: 'decideCorrectionRequest',
        summary: 'Approve (the field changes) or decline a correction, with a note the person reads (admin, once: 409 after; audited)',
        params: idParams,
        body: correctionDecisionBodySchema,
        response: { 200: envelope(correctionRequestSchema) },
      },
    }, async (request) => {
      const decided = await privacy.decideCorrection(ctx, currentUser(request), request.params.id, request.body);
      return { success: true as const, message: decided.status === 'approved' ? 'Correction approved' : 'Correction declined', data: decided };
    });

    app.post('/admin/privacy/news', {
      schema: {
        tags,
        operationId: 'sendNews',
        summary: 'Email Karoo news to everyone who opted in to marketing (admin; never to anyone else)',
        body: newsBodySchema,
        response: { 200: envelope(z.object({ queued: z.number().int() })) },
      },
    }, async (request) => {
      const queued = await privacy.sendNews(ctx, currentUser(request), request.body);
      return { success: true as const, message: `News queued for ${queued} ${queued === 1 ? 'person' : 'people'}`, data: { queued } };
    });
  });
}

function unsubscribeRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    // RFC 8058: mail clients POST "List-Unsubscribe=One-Click" as a form; the page posts nothing. Either way the token decides.
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    app.post('/privacy/unsubscribe', {
      schema: {
        tags,
        summary: 'One-click unsubscribe from marketing email (RFC 8058; the link\u2019s token, no sign-in)',
        querystring: z.object({ token: safeText('Token').min(10).max(200) }),
        response: { 200: emptyEnvelope },
      },
    }, async (request) => {
      await privacy.unsubscribe(ctx, request.query.token);
      return { success: true as const, message: 'You are unsubscribed: Karoo will not send you marketing email.', data: null };
    });
  };
}
