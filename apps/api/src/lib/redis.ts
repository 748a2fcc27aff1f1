// Redis connections (REDIS_URL, decision 026). Redis helps several instances agree (one rate-limit
// count, cache invalidations); it is never something an instance cannot run without. A command
// fails at once while the connection is down (no offline queue, a short timeout) so that callers
// fall back to what one instance does alone, the client keeps reconnecting in the background, and
// the log says when the connection is lost and when it is back, once each rather than per retry.
import type { FastifyBaseLogger } from 'fastify';
import { Redis, type RedisOptions } from 'ioredis';

const MAX_RECONNECT_DELAY_MS = 5000;

export function connectRedis(url: string, log: FastifyBaseLogger, name: string, options: RedisOptions = {}): Redis {
  const redis = new Redis(url, {
    connectionName: name,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    commandTimeout: 1000,
    retryStrategy: (times) => Math.min(50 * 2 ** Math.min(times, 7), MAX_RECONNECT_DELAY_MS),
    ...options,
  });
  let isDown = false;
  // Without an 'error' listener a lost connection would be an unhandled error event: the process
  // would crash, which is exactly what Redis must never cause.
  redis.on('error', (error: Error) => {
    if (isDown) return;
    isDown = true;
    log.error({ err: error, redis: name }, 'Redis unreachable: this instance works on its own until it is back');
  });
  redis.on('ready', () => {
    if (!isDown) return;
    isDown = false;
    log.warn({ redis: name }, 'Redis reachable again');
  });
  return redis;
}

/** Resolves true once `redis` is ready, false if it is not within `timeoutMs` (it keeps trying). */
export function waitForRedis(redis: Redis, timeoutMs: number): Promise<boolean> {
  if (redis.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ready: boolean) => {
      clearTimeout(timer);
      redis.off('ready', onReady);
      resolve(ready);
    };
    const onReady = () => done(true);
    const timer = setTimeout(() => done(false), timeoutMs);
    redis.on('ready', onReady);
  });
}

/** Closes a connection: politely when it is up, at once when it is not. */
export async function closeRedis(redis: Redis): Promise<void> {
  if (redis.status === 'end') return;
  if (redis.status !== 'ready') {
    redis.disconnect();
    return;
  }
  try {
    await redis.quit();
  } catch {
    redis.disconnect();
  }
}
