// One `npx vitest run` for the whole repo: shared rules, the web app, and the API suite: on a
// PostgreSQL server when TEST_DATABASE_URL is set, with the embedded PGlite running again the files
// whose behaviour depends on the engine (apps/api/test/engines.ts); on PGlite alone otherwise.
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig, type TestProjectConfiguration } from 'vitest/config';
import { apiSuitePlan } from './apps/api/test/engines.ts';

const fromRoot = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const hasPostgres = !!process.env.TEST_DATABASE_URL;
const plan = apiSuitePlan(process.env);
const apiFiles = (files: 'all' | readonly string[]) => (files === 'all' ? ['apps/api/test/**/*.test.ts'] : files.map((f) => `apps/api/test/${f}.test.ts`));
const hasWebConfig = existsSync(fromRoot('./apps/web/vitest.config.ts'));

if (!hasPostgres) console.log('PostgreSQL API suite skipped: TEST_DATABASE_URL is not set');

// TEST_DB tells the helpers which database to open.
const apiProject = (name: string, testDb: 'pglite' | 'postgres', globalSetup: string, files: 'all' | readonly string[]): TestProjectConfiguration => ({
  test: {
    name,
    environment: 'node',
    include: apiFiles(files),
    env: { TEST_DB: testDb },
    globalSetup: [globalSetup],
    // Processes, not threads, for PGlite's WASM. Files share a worker's module cache (each still
    // opens its own database and app): PGlite's compiled WASM is then reused instead of being
    // rebuilt per file, which more than halves the run. Service state is keyed per app context.
    pool: 'forks',
    isolate: false,
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});

const projects: TestProjectConfiguration[] = [
  {
    test: {
      name: 'shared',
      environment: 'node',
      include: ['packages/shared/src/**/*.test.ts'],
    },
  },
  {
    test: {
      name: 'scripts',
      environment: 'node',
      include: ['scripts/**/*.test.mjs'],
    },
  },
  ...(hasWebConfig ? ['./apps/web/vitest.config.ts'] : []),
  apiProject('api-pglite', 'pglite', './apps/api/test/setup/pglite.global.ts', plan.pglite),
  ...(plan.postgres === 'all' ? [apiProject('api-postgres', 'postgres', './apps/api/test/setup/postgres.global.ts', 'all')] : []),
];

export default defineConfig({
  test: {
    projects,
    // At least two workers even on a 2-core box: API files wait on the database half the time.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
