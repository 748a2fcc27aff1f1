#!/usr/bin/env node
// Starts the built app for the end-to-end run on a fresh embedded database with demo data, its
// clock starting at the run's fixed now (KAROO_TEST_NOW from playwright.config.ts, which the
// server accepts only with NODE_ENV=test; that is all NODE_ENV=test changes in the built app).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const server = path.join(root, 'apps/api/dist/server.js');
if (!process.env.KAROO_TEST_NOW) {
  console.error('KAROO_TEST_NOW is not set: start the end-to-end run with `npm run test:e2e` (playwright.config.ts sets it).');
  process.exit(1);
}
// One server per worker starts at once (playwright.config.ts): the build comes before, once
// (ensure-build.mjs in `npm run test:e2e`), never from here.
if (!existsSync(server) || !existsSync(path.join(root, 'apps/web/dist/index.html'))) {
  console.error('The app is not built: run `npm run build` (or `npm run test:e2e`, which builds when needed).');
  process.exit(1);
}
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'karoo-e2e-'));
const child = spawn(process.execPath, [server], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...process.env,
    NODE_ENV: 'test',
    KAROO_TEST_NOW: process.env.KAROO_TEST_NOW,
    PORT: process.env.E2E_PORT ?? '3100',
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    SMTP_URL: '',
    SEED_DEMO: 'true',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '100000',
    // The pages are rendered however busy the test machine is (the journeys read the server's
    // HTML); shedding renders by the event loop's delay is measured by `npm run chaos -- flood`.
    RENDER_MAX_LOOP_DELAY_MS: '0',
  },
});
const stop = () => child.kill('SIGTERM');
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
child.on('exit', (code) => process.exit(code ?? 0));
