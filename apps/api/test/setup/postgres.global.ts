// api-postgres global setup: ONE template database per run, migrated and with the job queue
// installed (pg-boss's tables, every queue and schedule); each test file then gets a database of
// its own copied from it (`CREATE DATABASE ... TEMPLATE`, helpers/db.ts), which takes a fraction of
// a second instead of 31 migrations and a pg-boss install, and needs no lock between files. At the
// end, the template and any database a crashed file left behind are dropped.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { connectServer } from '../../src/db/connection';
import { migrateToLatest } from '../../src/db/migrate';
import { warmDemoCarPhotos } from '../../src/db/seed/demo-cars';
import { installJobQueue } from '../helpers/app';
import { databaseUrl, POSTGRES_TEST_SCHEMA, prepareServerDatabase } from '../helpers/db';
import './provided-context';

// The run's template and the files' databases copied from it (karoo_t<hex>, karoo_t<hex>_<hex>).
const DATABASE_NAME = /^karoo_t[a-f0-9]+(_[a-f0-9]+)?$/;

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

  const template = `karoo_t${randomBytes(4).toString('hex')}`;
  const drop = (name: string) => withClient(url, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  await withClient(url, (client) => client.query(`CREATE DATABASE ${template}`));
  try {
    const templateUrl = databaseUrl(url, template);
    await prepareServerDatabase(templateUrl);
    const handle = connectServer({ url: templateUrl, schema: POSTGRES_TEST_SCHEMA, max: 2 });
    try {
      await migrateToLatest(handle.db);
      await installJobQueue(handle);
    } finally {
      await handle.close();
    }
    // A template no one may connect to by mistake: a connection would make every copy fail.
    await withClient(url, (client) => client.query(`ALTER DATABASE ${template} WITH ALLOW_CONNECTIONS false IS_TEMPLATE true`));
  } catch (error) {
    await drop(template);
    throw error;
  }

  const runDir = await mkdtemp(path.join(tmpdir(), 'karoo-pg-run-'));
  project.provide('postgresRunDir', runDir);
  project.provide('postgresTemplate', template);

  return async () => {
    const listed = await readFile(path.join(runDir, 'databases.txt'), 'utf8').catch(() => '');
    const leftovers = [...new Set(listed.split('\n').filter((s) => DATABASE_NAME.test(s)))];
    for (const name of leftovers) await drop(name);
    await withClient(url, (client) => client.query(`ALTER DATABASE ${template} WITH IS_TEMPLATE false`));
    await drop(template);
    await rm(runDir, { recursive: true, force: true });
  };
}
