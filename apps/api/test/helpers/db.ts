// One database per test file: a clone of the migrated PGlite template (TEST_DB=pglite, the
// default) or a fresh schema on the PostgreSQL server (TEST_DB=postgres), dropped at the end of the run.
import { randomBytes } from 'node:crypto';
import { appendFile, readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { connectPglite, connectServer, openPglite, type DatabaseHandle } from '../../src/db/connection';
import { migrateToLatest } from '../../src/db/migrate';
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

async function openPostgresSchema(): Promise<DatabaseHandle> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const runDir = inject('postgresRunDir');
  if (runDir) await appendFile(path.join(runDir, 'schemas.txt'), `${schema}\n`);

  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  const handle = connectServer({ url, schema });
  try {
    await migrateToLatest(handle.db);
  } catch (error) {
    await handle.close();
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.end();
    throw error;
  }
  return {
    db: handle.db,
    kind: 'postgres',
    poolStats: handle.poolStats,
    close: async () => {
      await handle.close();
      try {
        // With the global setup, schemas are dropped once at teardown: dropping one while another
        // file migrates races with Kysely's introspection, which lists tables in every schema.
        if (!runDir) await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      } finally {
        await admin.end();
      }
    },
  };
}

export function openTestDatabase(): Promise<DatabaseHandle> {
  return testDbKind === 'postgres' ? openPostgresSchema() : openPgliteClone();
}
