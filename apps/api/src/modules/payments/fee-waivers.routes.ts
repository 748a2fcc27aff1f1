// HTTP for the CPA s. 17 waiver (issue 34; decision 067): the renter asks on a cancelled trip
// (multipart: the JSON field `waiver` and the certificate or letter as the file `evidence`), reads
// their requests and evidence; admins list the requests and decide one (audited). The rules are
// fee-waivers.ts's.
import { decideWaiverBodySchema, envelope, feeWaiverSchema, requestWaiverBodySchema, safeText, WAIVER_STATUSES } from '@karoo/shared';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { badRequest } from '../../lib/app-error';
import { privateFileQuerySchema, sendPrivateFile, type UploadedFile } from '../../lib/uploads';
import { currentUser, routesFor } from '../../plugins/auth';
import { fileAnswer } from '../../plugins/openapi';
import * as waivers from './fee-waivers';

const tags = ['Payments'];
const idParams = z.object({ id: safeText('Id').min(1).max(100) });

async function readRequest(request: FastifyRequest): Promise<{ body: z.output<typeof requestWaiverBodySchema>; evidence: UploadedFile | undefined }> {
  let raw: unknown = request.body;
  let evidence: UploadedFile | undefined;
  if (request.isMultipart()) {
    raw = undefined;
    for await (const part of request.parts({ limits: { files: 2, parts: 6 } })) {
      if (part.type === 'file') {
        if (part.fieldname !== 'evidence' || evidence) {
          part.file.resume();
          continue;
        }
        evidence = { buffer: await part.toBuffer(), filename: part.filename };
      } else if (part.fieldname === 'waiver') {
        try {
          raw = JSON.parse(String(part.value));
        } catch {
          throw badRequest('The field waiver must be JSON.');
        }
      }
    }
  }
  const parsed = requestWaiverBodySchema.safeParse(raw ?? {});
  if (!parsed.success) {
    const errors = Object.fromEntries(parsed.error.issues.map((issue) => [issue.path.join('.') || 'body', issue.message]));
    throw badRequest(parsed.error.issues[0]?.message ?? 'The form is not valid.', errors);
  }
  return { body: parsed.data, evidence };
}

export function feeWaiversRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(routesFor('signed-in', async (signedIn) => {
      signedIn.post('/booking/:id/fee-waiver', {
        schema: {
          tags,
          summary: 'Ask for a kept cancellation fee back under the Consumer Protection Act s. 17 (the renter of a cancelled trip; multipart: waiver = the JSON, evidence = a death certificate or hospital letter)',
          consumes: ['multipart/form-data', 'application/json'],
          params: idParams,
          body: requestWaiverBodySchema.optional(),
          response: { 201: envelope(feeWaiverSchema) },
        },
        validatorCompiler: () => (data) => ({ value: data }),
      }, async (request, reply) => {
        const viewer = currentUser(request);
        const { body, evidence } = await readRequest(request);
        const id = await waivers.requestWaiver(ctx, viewer, request.params.id, body, evidence);
        return reply.status(201).send({ success: true as const, message: 'Request sent: Karoo will look at it and tell you', data: await waivers.waiverView(ctx, viewer, id) });
      });

      signedIn.get('/booking/:id/fee-waivers', {
        schema: { tags, summary: "The renter's CPA s. 17 requests on a trip (its renter and admins; none for the host)", params: idParams, response: { 200: envelope(z.array(feeWaiverSchema)) } },
      }, async (request) => ({ success: true as const, data: await waivers.bookingWaivers(ctx, currentUser(request), request.params.id) }));

      signedIn.get('/fee-waivers/:id/evidence', {
        schema: { tags, summary: "A CPA s. 17 request's evidence (the renter who sent it, admins)", params: idParams, querystring: privateFileQuerySchema },
        config: fileAnswer('The evidence', ['application/pdf', 'image/jpeg', 'image/png']),
      }, async (request, reply) => {
        const file = await waivers.readWaiverEvidence(ctx, currentUser(request), request.params.id);
        return sendPrivateFile(reply, file, { filename: `evidence-${request.params.id}.${file.ext}`, inline: request.query.inline ?? '1' });
      });
    }));

    await app.register(routesFor('admin', async (admins) => {
      admins.get('/admin/fee-waivers', {
        schema: { tags, summary: 'CPA s. 17 requests in a state, oldest first (admin; requested by default)', querystring: z.object({ status: z.enum(WAIVER_STATUSES).optional() }), response: { 200: envelope(z.array(feeWaiverSchema)) } },
      }, async (request) => ({ success: true as const, data: await waivers.listWaivers(ctx, request.query.status ?? 'requested') }));

      admins.patch('/admin/fee-waivers/:id/decide', {
        schema: { tags, summary: 'Approve (the fee refunded to the card, through the ledger) or decline a CPA s. 17 request, with a reason (admin, audited)', params: idParams, body: decideWaiverBodySchema, response: { 200: envelope(feeWaiverSchema) } },
      }, async (request) => {
        const admin = currentUser(request);
        await waivers.decideWaiver(ctx, admin, request.params.id, request.body);
        return { success: true as const, message: request.body.decision === 'approve' ? 'Approved: the fee is being refunded' : 'Declined', data: await waivers.waiverView(ctx, admin, request.params.id) };
      });
    }));
  };
}
