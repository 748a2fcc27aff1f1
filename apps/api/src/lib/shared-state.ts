// What several instances of Karoo share besides the database (decision 026): Redis for the rate
// limit's counts (REDIS_URL) and the cache bus that carries "forget this cache" to every instance.
// server.ts opens them before the app and closes them after it.
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { timeoutsFromEnv } from '../db/connection';
import type { Env } from '../env';
import { createCacheBus, type CacheBus } from './cache-bus';
import { closeRedis, connectRedis } from './redis';

export interface SharedState {
  /** Spread into the AppContext. */
  context: { cacheBus: CacheBus; redis?: Redis };
  close(): Promise<void>;
}

export async function connectSharedState(
  env: Pick<
    Env,
    'REDIS_URL' | 'DATABASE_URL' | 'CACHE_NAMESPACE' | 'DATABASE_CONNECT_TIMEOUT_MS' | 'DATABASE_STATEMENT_TIMEOUT_MS' | 'DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS'
  >,
  log: FastifyBaseLogger,
): Promise<SharedState> {
  const redis = env.REDIS_URL ? connectRedis(env.REDIS_URL, log, `${env.CACHE_NAMESPACE}-rate-limit`) : undefined;
  const cacheBus = await createCacheBus({
    redisUrl: env.REDIS_URL,
    databaseUrl: env.DATABASE_URL,
    databaseTimeouts: timeoutsFromEnv(env),
    namespace: env.CACHE_NAMESPACE,
    log,
  });
  log.info({ cacheBus: cacheBus.kind, rateLimit: redis ? 'redis' : 'memory' }, 'shared state');
  return {
    context: { cacheBus, ...(redis ? { redis } : {}) },
    close: async () => {
      await cacheBus.close();
      if (redis) await closeRedis(redis);
    },
  };
}
