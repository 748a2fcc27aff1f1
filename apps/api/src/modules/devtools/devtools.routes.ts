// Admin-only support for the developer tools pages (/api-test, /api-playground).
import { envelope, loginTestsSchema } from '@karoo/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context';
import { routesFor } from '../../plugins/auth';
import * as devtools from './devtools.service';

export function devtoolsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  // ---- Admins only ----
  return routesFor('admin', async (app) => {
    app.get('/devtools/login-tests', {
      schema: {
        operationId: 'getLoginTests',
        tags: ['Developer tools'],
        summary: 'The demo accounts the API Connection Test page signs in with, when this server runs with demo data',
        response: { 200: envelope(loginTestsSchema) },
      },
    }, async () => ({ success: true as const, data: await devtools.findLoginTestAccounts(ctx) }));
  });
}
