import { defineConfig } from '@playwright/test';
import { E2E_NOW } from './tests/clock';

const port = Number(process.env.E2E_PORT ?? 3100);
// Two workers, each with a server of its own on a fresh demo database (ports `port`, `port + 1`, ...;
// tests/fixtures.ts points each test at its worker's): a file never sees another worker's changes
// to the demo accounts (issue 33). On this 2-core machine it is not faster yet: 701 s for 88 tests
// against 710 s for 83 on one worker (docs/perf/test-loop-issue-33.md); CI machines with more cores gain.
const workers = Math.max(1, Number(process.env.E2E_WORKERS ?? 2));

export default defineConfig({
  testDir: './tests',
  // Sized for a loaded 2-core machine (a CI run beside other work), where a journey with a dozen
  // settled axe passes takes twice its quiet time: a timeout should catch a hang, not a busy box.
  timeout: 120_000,
  expect: { timeout: 15_000 },
  // A file's tests run in order on one worker (a journey's steps build on each other); files spread
  // over the workers. A fresh context per test.
  fullyParallel: false,
  workers,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  outputDir: 'test-results',
  use: {
    baseURL: `http://localhost:${port}`,
    browserName: 'chromium',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
    screenshot: 'only-on-failure',
    trace: 'off',
    locale: 'en-ZA',
    timezoneId: 'Africa/Johannesburg',
  },
  webServer: Array.from({ length: workers }, (_, index) => ({
    command: 'node start-server.mjs',
    url: `http://localhost:${port + index}/api/health`,
    // Starting is seeding a demo database: on a loaded machine this is the one slow step. The
    // server prints when it listens; Playwright waits on its health, this only catches a hang.
    timeout: 300_000,
    reuseExistingServer: false,
    // The server's clock starts at the run's fixed now (NODE_ENV=test, see start-server.mjs).
    env: { E2E_PORT: String(port + index), KAROO_TEST_NOW: E2E_NOW },
  })),
});
