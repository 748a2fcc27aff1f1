// HTTP for /api/health: the database round trip monitors have always called, and the two probes an
// orchestrator asks: live (the process answers) and ready (it can serve: the database answers, every
// configured service answers, and it is not shutting down).
import { envelope } from '@karoo/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { pingDatabase } from './health.repository';

const checkState = z.enum(['ok', 'down']);
const readiness = z.object({
  status: z.enum(['ready', 'not_ready']),
  draining: z.boolean(),
  checks: z.record(z.string(), checkState),
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
        summary: 'Readiness: the database and every configured service answer and the instance is not shutting down (503 otherwise)',
        response: {
          200: envelope(readiness),
          503: z.object({ success: z.literal(false), message: z.string(), data: readiness }),
        },
      },
    }, async (_request, reply) => {
      const checks: Record<string, () => Promise<void>> = { database: () => pingDatabase(ctx.db), ...Object.fromEntries(ctx.runtime?.readinessChecks ?? []) };
      const results = await Promise.all(
        Object.entries(checks).map(async ([name, check]) => {
          try {
            await withTimeout(check(), 2000);
            return [name, 'ok'] as const;
          } catch {
            return [name, 'down'] as const;
          }
        }),
      );
      const draining = ctx.runtime?.draining ?? false;
      const data = { status: 'ready' as 'ready' | 'not_ready', draining, checks: Object.fromEntries(results) };
      const down = results.filter(([, state]) => state === 'down').map(([name]) => name);
      if (!draining && down.length === 0) return { success: true as const, data };
      data.status = 'not_ready';
      const message = draining ? 'This instance is shutting down' : `Not ready: ${down.join(', ')} not reachable`;
      return reply.status(503).send({ success: false as const, message, data });
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
