// The cache bus (decision 026): how an instance tells every instance, itself included, to forget a
// cache. A cache subscribes to its topic ("browse", "settings") and drops its entries when told; a
// change publishes the topic after its transaction has committed. Three carriers, one contract:
// - local (the default; the embedded database, where one process is the whole site),
// - Redis pub/sub (REDIS_URL),
// - PostgreSQL LISTEN/NOTIFY (DATABASE_URL on a server, no REDIS_URL).
// publish() runs this instance's handlers at once, before it returns, and then sends the message;
// an instance ignores its own message when it comes back (each message names its sender), and
// handlers only drop entries, so a message that arrives twice does no harm.
// A carrier that loses its connection keeps trying; meanwhile each cache falls back to its own
// short lifetime, and once the connection is back every handler runs (messages may have been
// missed), so no instance keeps serving what it was told to forget.
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import pg from 'pg';
import { pgTimeoutSettings, reportLostConnections, type DatabaseTimeouts } from '../db/connection';
import { closeRedis, connectRedis, waitForRedis } from './redis';

export type CacheHandler = (payload: unknown) => void;

export interface CacheBus {
  readonly kind: 'local' | 'redis' | 'postgres';
  /** Names this instance in the messages it sends. */
  readonly instanceId: string;
  /** Runs this instance's handlers for `topic` now, then tells the other instances. Never throws. */
  publish(topic: string, payload?: unknown): Promise<void>;
  /** Runs `handler` whenever any instance publishes `topic`; returns the unsubscribe function. */
  subscribe(topic: string, handler: CacheHandler): () => void;
  /** Stops listening and closes the carrier's connections. */
  close(): Promise<void>;
}

/** What travels between instances. */
interface CacheMessage {
  from: string;
  topic: string;
  payload?: unknown;
}

/** Passed to every handler when the carrier reconnects: whatever was published meanwhile is unknown. */
export const RESYNC = Object.freeze({ resync: true });

export class LocalCacheBus implements CacheBus {
  readonly kind: CacheBus['kind'] = 'local';
  readonly instanceId = randomUUID();
  private readonly handlers = new Map<string, Set<CacheHandler>>();

  constructor(protected readonly log?: FastifyBaseLogger) {}

  async publish(topic: string, payload?: unknown): Promise<void> {
    this.deliver(topic, payload);
    await this.send({ from: this.instanceId, topic, ...(payload === undefined ? {} : { payload }) });
  }

  subscribe(topic: string, handler: CacheHandler): () => void {
    let set = this.handlers.get(topic);
    if (!set) {
      set = new Set();
      this.handlers.set(topic, set);
    }
    set.add(handler);
    return () => {
      set.delete(handler);
    };
  }

  async close(): Promise<void> {}

  /** Sends a message to the other instances; the local bus has none. */
  protected async send(_message: CacheMessage): Promise<void> {}

  protected deliver(topic: string, payload: unknown): void {
    for (const handler of this.handlers.get(topic) ?? []) {
      try {
        handler(payload);
      } catch (error) {
        this.log?.error({ err: error, topic }, 'cache handler failed');
      }
    }
  }

  /** A message from another instance (raw JSON); our own come back too and are ignored. */
  protected receive(raw: string): void {
    let message: CacheMessage;
    try {
      message = JSON.parse(raw) as CacheMessage;
    } catch {
      this.log?.warn({ raw: raw.slice(0, 200) }, 'cache bus: message is not JSON');
      return;
    }
    if (!message || typeof message.topic !== 'string' || message.from === this.instanceId) return;
    this.deliver(message.topic, message.payload);
  }

  /** Runs every handler: after a reconnect, when messages may have been missed. */
  protected resync(): void {
    for (const topic of this.handlers.keys()) this.deliver(topic, RESYNC);
  }
}

