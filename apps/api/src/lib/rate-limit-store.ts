// The per-IP rate limit's counts in Redis (decision 026), so that every instance counts against one
// limit: a fixed window per key, like @fastify/rate-limit's own stores. When Redis does not answer,
// the count falls back to this instance's memory (what one instance did before Redis), with one log
// line when that starts and one when Redis answers again: a Redis outage neither opens the API to
// floods nor turns every request away.
import type { FastifyBaseLogger } from 'fastify';
import type { FastifyRateLimitOptions, FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Redis } from 'ioredis';

type Count = { current: number; ttl: number };
type Callback = (error: Error | null, result?: Count) => void;

/** One round trip: count this request and read the window's time left; the first request opens the window. */
const INCREMENT = `
local current = redis.call('INCR', KEYS[1])
if current == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {current, ttl}
`;

const READ = `
local current = redis.call('GET', KEYS[1])
if not current then return {0, 0} end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then ttl = 0 end
return {tonumber(current), ttl}
`;

const MAX_LOCAL_KEYS = 10_000;

/** The fallback: fixed windows in memory, the oldest key dropped past MAX_LOCAL_KEYS. */
class LocalWindows {
  private readonly windows = new Map<string, { current: number; endsAt: number }>();

  increment(key: string, timeWindow: number): Count {
    const now = Date.now();
    let window = this.windows.get(key);
    if (!window || window.endsAt <= now) {
      this.windows.delete(key);
      if (this.windows.size >= MAX_LOCAL_KEYS) this.windows.delete(this.windows.keys().next().value!);
      window = { current: 0, endsAt: now + timeWindow };
      this.windows.set(key, window);
    }
    window.current += 1;
    return { current: window.current, ttl: window.endsAt - now };
  }

  read(key: string): Count {
    const window = this.windows.get(key);
    const now = Date.now();
    return !window || window.endsAt <= now ? { current: 0, ttl: 0 } : { current: window.current, ttl: window.endsAt - now };
  }
}

interface Shared {
  redis: Redis;
  log: FastifyBaseLogger;
  isFailing: boolean;
}

/** A store class for @fastify/rate-limit's `store` option; keys live under `prefix`. */
export function redisRateLimitStore(redis: Redis, prefix: string, log: FastifyBaseLogger): FastifyRateLimitStoreCtor {
  const shared: Shared = { redis, log, isFailing: false };

  class RedisRateLimitStore implements FastifyRateLimitStore {
    private readonly local = new LocalWindows();

    // The plugin constructs the store with its options; the key prefix is ours.
    constructor(_options?: FastifyRateLimitOptions, private readonly keyPrefix = prefix) {}

    incr(key: string, callback: Callback, timeWindow: number): void {
      this.run(INCREMENT, key, timeWindow).then(
        (count) => callback(null, count),
        (error: unknown) => {
          this.noteFailure(error);
          callback(null, this.local.increment(key, timeWindow));
        },
      );
    }

    read(key: string, callback: Callback, timeWindow: number): void {
      this.run(READ, key, timeWindow).then(
        (count) => callback(null, count),
        (error: unknown) => {
          this.noteFailure(error);
          callback(null, this.local.read(key));
        },
      );
    }

    /** A route with its own limit (sign-in) counts apart, as the plugin's Redis store does. */
    child(routeOptions: unknown): FastifyRateLimitStore {
      const route = (routeOptions as { routeInfo?: { method?: string | string[]; url?: string } }).routeInfo ?? {};
      return new RedisRateLimitStore(undefined, `${this.keyPrefix}${String(route.method ?? '')}${route.url ?? ''}-`);
    }

    private async run(script: string, key: string, timeWindow: number): Promise<Count> {
      const [current, ttl] = (await shared.redis.eval(script, 1, `${this.keyPrefix}${key}`, String(timeWindow))) as [number, number];
      if (shared.isFailing) {
        shared.isFailing = false;
        shared.log.warn('rate limit: Redis answers again; counting across instances');
      }
      return { current, ttl };
    }

    private noteFailure(error: unknown): void {
      if (shared.isFailing) return;
      shared.isFailing = true;
      shared.log.error({ err: error }, "rate limit: Redis did not answer; counting this instance's requests only until it does");
    }
  }

  return RedisRateLimitStore;
}
