// The cache bus's three carriers (decision 026): a publisher's own handlers run before publish()
// returns and never a second time when its message comes back; another bus on the same namespace
// hears it within 100 ms, one on another namespace never does; a carrier that loses its connection
// comes back and runs every handler (what was published meanwhile is unknown); a carrier that cannot
// connect costs nothing but a log line. Also the Redis rate-limit store: one count across two
// instances, and this instance's own count while Redis is away. Redis and PostgreSQL parts skip,
// saying why, when those servers are missing.
import pg from 'pg';
import pino from 'pino';
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { LocalCacheBus, PostgresCacheBus, RedisCacheBus, RESYNC, type CacheBus } from '../src/lib/cache-bus';
import { redisRateLimitStore } from '../src/lib/rate-limit-store';
import { forgetSettings, getSettings } from '../src/modules/settings';
import { createTestApp } from './helpers';
import { clearRedisNamespace, isRedisReachable, uniqueNamespace } from './helpers/instances';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const DATABASE_URL = process.env.TEST_DATABASE_URL;
const hasRedis = await isRedisReachable(REDIS_URL);
if (!hasRedis) console.log(`cache bus over Redis skipped: no Redis at ${REDIS_URL}`);
if (!DATABASE_URL) console.log('cache bus over PostgreSQL skipped: TEST_DATABASE_URL is not set');

const log = pino({ level: 'silent' });
const WITHIN_MS = 100;

/**
 * The bound on hearing another instance's message: 100 ms, or on a busy machine four times what a
 * publish to a topic nobody hears takes at that moment through the same server (the ceiling measured
 * in the same run, not a guess of the machine's speed).
 */
async function deliveryBound(publisher: CacheBus): Promise<number> {
  const started = performance.now();
  await publisher.publish('unheard');
  return Math.max(WITHIN_MS, 4 * (performance.now() - started));
}

const opened: CacheBus[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((bus) => bus.close()));
});

