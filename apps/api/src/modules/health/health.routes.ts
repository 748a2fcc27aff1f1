// HTTP for /api/health: the database round trip monitors have always called, and the two probes an
// orchestrator asks: live (the process answers) and ready (it can serve: the database answers and it
// is not shutting down). Readiness checks nothing else on purpose: Redis and the object store are
// shared by every instance, so an outage of either would take every instance out of the balancer at
// once, while Karoo degrades without them (decisions 026, 027 and 029).
import { envelope } from '@karoo/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from '../../db/connection-errors';
import { pingDatabase } from './health.repository';

const checkState = z.enum(['ok', 'down']);
const readiness = z.object({
  status: z.enum(['ready', 'not_ready']),
  draining: z.boolean(),
  checks: z.object({ database: checkState }),
});

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

    app.get('/health/live', {
      config: { rateLimit: false },
      schema: {
        tags: ['Health'],
        summary: 'Liveness: the process answers (no dependency is checked, so a slow database never restarts it)',
        response: { 200: envelope(z.object({ status: z.literal('live'), uptime_seconds: z.number() })) },
      },
    }, async () => ({
      success: true as const,
      data: { status: 'live' as const, uptime_seconds: Math.round(process.uptime()) },
    }));

    app.get('/health/ready', {
      config: { rateLimit: false },
      schema: {
        tags: ['Health'],
        summary: 'Readiness: the database answers (within 2 s) and the instance is not shutting down (503 otherwise)',
        response: {
          200: envelope(readiness),
          503: z.object({ success: z.literal(false), message: z.string(), data: readiness }),
        },
      },
    }, async (_request, reply) => {
      const database = await withTimeout(pingDatabase(ctx.db), 2000).then(
        () => 'ok' as const,
        () => 'down' as const,
      );
      const draining = ctx.runtime?.draining ?? false;
      const data = { status: 'ready' as 'ready' | 'not_ready', draining, checks: { database } };
      if (!draining && database === 'ok') return { success: true as const, data };
      data.status = 'not_ready';
      const message = draining ? 'This instance is shutting down' : 'Not ready: database not reachable';
      // As every 503 of the database's absence (decision 057): when to ask again.
      return reply.status(503).header('retry-after', String(UNAVAILABLE_RETRY_AFTER_SECONDS)).send({ success: false as const, message, data });
    });
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
