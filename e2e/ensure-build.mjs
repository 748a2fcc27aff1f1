#!/usr/bin/env node
// Before the end-to-end run: build the app once when it is not built (`npm test` has just built
// it), since each worker's server (playwright.config.ts) starts from the build at the same time.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
if (!existsSync(path.join(root, 'apps/api/dist/server.js')) || !existsSync(path.join(root, 'apps/web/dist/index.html'))) {
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
