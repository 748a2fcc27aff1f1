// One Kysely database over node-postgres, either on a PostgreSQL server (DATABASE_URL) or on the
// embedded PGlite through its node-postgres adapter. PGlite is a single connection: a pool of one.
// On a server, connections are lost (a restart, a failover, pg_terminate_backend) and networks
// stall: no lost connection may crash the process, and no request may wait on the database for
// longer than the timeouts below (docs/decisions/029-database-failures.md).
import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import type { FastifyBaseLogger } from 'fastify';
import { Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient } from 'kysely';
import pg from 'pg';
import type { PoolStats } from '../runtime';
import type { Database } from './schema';

// Dates stay 'YYYY-MM-DD' strings (no time-zone shifts); counts and numerics become numbers.
pg.types.setTypeParser(pg.types.builtins.DATE, (v) => v);
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => Number(v));

export type Db = Kysely<Database>;

export interface DatabaseHandle {
  db: Db;
  kind: 'pglite' | 'postgres';
  /**
   * The connection pool under `db`, for the job queue (jobs/queue.ts): pg-boss runs its own
   * statements on it, so it shares the app's connections and, on PGlite, its one session.
   */
  pool: pg.Pool;
  /** The schema the app's tables are in when it is not `public` (tests). */
  schema?: string;
  /** PostgreSQL: the URL it connects to (tests open a second connection to the same database). */
  url?: string;
  /** How busy the connection pool is (for /metrics). */
  poolStats(): PoolStats;
  /**
   * Runs `work` on a connection without the statement and idle-in-transaction timeouts: the
   * migrations and the first-start seed, which may build an index for minutes or wait for another
   * instance's advisory lock. Elsewhere the database is the same `db`.
   */
  withoutTimeouts<T>(work: (db: Db) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

const statsOf = (pool: pg.Pool, max: number) => (): PoolStats => ({
  total: pool.totalCount,
  idle: pool.idleCount,
  waiting: pool.waitingCount,
  max,
});

/** How long a PostgreSQL server may keep a request waiting (ms; 0 turns one off). */
export interface DatabaseTimeouts {
  /** For a connection: a new one (the TCP connect and the start-up), or a free one from a busy pool. */
  connectMs: number;
  /** statement_timeout: the server cancels a statement that runs longer (57014). */
  statementMs: number;
  /** idle_in_transaction_session_timeout: the server ends a session left idle inside a transaction (25P03). */
  idleInTransactionMs: number;
}

/**
 * How much longer than statement_timeout the client waits for an answer before it gives up on its
 * own: past that, the server did not even cancel the statement, so the network or the server is
 * stalled and only the client can end the wait.
 */
export const ANSWER_MARGIN_MS = 1000;

export function timeoutsFromEnv(env: {
  DATABASE_CONNECT_TIMEOUT_MS: number;
  DATABASE_STATEMENT_TIMEOUT_MS: number;
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: number;
}): DatabaseTimeouts {
  return {
    connectMs: env.DATABASE_CONNECT_TIMEOUT_MS,
    statementMs: env.DATABASE_STATEMENT_TIMEOUT_MS,
    idleInTransactionMs: env.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
  };
}

/** node-postgres settings for the timeouts; none (as before) when they are not given. */
export function pgTimeoutSettings(timeouts: DatabaseTimeouts | undefined): pg.PoolConfig {
  if (!timeouts) return {};
  return {
    ...(timeouts.connectMs ? { connectionTimeoutMillis: timeouts.connectMs } : {}),
    ...(timeouts.statementMs ? { statement_timeout: timeouts.statementMs, query_timeout: timeouts.statementMs + ANSWER_MARGIN_MS } : {}),
    ...(timeouts.idleInTransactionMs ? { idle_in_transaction_session_timeout: timeouts.idleInTransactionMs } : {}),
  };
}

export interface ServerOptions {
  url: string;
  /** Schema to work in (tests use one per file); `public` stays on the path for extensions. */
  schema?: string;
  max?: number;
  timeouts?: DatabaseTimeouts;
  /** Names the connections in pg_stat_activity (operators, and tests that cut only their own). */
  applicationName?: string;
  /** Where lost connections are reported (warn); silent without one. */
  log?: FastifyBaseLogger;
}

/**
 * A lost connection emits 'error' on its client, and an idle one's on the pool too. node-postgres
 * listens on a client only while it sits idle in the pool; one lost while a request holds it (in a
 * transaction, say) would be an unhandled 'error' event and end the process. Every client gets a
 * listener of its own for its whole life; the query in flight fails with the error anyway, and the
 * pool drops the dead client when it is released.
 */
export function reportLostConnections(pool: pg.Pool, log: FastifyBaseLogger | undefined, what: string): void {
  pool.on('connect', (client) => {
    client.on('error', (error) => log?.warn({ err: error }, `${what}: database connection lost`));
  });
  // The pool re-emits an idle client's error after dropping the client: already reported above.
  pool.on('error', () => {});
}

/**
 * The pool as Kysely sees it. A query the client gave up on (no answer within statement_timeout plus
 * ANSWER_MARGIN_MS) leaves its connection waiting for an answer that may never come: the connection
 * is closed at once, so that the rollback after it fails at once instead of waiting as long again,
 * and the pool opens a new one for the next request.
 */
function closingStalledConnections(pool: pg.Pool): PostgresPool {
  const views = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const viewOf = (client: pg.PoolClient): PostgresPoolClient => {
    let view = views.get(client);
    if (!view) {
      // Only the (sql, parameters) form: the dialect is built without a cursor, so Kysely never
      // passes one.
      view = {
        query: (text: string, values: readonly unknown[]) =>
          client.query(text, [...values]).catch((error: unknown) => {
            if (error instanceof Error && error.message === 'Query read timeout') client.end().catch(() => {});
            throw error;
          }),
        // The pool sets release() on each checkout: look it up each time.
        release: () => client.release(),
      } as unknown as PostgresPoolClient;
      views.set(client, view);
    }
    return view;
  };
  return { connect: async () => viewOf(await pool.connect()), end: () => pool.end() };
}

export function connectServer({ url, schema, max = 10, timeouts, applicationName = 'karoo', log }: ServerOptions): DatabaseHandle {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    application_name: applicationName,
    ...(schema ? { options: `-c search_path=${schema},public` } : {}),
    ...pgTimeoutSettings(timeouts),
  });
  reportLostConnections(pool, log, 'pool');
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: closingStalledConnections(pool) }) });
  const isBounded = !!timeouts && (timeouts.statementMs > 0 || timeouts.idleInTransactionMs > 0);
  return {
    db,
    kind: 'postgres',
    pool,
    ...(schema ? { schema } : {}),
    url,
    poolStats: statsOf(pool, max),
    withoutTimeouts: async (work) => {
      if (!isBounded) return work(db);
      const unbounded = connectServer({ url, schema, max: 1, applicationName, log, timeouts: { connectMs: timeouts.connectMs, statementMs: 0, idleInTransactionMs: 0 } });
      try {
        return await work(unbounded.db);
      } finally {
        await unbounded.close();
      }
    },
    close: () => db.destroy(),
  };
}

