// api-pglite global setup: migrate ONE embedded database and install the job queue in it (pg-boss's
// tables, every queue and schedule), dump it once; every test file then clones the dump (PGlite
// loadDataDir), which takes well under a second instead of an initdb, migrations and a pg-boss install.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { connectPglite, openPglite } from '../../src/db/connection';
import { migrateToLatest } from '../../src/db/migrate';
import { warmDemoCarPhotos } from '../../src/db/seed/demo-cars';
import { installJobQueue } from '../helpers/app';
import './provided-context';

export default async function setup(project: TestProject) {
  // The demo seed's photos, made once per machine (decision 045): files that seed then only copy them.
  await warmDemoCarPhotos();
  const dir = await mkdtemp(path.join(tmpdir(), 'karoo-pglite-'));
  const templatePath = path.join(dir, 'template.tar.gz');
  const pglite = await openPglite({});
  const handle = connectPglite(pglite);
  try {
    await migrateToLatest(handle.db);
    await installJobQueue(handle);
    const dump = await pglite.dumpDataDir('gzip');
    await writeFile(templatePath, Buffer.from(await dump.arrayBuffer()));
  } finally {
    await handle.close();
  }
  project.provide('pgliteTemplatePath', templatePath);

  return async () => {
    await rm(dir, { recursive: true, force: true });
  };
}
