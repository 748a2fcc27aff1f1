// Real Karoo servers as child processes (`node --import tsx src/server.ts`), for tests of what
// several instances share: one PostgreSQL database made for the run, Redis when asked, and any
// extra environment (object storage, for instance). Tests talk to them over HTTP with fetch.
// Unlike the rest of the suite this opens ports: two instances cannot share one process.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import pg from 'pg';
import { connectServer } from '../../src/db/connection';
import { migrateToLatest } from '../../src/db/migrate';
import { waitForListening } from './process';

const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const SERVER_ENTRY = path.join(REPO_ROOT, 'apps/api/src/server.ts');

/** The instant the instances' clocks start at (KAROO_TEST_NOW): no test reads the real date. */
export const INSTANCES_TEST_NOW = '2030-03-10T08:00:00+02:00';
/** The demo accounts' password (SEED_DEMO=true). */
export const DEMO_PASSWORD = 'Demo@1234';

export interface Instance {
  /** http://127.0.0.1:<port> */
  url: string;
  port: number;
  env: Record<string, string>;
  /** What the process printed (LOG_LEVEL=warn keeps it short), for failure messages. */
  output(): string;
  stop(): Promise<void>;
}

/** A port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** A namespace for Redis keys and channels (CACHE_NAMESPACE) that no other run uses. */
export function uniqueNamespace(prefix = 't'): string {
  return `${prefix}${randomBytes(5).toString('hex')}`;
}

/** True when Redis answers PING at `url` within half a second. */
export async function isRedisReachable(url: string): Promise<boolean> {
  const redis = new Redis(url, { lazyConnect: true, connectTimeout: 500, maxRetriesPerRequest: 0, retryStrategy: () => null, enableOfflineQueue: false });
  redis.on('error', () => {});
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

/** Deletes every Redis key of a namespace (the rate limit's counts). */
export async function clearRedisNamespace(url: string, namespace: string): Promise<void> {
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    const keys = await redis.keys(`${namespace}:*`);
    if (keys.length) await redis.del(...keys);
  } finally {
    redis.disconnect();
  }
}

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * A fresh, migrated database on the server at TEST_DATABASE_URL (a whole database, not a schema:
 * a child process is handed just a URL). Migrated here, once, so instances started together do
 * not race to migrate it.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) throw new Error('createTestDatabase needs TEST_DATABASE_URL');
  const name = `karoo_${uniqueNamespace('i')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const drop = async () => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    } finally {
      await client.end();
    }
  };
  const handle = connectServer({ url: url.toString(), max: 1 });
  try {
    await migrateToLatest(handle.db);
  } catch (error) {
    await handle.close();
    await drop();
    throw error;
  }
  await handle.close();
  return { url: url.toString(), drop };
}

/**
 * Starts one server with `env` (DATABASE_URL at least) over defaults for a test: NODE_ENV=test,
 * a free PORT, a temporary DATA_DIR, LOG_LEVEL=warn, the pinned clock. Resolves once it says it
 * listens (its IPC message; no guess of how long a start takes), or rejects when it exits first.
 */
export async function startInstance(env: Record<string, string>): Promise<Instance> {
  const port = await freePort();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'karoo-instance-'));
  const fullEnv: Record<string, string> = {
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: String(port),
    APP_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    KAROO_TEST_NOW: INSTANCES_TEST_NOW,
    ...env,
  };
  // Only what a server needs from this process: not the test runner's own variables.
  const inherited = Object.fromEntries(['PATH', 'HOME', 'TMPDIR', 'LANG'].flatMap((key) => (process.env[key] ? [[key, process.env[key]]] : [])));
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER_ENTRY], {
    cwd: REPO_ROOT,
    env: { ...inherited, ...fullEnv },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let printed = '';
  const keep = (chunk: Buffer) => {
    printed = (printed + chunk.toString('utf8')).slice(-20_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForListening(child, () => printed);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, port, env: fullEnv, output: () => printed, stop };
}

export interface TwoInstances {
  a: Instance;
  b: Instance;
  database: TestDatabase;
  /** CACHE_NAMESPACE of both (their Redis keys and channel, their NOTIFY channel). */
  namespace: string;
  close(): Promise<void>;
}

/**
 * Two servers on one fresh database and, with `redisUrl`, one Redis, under a namespace of their
 * own; `env` goes to both (extra services such as object storage). SEED_DEMO is on: the demo
 * accounts (admin, host_thabo, ...) sign in with DEMO_PASSWORD.
 */
export async function startTwoInstances(options: { redisUrl?: string; env?: Record<string, string> } = {}): Promise<TwoInstances> {
  const database = await createTestDatabase();
  const namespace = uniqueNamespace();
  const env = {
    DATABASE_URL: database.url,
    CACHE_NAMESPACE: namespace,
    SEED_DEMO: 'true',
    ...(options.redisUrl ? { REDIS_URL: options.redisUrl } : {}),
    ...options.env,
  };
  const started = await Promise.allSettled([startInstance(env), startInstance(env)]);
  const instances = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const close = async () => {
    await Promise.all(instances.map((instance) => instance.stop()));
    if (options.redisUrl) await clearRedisNamespace(options.redisUrl, namespace).catch(() => {});
    await database.drop();
  };
  const failed = started.find((result) => result.status === 'rejected');
  if (failed) {
    await close();
    throw failed.reason;
  }
  return { a: instances[0]!, b: instances[1]!, database, namespace, close };
}
