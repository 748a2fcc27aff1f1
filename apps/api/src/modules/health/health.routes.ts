// HTTP for /api/health: liveness and a database round trip, for load balancers and monitors.
import { envelope } from '@karoo/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { pingDatabase } from './health.repository';

export function healthRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/health', {
      config: { rateLimit: false },
      schema: {
        tags: ['Health'],
        summary: 'Liveness and database check',
        response: {
          200: envelope(z.object({ status: z.literal('ok'), db: z.literal('ok') })),
          503: z.object({ success: z.literal(false), message: z.string(), data: z.object({ status: z.literal('degraded'), db: z.literal('down') }) }),
        },
      },
    }, async (_request, reply) => {
      try {
        await pingDatabase(ctx.db);
        return { success: true as const, data: { status: 'ok' as const, db: 'ok' as const } };
      } catch {
        return reply.status(503).send({ success: false as const, message: 'The database is not reachable', data: { status: 'degraded' as const, db: 'down' as const } });
      }
    });
  };
}