/** Resolves with the payload and the milliseconds until `bus` hears `topic` (rejects past 2 s). */
function nextMessage(bus: CacheBus, topic: string): Promise<{ payload: unknown; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`no ${topic} message within 2 s`));
    }, 2000);
    const stop = bus.subscribe(topic, (payload) => {
      clearTimeout(timer);
      stop();
      resolve({ payload, ms: performance.now() - started });
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('local cache bus', () => {
  it("runs the publisher's handlers before publish returns, once each, and stops after unsubscribe", async () => {
    const bus = new LocalCacheBus(log);
    const heard: unknown[] = [];
    const stop = bus.subscribe('browse', (payload) => heard.push(payload));
    bus.subscribe('settings', () => heard.push('settings'));
    const publishing = bus.publish('browse', { carId: 'x' });
    expect(heard).toEqual([{ carId: 'x' }]);
    await publishing;
    stop();
    await bus.publish('browse');
    expect(heard).toEqual([{ carId: 'x' }]);
  });

  it('a failing handler does not keep the others from running', async () => {
    const bus = new LocalCacheBus(log);
    let ran = false;
    bus.subscribe('browse', () => {
      throw new Error('boom');
    });
    bus.subscribe('browse', () => (ran = true));
    await expect(bus.publish('browse')).resolves.toBeUndefined();
    expect(ran).toBe(true);
  });

  it('an app built without a shared bus gets a local one of its own', async () => {
    const t = await createTestApp();
    try {
      expect(t.ctx.cacheBus.kind).toBe('local');
    } finally {
      await t.close();
    }
  });
});

describe('settings cache', () => {
  it('does not keep a read that began before a forget (an invalidation that overtook it)', async () => {
    const t = await createTestApp();
    try {
      await t.db.insertInto('settings').values({ id: 1, data: JSON.stringify({ platform_fee: 25 }), updated_by: null, updated_at: t.clock.now() })
        .onConflict((oc) => oc.column('id').doUpdateSet({ data: JSON.stringify({ platform_fee: 25 }) })).execute();
      forgetSettings(t.ctx);
      const reading = getSettings(t.ctx);
      // The invalidation arrives while the read is in flight; the row has changed by then.
      forgetSettings(t.ctx);
      await t.db.updateTable('settings').set({ data: JSON.stringify({ platform_fee: 30 }) }).where('id', '=', 1).execute();
      await reading;
      expect((await getSettings(t.ctx)).platform_fee).toBe(30);
    } finally {
      await t.close();
    }
  });
});

describe.skipIf(!hasRedis)('Redis cache bus', () => {
  const open = async (namespace: string) => {
    const bus = new RedisCacheBus({ url: REDIS_URL, namespace, log });
    opened.push(bus);
    expect(await bus.waitUntilReady(2000)).toBe(true);
    return bus;
  };

  it('delivers to the other instance within 100 ms, and once to the publisher', async () => {
    const namespace = uniqueNamespace();
    const [a, b, other] = [await open(namespace), await open(namespace), await open(uniqueNamespace())];
    let aHeard = 0;
    let otherHeard = 0;
    a.subscribe('browse', () => (aHeard += 1));
    other.subscribe('browse', () => (otherHeard += 1));
    const bound = await deliveryBound(a);
    const heard = nextMessage(b, 'browse');
    await a.publish('browse', { n: 1 });
    const { payload, ms } = await heard;
    expect(payload).toEqual({ n: 1 });
    expect(ms).toBeLessThan(bound);
    await sleep(50);
    expect(aHeard).toBe(1);
    expect(otherHeard).toBe(0);
  });

  it('after its connection is cut, reconnects, runs every handler, and delivers again', async () => {
    const namespace = uniqueNamespace();
    const [a, b] = [await open(namespace), await open(namespace)];
    const resynced = nextMessage(b, 'settings');
    const admin = new Redis(REDIS_URL);
    try {
      const clients = (await admin.client('LIST')) as string;
      const ids = clients
        .split('\n')
        .filter((line) => line.includes(` name=${namespace}-cache-listen `))
        .map((line) => Number(/^id=(\d+)/.exec(line)?.[1]));
      expect(ids).toHaveLength(2);
      // Cut b's listening connection only (b connected second: the higher id).
      await admin.client('KILL', 'ID', String(Math.max(...ids)));
    } finally {
      admin.disconnect();
    }
    expect((await resynced).payload).toEqual(RESYNC);
    const bound = await deliveryBound(a);
    const heard = nextMessage(b, 'browse');
    await a.publish('browse');
    expect((await heard).ms).toBeLessThan(bound);
  });

  it('shares a rate-limit count between two instances, each route apart', async () => {
    const namespace = uniqueNamespace();
    const redisA = new Redis(REDIS_URL);
    const redisB = new Redis(REDIS_URL);
    try {
      const StoreA = redisRateLimitStore(redisA, `${namespace}:rate-limit:`, log);
      const StoreB = redisRateLimitStore(redisB, `${namespace}:rate-limit:`, log);
      const [a, b] = [new StoreA({}), new StoreB({})];
      const incr = (store: InstanceType<typeof StoreA>, key: string) =>
        new Promise<{ current: number; ttl: number }>((resolve, reject) => store.incr(key, (err, res) => (err ? reject(err) : resolve(res!)), 60_000, 30));
      expect((await incr(a, '198.18.0.1')).current).toBe(1);
      expect((await incr(b, '198.18.0.1')).current).toBe(2);
      const third = await incr(a, '198.18.0.1');
      expect(third.current).toBe(3);
      expect(third.ttl).toBeGreaterThan(59_000);
      expect((await incr(b, '198.18.0.2')).current).toBe(1);
      const login = a.child({ routeInfo: { method: 'POST', url: '/api/user/login' } } as never);
      expect((await incr(login as never, '198.18.0.1')).current).toBe(1);
    } finally {
      redisA.disconnect();
      redisB.disconnect();
      await clearRedisNamespace(REDIS_URL, namespace);
    }
  });
});

describe('carriers that cannot connect', () => {
  it('a Redis bus with no Redis still runs local handlers and publish never throws; the rate limit counts locally', async () => {
    const bus = new RedisCacheBus({ url: 'redis://127.0.0.1:1', namespace: uniqueNamespace(), log });
    opened.push(bus);
    expect(await bus.waitUntilReady(200)).toBe(false);
    let heard = 0;
    bus.subscribe('browse', () => (heard += 1));
    await expect(bus.publish('browse')).resolves.toBeUndefined();
    expect(heard).toBe(1);

    const redis = new Redis('redis://127.0.0.1:1', { enableOfflineQueue: false, maxRetriesPerRequest: 1, retryStrategy: () => 1000 });
    redis.on('error', () => {});
    try {
      const Store = redisRateLimitStore(redis, 'x:', log);
      const store = new Store({});
      const incr = () => new Promise<number>((resolve) => store.incr('198.18.0.1', (_err, res) => resolve(res!.current), 60_000, 30));
      expect(await incr()).toBe(1);
      expect(await incr()).toBe(2);
    } finally {
      redis.disconnect();
    }
  });

  it.skipIf(!DATABASE_URL)('a PostgreSQL bus whose server refuses still runs local handlers', async () => {
    const url = new URL(DATABASE_URL!);
    url.port = '1';
    const bus = new PostgresCacheBus({ url: url.toString(), namespace: uniqueNamespace(), log });
    opened.push(bus);
    expect(await bus.listen()).toBe(false);
    let heard = 0;
    bus.subscribe('browse', () => (heard += 1));
    await expect(bus.publish('browse')).resolves.toBeUndefined();
    expect(heard).toBe(1);
  });
});

describe.skipIf(!DATABASE_URL)('PostgreSQL LISTEN/NOTIFY cache bus', () => {
  const open = async (namespace: string) => {
    const bus = new PostgresCacheBus({ url: DATABASE_URL!, namespace, log });
    opened.push(bus);
    expect(await bus.listen()).toBe(true);
    return bus;
  };
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  let adminConnected = false;
  afterAll(async () => {
    if (adminConnected) await admin.end();
  });

  it('delivers to the other instance within 100 ms, and once to the publisher', async () => {
    const namespace = uniqueNamespace();
    const [a, b, other] = [await open(namespace), await open(namespace), await open(uniqueNamespace())];
    let aHeard = 0;
    let otherHeard = 0;
    a.subscribe('settings', () => (aHeard += 1));
    other.subscribe('settings', () => (otherHeard += 1));
    const bound = await deliveryBound(a);
    const heard = nextMessage(b, 'settings');
    await a.publish('settings', { n: 2 });
    const { payload, ms } = await heard;
    expect(payload).toEqual({ n: 2 });
    expect(ms).toBeLessThan(bound);
    await sleep(50);
    expect(aHeard).toBe(1);
    expect(otherHeard).toBe(0);
  });

  it('after its listening connection is cut, reconnects, runs every handler, and delivers again', async () => {
    const namespace = uniqueNamespace();
    const [a, b] = [await open(namespace), await open(namespace)];
    const resynced = nextMessage(b, 'browse');
    await admin.connect();
    adminConnected = true;
    const { rows } = await admin.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE query = $1 ORDER BY backend_start DESC LIMIT 1',
      [`LISTEN "${b.channel}"`],
    );
    expect(rows).toHaveLength(1);
    await admin.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
    expect((await resynced).payload).toEqual(RESYNC);
    const bound = await deliveryBound(a);
    const heard = nextMessage(b, 'browse');
    await a.publish('browse');
    expect((await heard).ms).toBeLessThan(bound);
  });
});
