// One database per test file: a clone of the run's migrated template, with the job queue installed
// (setup/*.global.ts): a PGlite data directory loaded from its dump (TEST_DB=pglite, the default), or a
// database on the PostgreSQL server copied from the template database (TEST_DB=postgres), dropped
// when the file closes it.
import { randomBytes } from 'node:crypto';
import { appendFile, readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { connectPglite, connectServer, openPglite, type DatabaseHandle } from '../../src/db/connection';
import { migrateToLatest } from '../../src/db/migrate';
import '../setup/provided-context';
import { guardOneSession } from './one-session-guard';

export type TestDbKind = 'pglite' | 'postgres';

export const testDbKind: TestDbKind = process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';

async function openPgliteClone(): Promise<DatabaseHandle> {
  const templatePath = inject('pgliteTemplatePath');
  if (!templatePath) {
    // Run without the project's global setup: migrate a fresh database instead.
    const handle = connectPglite(await openPglite({}));
    await migrateToLatest(handle.db);
    return handle;
  }
  const template = new Blob([await readFile(templatePath)]);
  return connectPglite(await openPglite({ loadDataDir: template }));
}

/** The schema of the app's tables in a PostgreSQL test database (pg-boss's is `karoo_jobs` beside it). */
export const POSTGRES_TEST_SCHEMA = 'karoo';

/** `url` with its database replaced by `database`. */
export function databaseUrl(url: string, database: string): string {
  const next = new URL(url);
  next.pathname = `/${database}`;
  return next.toString();
}

async function withServerClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A new PostgreSQL test database's schema and the extensions the migrations use, in `public`. */
export async function prepareServerDatabase(url: string): Promise<void> {
  await withServerClient(url, async (client) => {
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${POSTGRES_TEST_SCHEMA}`);
    await client.query('CREATE EXTENSION IF NOT EXISTS btree_gist SCHEMA public');
    await client.query('CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public');
  });
}

/**
 * Each PostgreSQL test file gets a database of its own, copied from the run's template (migrated,
 * with the job queue's tables and queues, by the global setup): `CREATE DATABASE ... TEMPLATE`
 * copies files instead of running 31 migrations and installing pg-boss, and with a database per
 * file no file's schema changes can meet another's introspection, so no lock is shared (issue 33;
 * immich's and epic-stack's test setups do the same). Without the global setup (one file run on
 * its own outside the project) it migrates a fresh database instead.
 */
async function openPostgresDatabase(): Promise<DatabaseHandle> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
  const template = inject('postgresTemplate');
  const runDir = inject('postgresRunDir');
  const name = `${template ?? 'karoo_test'}_${randomBytes(5).toString('hex')}`;
  if (runDir) await appendFile(path.join(runDir, 'databases.txt'), `${name}\n`);
  await withServerClient(serverUrl, async (client) => {
    await client.query(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
    // A file's database need not outlive a crash: commits do not wait for the disk (the server's
    // fsync is the machine's, not the suite's, so it stays as it is).
    await client.query(`ALTER DATABASE ${name} SET synchronous_commit = off`);
  });
  const drop = () => withServerClient(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  const url = databaseUrl(serverUrl, name);
  if (!template) await prepareServerDatabase(url);
  const handle = connectServer({ url, schema: POSTGRES_TEST_SCHEMA });
  try {
    if (!template) await migrateToLatest(handle.db);
  } catch (error) {
    await handle.close();
    await drop();
    throw error;
  }
  guardOneSession(handle.db, handle.pool);
  return { ...handle, close: async () => {
    await handle.close();
    await drop();
  } };
}

export function openTestDatabase(): Promise<DatabaseHandle> {
  return testDbKind === 'postgres' ? openPostgresDatabase() : openPgliteClone();
}
