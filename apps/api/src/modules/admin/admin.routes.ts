// Admin-only views of platform internals. The mail outbox lets a developer (or the end-to-end
// tests) read mail when no SMTP server is configured.
import { envelope, safeText } from '@karoo/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { requireAdmin } from '../../plugins/auth';

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
  return async (app) => {
    app.addHook('preHandler', requireAdmin);

    app.get('/admin/outbox', {
      schema: {
        tags: ['Admin'],
        summary: 'Recent mail (outbox), newest first',
        security: [{ bearerAuth: [] }],
        querystring: z.object({ to: safeText('to').max(254).optional(), limit: z.coerce.number().int().min(1).max(200).default(50) }),
        response: { 200: envelope(z.array(mailSchema)) },
      },
    }, async (request) => {
      let query = ctx.db.selectFrom('mail_outbox').selectAll().orderBy('created_at', 'desc').limit(request.query.limit);
      if (request.query.to) query = query.where('to_address', '=', request.query.to);
      const rows = await query.execute();
      return {
        success: true as const,
        data: rows.map((r) => ({
          id: r.id,
          to: r.to_address,
          subject: r.subject,
          text: r.text_body,
          transport: r.transport,
          sent_at: r.sent_at ? new Date(r.sent_at).toISOString() : null,
          error: r.error,
          created_at: new Date(r.created_at).toISOString(),
        })),
      };
    });
  };
}
