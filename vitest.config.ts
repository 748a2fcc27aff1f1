// One `npx vitest run` for the whole repo: shared rules, the web app, and the API suite on the
// embedded PGlite always and on a PostgreSQL server too when TEST_DATABASE_URL is set.
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig, type TestProjectConfiguration } from 'vitest/config';

const fromRoot = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const hasPostgres = !!process.env.TEST_DATABASE_URL;
const hasWebConfig = existsSync(fromRoot('./apps/web/vitest.config.ts'));

if (!hasPostgres) console.log('PostgreSQL API suite skipped: TEST_DATABASE_URL is not set');

// Both API projects run the same files; TEST_DB tells the helpers which database to open.
const apiProject = (name: string, testDb: 'pglite' | 'postgres', globalSetup: string): TestProjectConfiguration => ({
  test: {
    name,
    environment: 'node',
    include: ['apps/api/test/**/*.test.ts'],
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
  apiProject('api-pglite', 'pglite', './apps/api/test/setup/pglite.global.ts'),
  ...(hasPostgres ? [apiProject('api-postgres', 'postgres', './apps/api/test/setup/postgres.global.ts')] : []),
];

export default defineConfig({
  test: {
    projects,
    // At least two workers even on a 2-core box: API files wait on the database half the time.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
