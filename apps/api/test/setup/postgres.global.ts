// api-postgres global setup: install btree_gist once in `public` (test files migrate in parallel,
// each in its own schema, and CREATE EXTENSION racing between them would fail), then at the end
// drop any schema a crashed file left behind.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { warmDemoCarPhotos } from '../../src/db/seed/demo-cars';
import './provided-context';

// A test file's schema, and its job queue's beside it (t_<hex>_jobs).
const SCHEMA_NAME = /^t_[a-z0-9]+(_jobs)?$/;

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export default async function setup(project: TestProject) {
  // The demo seed's photos, made once per machine (decision 045): files that seed then only copy them.
  await warmDemoCarPhotos();
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('api-postgres needs TEST_DATABASE_URL');
  await withClient(url, async (client) => {
    await client.query('CREATE EXTENSION IF NOT EXISTS btree_gist SCHEMA public');
    await client.query('CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public');
  });

  const runDir = await mkdtemp(path.join(tmpdir(), 'karoo-pg-run-'));
  project.provide('postgresRunDir', runDir);

  return async () => {
    const listed = await readFile(path.join(runDir, 'schemas.txt'), 'utf8').catch(() => '');
    const schemas = [...new Set(listed.split('\n').filter((s) => SCHEMA_NAME.test(s)))];
    if (schemas.length > 0) {
      await withClient(url, async (client) => {
        for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      });
    }
    await rm(runDir, { recursive: true, force: true });
  };
}