/** Redis pub/sub: one connection publishes, one listens (a subscribed connection can do nothing else). */
export class RedisCacheBus extends LocalCacheBus {
  override readonly kind = 'redis';
  readonly channel: string;
  private readonly publisher: Redis;
  private readonly subscriber: Redis;
  private hasSubscribed = false;
  private isPublishFailing = false;
  /** Resolves once the first subscription is in place. */
  readonly ready: Promise<void>;

  constructor(options: { url: string; namespace: string; log: FastifyBaseLogger }) {
    super(options.log);
    this.channel = `${options.namespace}:cache`;
    this.publisher = connectRedis(options.url, options.log, `${options.namespace}-cache-publish`);
    // Subscribing again is ours to do on every (re)connect, so that we know when it took effect.
    this.subscriber = connectRedis(options.url, options.log, `${options.namespace}-cache-listen`, { autoResubscribe: false });
    this.subscriber.on('message', (channel: string, raw: string) => {
      if (channel === this.channel) this.receive(raw);
    });
    let markReady: () => void;
    this.ready = new Promise((resolve) => (markReady = resolve));
    this.subscriber.on('ready', () => {
      this.subscriber.subscribe(this.channel).then(
        () => {
          if (this.hasSubscribed) this.resync();
          this.hasSubscribed = true;
          markReady();
        },
        (error: unknown) => options.log.error({ err: error }, 'cache bus: Redis SUBSCRIBE failed'),
      );
    });
  }

  protected override async send(message: CacheMessage): Promise<void> {
    try {
      await this.publisher.publish(this.channel, JSON.stringify(message));
      if (this.isPublishFailing) this.log?.warn('cache bus: Redis PUBLISH works again');
      this.isPublishFailing = false;
    } catch (error) {
      if (!this.isPublishFailing) {
        this.log?.error({ err: error, topic: message.topic }, 'cache bus: Redis PUBLISH failed; other instances forget by expiry only');
      }
      this.isPublishFailing = true;
    }
  }

  override async close(): Promise<void> {
    await Promise.all([closeRedis(this.subscriber), closeRedis(this.publisher)]);
  }

