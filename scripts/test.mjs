#!/usr/bin/env node
// `npm test`: everything, in order, stopping at the first failure: type-check, lint, the OpenAPI
// description's lint, unit and
// API tests (PGlite always; PostgreSQL too when TEST_DATABASE_URL is set), build, the public pages'
// JavaScript budgets, end-to-end in Chromium.
import { spawnSync } from 'node:child_process';

const steps = [
  ['System tools (Chromium, poppler-utils from Debian when missing)', 'node', ['scripts/ensure-system-tools.mjs']],
  ['Type-check', 'npm', ['run', 'typecheck']],
  ['Lint', 'npm', ['run', 'lint']],
  ['API description lint (Redocly, recommended rules)', 'npm', ['run', 'lint:openapi']],
  ['Unit and API tests', 'npx', ['vitest', 'run']],
  ['Build', 'npm', ['run', 'build']],
  ['JavaScript budgets (landing page 136 KB, /cars and a car page 170 KB gzip, no zod on them)', 'npm', ['run', 'size']],
  ['End-to-end tests (Chromium)', 'npm', ['run', 'test:e2e']],
];

const started = Date.now();
for (const [name, command, args] of steps) {
  const t0 = Date.now();
  console.log(`\n=== ${name} ===`);
  const result = spawnSync(command, args, { stdio: 'inherit', env: process.env });
  const seconds = ((Date.now() - t0) / 1000).toFixed(1);
  if (result.status !== 0) {
    console.error(`\n✗ ${name} failed after ${seconds}s`);
    process.exit(result.status ?? 1);
  }
  console.log(`✓ ${name} (${seconds}s)`);
}
if (!process.env.TEST_DATABASE_URL) {
  console.log('\nNote: the PostgreSQL API suite was skipped because TEST_DATABASE_URL is not set.');
}
console.log(`\nAll checks passed in ${((Date.now() - started) / 1000).toFixed(0)}s.`);
