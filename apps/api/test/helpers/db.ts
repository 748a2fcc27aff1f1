// One database per test file: a clone of the migrated PGlite template (TEST_DB=pglite, the
// default) or a fresh schema on the PostgreSQL server (TEST_DB=postgres), dropped at the end of the run.
import { randomBytes } from 'node:crypto';
import { appendFile, readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { connectPglite, connectServer, openPglite, type DatabaseHandle } from '../../src/db/connection';
import { migrateToLatest } from '../../src/db/migrate';
import { jobSchemaFor } from '../../src/jobs/queue';
import '../setup/provided-context';

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

/** The advisory lock the PostgreSQL test files take around schema changes (see below). */
const SCHEMA_CHANGE_LOCK = 4_271_337;

/**
 * Runs `work` (migrations, a migration's down and up) while no other test file changes a schema.
 * The files share one PostgreSQL database, and Kysely's migrator lists the tables and columns of
 * every schema (pg_get_serial_sequence per column): a column dropped meanwhile in another file's
 * schema fails that listing ("column ... does not exist"). On PGlite each file has its own
 * database, so this just runs `work`.
 */
export async function withSchemaChangeLock<T>(work: () => Promise<T>): Promise<T> {
  const url = process.env.TEST_DATABASE_URL;
  if (testDbKind !== 'postgres' || !url) return work();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [SCHEMA_CHANGE_LOCK]);
    return await work();
  } finally {
    await client.end();
  }
}

async function openPostgresSchema(): Promise<DatabaseHandle> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const runDir = inject('postgresRunDir');
  // The job queue's tables go in a schema beside it (jobs/queue.ts), dropped with it.
  const jobSchema = jobSchemaFor(schema);
  if (runDir) await appendFile(path.join(runDir, 'schemas.txt'), `${schema}\n${jobSchema}\n`);

  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  const handle = connectServer({ url, schema });
  try {
    await withSchemaChangeLock(() => migrateToLatest(handle.db));
  } catch (error) {
    await handle.close();
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.end();
    throw error;
  }
  return {
    db: handle.db,
    kind: 'postgres',
    pool: handle.pool,
    schema,
    poolStats: handle.poolStats,
    withoutTimeouts: handle.withoutTimeouts,
    close: async () => {
      await handle.close();
      try {
        // With the global setup, schemas are dropped once at teardown: dropping one while another
        // file migrates races with Kysely's introspection, which lists tables in every schema.
        if (!runDir) await admin.query(`DROP SCHEMA IF EXISTS ${schema}, ${jobSchema} CASCADE`);
      } finally {
        await admin.end();
      }
    },
  };
}

export function openTestDatabase(): Promise<DatabaseHandle> {
  return testDbKind === 'postgres' ? openPostgresSchema() : openPgliteClone();
}