  /** True once subscribed, false if not within `timeoutMs` (it keeps trying). */
  async waitUntilReady(timeoutMs: number): Promise<boolean> {
    if (!(await waitForRedis(this.subscriber, timeoutMs))) return false;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
    try {
      return await Promise.race([this.ready.then(() => true), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}

const MAX_RECONNECT_DELAY_MS = 5000;

/**
 * PostgreSQL LISTEN/NOTIFY: a dedicated client listens (and is opened again when it drops); a pool
 * of one sends NOTIFY, so that sending never waits for the listener to reconnect. Both use the
 * database's timeouts (decision 029): a publish after a commit, which the request awaits, never
 * waits on a stalled database for longer than they allow, and a reconnect that stalls is given up
 * and tried again rather than waited on for ever.
 */
export class PostgresCacheBus extends LocalCacheBus {
  override readonly kind = 'postgres';
  readonly channel: string;
  private readonly url: string;
  private readonly applicationName: string;
  private readonly connectTimeoutMs: number;
  private readonly pool: pg.Pool;
  private listener: pg.Client | null = null;
  private hasListened = false;
  private isClosed = false;
  private isListenerDown = false;
  private isPublishFailing = false;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private attempts = 0;

  constructor(options: { url: string; namespace: string; log: FastifyBaseLogger; timeouts?: DatabaseTimeouts; applicationName?: string }) {
    super(options.log);
    this.url = options.url;
    this.channel = `${options.namespace}_cache`;
    this.applicationName = options.applicationName ?? 'karoo';
    this.connectTimeoutMs = options.timeouts?.connectMs ?? 0;
    this.pool = new pg.Pool({
      connectionString: options.url,
      max: 1,
      idleTimeoutMillis: 30_000,
      application_name: this.applicationName,
      ...pgTimeoutSettings(options.timeouts),
    });
    // A pooled connection that dies emits 'error': logged, never a crash.
    reportLostConnections(this.pool, this.log, 'cache bus NOTIFY');
  }

  /** Starts listening; resolves true once LISTEN took effect, false on failure (it keeps trying). */
  async listen(): Promise<boolean> {
    if (this.isClosed) return false;
    const client = new pg.Client({
      connectionString: this.url,
      keepAlive: true,
      application_name: this.applicationName,
      ...(this.connectTimeoutMs ? { connectionTimeoutMillis: this.connectTimeoutMs } : {}),
    });
    this.listener = client;
    const lost = (error?: Error) => {
      if (this.listener !== client) return;
      this.listener = null;
      if (!this.isListenerDown && !this.isClosed) {
        this.log?.error({ err: error }, 'cache bus: PostgreSQL LISTEN connection lost; reconnecting');
      }
      this.isListenerDown = true;
      client.end().catch(() => {});
      this.scheduleReconnect();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', (notice) => {
      if (notice.channel === this.channel && notice.payload) this.receive(notice.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN "${this.channel}"`);
    } catch (error) {
      lost(error instanceof Error ? error : new Error(String(error)));
      return false;
    }
    if (this.listener !== client) return false;
    this.attempts = 0;
    if (this.isListenerDown) this.log?.warn('cache bus: PostgreSQL LISTEN connection back');
    this.isListenerDown = false;
    if (this.hasListened) this.resync();
    this.hasListened = true;
    return true;
  }

  private scheduleReconnect(): void {
    if (this.isClosed || this.reconnectTimer) return;
    const delay = Math.min(100 * 2 ** this.attempts, MAX_RECONNECT_DELAY_MS);
    this.attempts += 1;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      void this.listen();
    }, delay);
  }

  protected override async send(message: CacheMessage): Promise<void> {
    try {
      await this.pool.query('SELECT pg_notify($1, $2)', [this.channel, JSON.stringify(message)]);
      if (this.isPublishFailing) this.log?.warn('cache bus: NOTIFY works again');
      this.isPublishFailing = false;
    } catch (error) {
      if (!this.isPublishFailing) {
        this.log?.error({ err: error, topic: message.topic }, 'cache bus: NOTIFY failed; other instances forget by expiry only');
      }
      this.isPublishFailing = true;
    }
  }

  override async close(): Promise<void> {
    this.isClosed = true;
    clearTimeout(this.reconnectTimer);
    const listener = this.listener;
    this.listener = null;
    await Promise.all([listener?.end().catch(() => {}), this.pool.end().catch(() => {})]);
  }
}

/** How long start-up waits for the carrier before going on without it (it keeps trying). */
const CONNECT_WAIT_MS = 3000;

/**
 * The bus this instance uses: Redis when REDIS_URL is set, else LISTEN/NOTIFY when the database is
 * a PostgreSQL server, else local. Waits briefly for the carrier so that an instance is listening
 * before it serves; a carrier that is down only costs a log line.
 */
export async function createCacheBus(options: {
  redisUrl?: string | undefined;
  databaseUrl?: string | undefined;
  databaseTimeouts?: DatabaseTimeouts;
  namespace: string;
  log: FastifyBaseLogger;
}): Promise<CacheBus> {
  const { redisUrl, databaseUrl, namespace, log } = options;
  if (redisUrl) {
    const bus = new RedisCacheBus({ url: redisUrl, namespace, log });
    if (!(await bus.waitUntilReady(CONNECT_WAIT_MS))) log.error('cache bus: Redis not reachable at start; caches expire on their own until it is');
    return bus;
  }
  if (databaseUrl) {
    const bus = new PostgresCacheBus({ url: databaseUrl, namespace, log, ...(options.databaseTimeouts ? { timeouts: options.databaseTimeouts } : {}) });
    if (!(await bus.listen())) log.error('cache bus: LISTEN failed at start; caches expire on their own until it works');
    return bus;
  }
  return new LocalCacheBus(log);
}
