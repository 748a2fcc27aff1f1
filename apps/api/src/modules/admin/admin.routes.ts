// Admin-only views of platform internals. The mail outbox lets a developer (or the end-to-end
// tests) read mail when no SMTP server is configured; /admin/mail shows delivery (what failed)
// and sends failed mail again.
import { adminMailListQuerySchema, adminMailSchema, adminOverviewSchema, envelope, safeText } from '@karoo/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { routesFor } from '../../plugins/auth';
import * as admin from './admin.service';

const mailSchema = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  transport: z.enum(['smtp', 'outbox']),
  sent_at: z.string().nullable(),
  error: z.string().nullable(),
  created_at: z.string(),
});

export function adminRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  // ---- Admins only ----
  return routesFor('admin', async (app) => {
    app.get('/admin/overview', {
      schema: {
        tags: ['Admin'],
        operationId: 'getAdminOverview',
        summary: 'The admin Dashboard: five counters, the 5 newest users and the server\'s debug info',
        description: 'Counters are aggregates (deleted users and cars excluded). The debug info names modes and versions, never secrets.',
        response: { 200: envelope(adminOverviewSchema) },
      },
    }, async () => ({ success: true as const, data: await admin.getOverview(ctx) }));

    app.post('/admin/cache/clear', {
      schema: {
        tags: ['Admin'],
        operationId: 'clearServerCache',
        summary: 'Clear System Cache: forget the cached browse pages and settings',
        description: 'Clears the caches of every instance: this one before it answers, the others within milliseconds.',
        response: { 200: envelope(z.object({ cleared: z.array(z.enum(admin.SERVER_CACHES)) })) },
      },
    }, async () => ({ success: true as const, message: 'System cache cleared', data: { cleared: await admin.clearServerCaches(ctx) } }));

    app.get('/admin/outbox', {
      schema: {
        tags: ['Admin'],
        summary: 'Recent mail (outbox), newest first',
        querystring: z.object({ to: safeText('to').max(254).optional(), limit: z.coerce.number().int().min(1).max(200).default(50) }),
        response: { 200: envelope(z.array(mailSchema)) },
      },
    }, async (request) => ({ success: true as const, data: await admin.listRecentMail(ctx, request.query) }));

    app.get('/admin/mail', {
      schema: {
        tags: ['Admin'],
        operationId: 'listMailDelivery',
        summary: 'Mail and its delivery state, newest first; ?status=failed lists what was given up on',
        description: 'The mail worker tries a message up to 6 times (after 30 s, 2 min, 10 min, 1 h and 6 h) before it is failed.',
        querystring: adminMailListQuerySchema,
        response: { 200: envelope(z.array(adminMailSchema)) },
      },
    }, async (request) => ({ success: true as const, data: await admin.listMailDelivery(ctx, request.query) }));

    app.post('/admin/mail/:id/retry', {
      schema: {
        tags: ['Admin'],
        operationId: 'retryMail',
        summary: 'Send failed mail again, with fresh attempts',
        params: z.object({ id: z.uuid({ error: 'Mail not found' }) }),
        response: { 200: envelope(adminMailSchema) },
      },
    }, async (request) => ({ success: true as const, message: 'Mail queued to be sent again', data: await admin.retryMail(ctx, request.params.id) }));
  });
}
