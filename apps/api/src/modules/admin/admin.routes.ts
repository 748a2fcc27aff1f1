// Admin-only views of platform internals. The mail outbox lets a developer (or the end-to-end
// tests) read mail when no SMTP server is configured; /admin/mail shows delivery (what failed)
// and sends failed mail again. /admin/cars is the Cars tab's list (the cars module reads it).
import { adminCarListQuerySchema, adminMailListQuerySchema, adminMailSchema, adminOverviewSchema, carSchema, envelope, pagedEnvelope, safeText } from '@karoo/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { currentUser, routesFor } from '../../plugins/auth';
import { listCarsForAdmin } from '../cars';
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

    app.get('/admin/cars', {
      schema: {
        tags: ['Admin'],
        operationId: 'listAdminCars',
        summary: 'One page of every car (the admin Cars tab): search, status, verification_status, sort, order, page, limit',
        description:
          'Every car not deleted, whatever its status or verification. search matches words of the make, model, type or city, or (part of) a plate however it is spaced or cased ("KR 42" finds "KR42GP"). status rented means out on a rental right now. Newest listed first unless sort (listed, car, price) and order say otherwise. meta.total is exact.',
        querystring: adminCarListQuerySchema,
        response: { 200: pagedEnvelope(carSchema) },
      },
    }, async (request) => {
      const { page, limit } = request.query;
      const { cars, total } = await listCarsForAdmin(ctx, currentUser(request), request.query);
      return { success: true as const, data: cars, meta: { total, page, limit } };
    });

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
        description: 'The mail job tries a message up to 10 times, with exponential backoff from 30 s (at most 2 h between tries), before it is failed.',
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