export async function openPglite(options: { dataDir?: string; loadDataDir?: Blob | File }): Promise<PGlite> {
  if (options.dataDir && !options.dataDir.startsWith('memory://')) await mkdir(options.dataDir, { recursive: true });
  return PGlite.create({
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    extensions: { btree_gist, pg_trgm },
  });
}

export function connectPglite(pglite: PGlite): DatabaseHandle {
  const pool = new pg.Pool({ ...createPgConfig(pglite), max: 1 } as pg.PoolConfig);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    kind: 'pglite',
    pool,
    poolStats: statsOf(pool, 1),
    // In process: nothing to lose, nothing stalls, and no timeouts were set.
    withoutTimeouts: (work) => work(db),
    close: async () => {
      await db.destroy();
      await pglite.close();
    },
  };
}

export async function connectDatabase(config: {
  databaseUrl?: string | undefined;
  dataDir: string;
  timeouts?: DatabaseTimeouts;
  log?: FastifyBaseLogger;
}): Promise<DatabaseHandle> {
  if (config.databaseUrl) {
    return connectServer({ url: config.databaseUrl, ...(config.timeouts ? { timeouts: config.timeouts } : {}), ...(config.log ? { log: config.log } : {}) });
  }
  return connectPglite(await openPglite({ dataDir: `${config.dataDir}/db` }));
}
