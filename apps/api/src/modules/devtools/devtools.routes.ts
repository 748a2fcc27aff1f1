// Admin-only support for the developer tools pages (/api-test, /api-playground), and on an
// end-to-end server (NODE_ENV=test with KAROO_TEST_NOW, its pinned clock) the test clock's routes.
import { envelope, loginTestsSchema } from '@karoo/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isTestClock, type AppContext } from '../../context';
import { routesFor } from '../../plugins/auth';
import * as devtools from './devtools.service';

const testClockSchema = z.object({ now: z.string() });
const advanceBody = z.object({ hours: z.number().positive().max(24 * 60) });
const jobParams = z.object({ name: z.enum(devtools.TEST_JOBS) });

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

    // Decision 070: only a server whose clock is the end-to-end run's (KAROO_TEST_NOW, which env.ts
    // refuses outside NODE_ENV=test) has these routes; anywhere else they do not exist (404).
    const clock = ctx.clock;
    if (!ctx.env.KAROO_TEST_NOW || !isTestClock(clock)) return;
    const tags = ['Developer tools (test clock)'];
    app.post('/devtools/test-clock/advance', {
      schema: { tags, summary: "Moves the test server's clock forward by some hours (end-to-end runs only)", body: advanceBody, response: { 200: envelope(testClockSchema) } },
    }, async (request) => {
      clock.advance(request.body.hours * 3_600_000);
      return { success: true as const, data: { now: clock.now().toISOString() } };
    });
    app.delete('/devtools/test-clock', {
      schema: { tags, summary: "Puts the test server's clock back to the run's own time (end-to-end runs only)", response: { 200: envelope(testClockSchema) } },
    }, async () => {
      clock.reset();
      return { success: true as const, data: { now: clock.now().toISOString() } };
    });
    app.post('/devtools/jobs/:name/run', {
      schema: { tags, summary: "Runs a scheduled job's work now, as its next tick would (end-to-end runs only)", params: jobParams, response: { 200: envelope(z.object({ ran: z.string() })) } },
    }, async (request) => {
      await devtools.runJobNow(ctx, request.params.name, request.log);
      return { success: true as const, data: { ran: request.params.name } };
    });
  });
}
