// HTTP for the audit log: admins only.
import { auditEntrySchema, auditListQuerySchema, pagedEnvelope } from '@karoo/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context';
import { routesFor } from '../../plugins/auth';
import * as audit from './audit.service';

export function auditRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return routesFor('admin', async (app) => {
    app.get('/admin/audit', {
      schema: {
        tags: ['Admin'],
        operationId: 'listAuditLog',
        summary: "Every administrator's action, newest first: who, when, what, before and after (filter by action, admin, target)",
        querystring: auditListQuerySchema,
        response: { 200: pagedEnvelope(auditEntrySchema) },
      },
    }, async (request) => {
      const { entries, total } = await audit.listAudit(ctx, request.query);
      return { success: true as const, data: entries, meta: { total, page: request.query.page, limit: request.query.limit } };
    });
  });
}
