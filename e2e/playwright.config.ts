import { defineConfig } from '@playwright/test';
import { E2E_NOW } from './tests/clock';

const port = Number(process.env.E2E_PORT ?? 3100);

export default defineConfig({
  testDir: './tests',
  // Sized for a loaded 2-core machine (a CI run beside other work), where a journey with a dozen
  // settled axe passes takes twice its quiet time: a timeout should catch a hang, not a busy box.
  timeout: 120_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  // One Chromium for the whole run: a single worker, a fresh context per test.
  workers: 1,
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
  webServer: {
    command: 'node start-server.mjs',
    url: `http://localhost:${port}/api/health`,
    timeout: 180_000,
    reuseExistingServer: false,
    // The server's clock starts at the run's fixed now (NODE_ENV=test, see start-server.mjs).
    env: { E2E_PORT: String(port), KAROO_TEST_NOW: E2E_NOW },
  },
});
