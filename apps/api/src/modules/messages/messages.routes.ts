// HTTP for booking conversations: read, write, mark read, unread counts, report (signed in only;
// another user's booking is 404; an administrator's reading needs a reason and is audited), and the
// administrators' list of open reports and their resolution (admins only, audited).
import {
  adminConversationQuerySchema,
  bookingMessageSchema,
  conversationSchema,
  emptyEnvelope,
  envelope,
  messageBodySchema,
  messageReportBodySchema,
  messageReportListQuerySchema,
  messageReportSchema,
  adminMessageReportSchema,
  pagedEnvelope,
  resolveMessageReportBodySchema,
  safeText,
  unreadCountsSchema,
} from '@karoo/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { currentUser, routesFor } from '../../plugins/auth';
import * as messages from './messages.service';

const tags = ['Messages'];
const idParams = z.object({ id: safeText('Id').min(1).max(100) });

export function messagesRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (root) => {
    await root.register(participantRoutes(ctx));
    await root.register(adminRoutes(ctx));
  };
}

function participantRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return routesFor('signed-in', async (app) => {
    app.get('/booking/:id/messages', {
      schema: {
        tags,
        summary: 'A booking\u2019s conversation (its renter and host; an administrator with a reason, audited)',
        params: idParams,
        querystring: adminConversationQuerySchema,
        response: { 200: envelope(conversationSchema) },
      },
    }, async (request) => ({ success: true as const, data: await messages.readConversation(ctx, currentUser(request), request.params.id, request.query.reason) }));

    app.post('/booking/:id/messages', {
      schema: { tags, summary: 'Write in a booking\u2019s conversation (its renter or host)', params: idParams, body: messageBodySchema, response: { 201: envelope(bookingMessageSchema) } },
    }, async (request, reply) => {
      const message = await messages.postMessage(ctx, currentUser(request), request.params.id, request.body.body);
      return reply.status(201).send({ success: true, message: 'Message sent', data: message });
    });

    app.post('/booking/:id/messages/read', {
      schema: { tags, summary: 'Mark a booking\u2019s conversation read', params: idParams, response: { 200: emptyEnvelope } },
    }, async (request) => {
      await messages.markConversationRead(ctx, currentUser(request), request.params.id);
      return { success: true as const, data: null };
    });

    app.get('/messages/unread', {
      schema: { tags, summary: 'Unread messages per booking and in all, for the signed-in user', response: { 200: envelope(unreadCountsSchema) } },
    }, async (request) => ({ success: true as const, data: await messages.unreadCounts(ctx, currentUser(request)) }));

    app.post('/messages/:id/report', {
      schema: { tags, summary: 'Report a message of one\u2019s own conversation', params: idParams, body: messageReportBodySchema, response: { 201: envelope(messageReportSchema) } },
    }, async (request, reply) => {
      const report = await messages.reportMessage(ctx, currentUser(request), request.params.id, request.body.reason);
      return reply.status(201).send({ success: true, message: 'Thank you: the message is reported to Karoo.', data: report });
    });
  });
}

function adminRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return routesFor('admin', async (app) => {
    app.get('/admin/messages/reports', {
      schema: {
        tags,
        operationId: 'listMessageReports',
        summary: 'Open reports of messages, newest first, with the message as written (admin): search, page, limit',
        description: 'search matches a booking number or (part of) the reporter\u2019s or the sender\u2019s username. report_count counts every report of the message. meta.total is exact.',
        querystring: messageReportListQuerySchema,
        response: { 200: pagedEnvelope(adminMessageReportSchema) },
      },
    }, async (request) => {
      const { page, limit } = request.query;
      const { reports, total } = await messages.listOpenReports(ctx, request.query);
      return { success: true as const, data: reports, meta: { total, page, limit } };
    });

    app.post('/admin/messages/reports/:id/resolve', {
      schema: {
        tags,
        operationId: 'resolveMessageReport',
        summary: 'Mark a report handled with a note (admin, once: 409 after; audited)',
        params: idParams,
        body: resolveMessageReportBodySchema,
        response: { 200: envelope(adminMessageReportSchema) },
      },
    }, async (request) => ({ success: true as const, message: 'Report marked handled', data: await messages.resolveReport(ctx, currentUser(request), request.params.id, request.body.note) }));
  });
}
