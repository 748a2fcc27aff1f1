// One Kysely database over node-postgres, either on a PostgreSQL server (DATABASE_URL) or on the
// embedded PGlite through its node-postgres adapter. PGlite is a single connection: a pool of one.
import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import { Kysely, PostgresDialect } from 'kysely';
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
  /** How busy the connection pool is (for /metrics). */
  poolStats(): PoolStats;
  close(): Promise<void>;
}

const statsOf = (pool: pg.Pool, max: number) => (): PoolStats => ({
  total: pool.totalCount,
  idle: pool.idleCount,
  waiting: pool.waitingCount,
  max,
});

export interface ServerOptions {
  url: string;
  /** Schema to work in (tests use one per file); `public` stays on the path for extensions. */
  schema?: string;
  max?: number;
}

export function connectServer({ url, schema, max = 10 }: ServerOptions): DatabaseHandle {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    ...(schema ? { options: `-c search_path=${schema},public` } : {}),
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, kind: 'postgres', poolStats: statsOf(pool, max), close: () => db.destroy() };
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
    poolStats: statsOf(pool, 1),
    close: async () => {
      await db.destroy();
      await pglite.close();
    },
  };
}

export async function connectDatabase(config: { databaseUrl?: string; dataDir: string }): Promise<DatabaseHandle> {
  if (config.databaseUrl) return connectServer({ url: config.databaseUrl });
  return connectPglite(await openPglite({ dataDir: `${config.dataDir}/db` }));
}
