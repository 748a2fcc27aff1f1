// The databases the bench runs on: a PostgreSQL schema of its own (created, migrated, seeded, and
// dropped afterwards) or an embedded PGlite data directory. Shared by bench.ts and explain.ts.
// The server is the one of BENCH_DATABASE_URL, TEST_DATABASE_URL or DATABASE_URL, in that order.
import path from 'node:path';
import pg from 'pg';
import { connectPglite, connectServer, openPglite, type DatabaseHandle } from '../src/db/connection';
import { migrateToLatest } from '../src/db/migrate';
import { seedBenchData, type BenchSeed, type BenchSeedResult } from './seed-bench-data';

export const serverUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || undefined;

/** Why PostgreSQL cannot be used (no URL, or not reachable), or null when it can. */
export async function postgresUnavailable(): Promise<string | null> {
  if (!serverUrl) return 'no BENCH_DATABASE_URL, TEST_DATABASE_URL or DATABASE_URL set';
  const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return null;
  } catch (error) {
    return `${new URL(serverUrl).host} is not reachable (${(error as Error).message})`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function admin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

export interface BenchDatabase {
  kind: 'PostgreSQL' | 'PGlite';
  /** Environment for dist/server.js to open the same data. */
  serverEnv: Record<string, string>;
  /** A connection URL with the schema on the search path (PostgreSQL only). */
  url?: string;
  schema?: string;
}

/** A fresh PostgreSQL schema (btree_gist lives in public, as the migrations expect). */
export async function createSchema(schema: string): Promise<BenchDatabase> {
  await admin(async (client) => {
    await client.query('CREATE EXTENSION IF NOT EXISTS btree_gist SCHEMA public');
    await client.query('CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public');
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await client.query(`CREATE SCHEMA ${schema}`);
  });
  const url = new URL(serverUrl!);
  url.searchParams.set('options', `-c search_path=${schema},public`);
  return { kind: 'PostgreSQL', serverEnv: { DATABASE_URL: url.toString() }, url: url.toString(), schema };
}

export async function dropSchema(schema: string): Promise<void> {
  await admin((client) => client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`));
}

export function pgliteDatabase(dataDir: string): BenchDatabase {
  return { kind: 'PGlite', serverEnv: { DATA_DIR: dataDir, DATABASE_URL: '' } };
}

/** Opens the database as the API would (PGlite: the data directory the server will use). */
export async function openBenchDatabase(target: BenchDatabase, dataDir?: string): Promise<DatabaseHandle> {
  if (target.kind === 'PostgreSQL') return connectServer({ url: serverUrl!, schema: target.schema! });
  return connectPglite(await openPglite({ dataDir: path.join(dataDir!, 'db') }));
}

/** Migrates and seeds; closes the connection (PGlite allows one process at a time). */
export async function prepare(target: BenchDatabase, seed: BenchSeed, dataDir?: string): Promise<BenchSeedResult> {
  const handle = await openBenchDatabase(target, dataDir);
  try {
    await migrateToLatest(handle.db);
    return await seedBenchData(handle.db, seed);
  } finally {
    await handle.close();
  }
}
