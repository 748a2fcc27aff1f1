#!/usr/bin/env node
// Runs first in `npm start`, `npm run dev` and `npm test`: on an older Node (20 reached its end of
// life on 2026-04-30) npm only prints EBADENGINE warnings during install and then runs the product
// anyway; this stops at once with one line saying which Node is needed and how to get it
// (docs/decisions/029-database-failures.md). The version comes from package.json's `engines`, its
// one home. Plain JavaScript with nothing imported beyond Node itself, so that it runs on any Node.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The lowest version `engines.node` allows; only the `>=MAJOR.MINOR[.PATCH]` form is used here. */
export function lowestAllowed(range) {
  const match = /^>=\s*(\d+)\.(\d+)(?:\.(\d+))?$/.exec(String(range).trim());
  if (!match) throw new Error(`engines.node is "${range}": scripts/check-node.mjs reads only the ">=24.11" form`);
  return [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)];
}

/** The line to print when `found` (process.version, e.g. "v20.20.2") is older than `range` allows; null when it will do. */
export function nodeVersionProblem(found, range) {
  const wanted = lowestAllowed(range);
  const have = String(found).replace(/^v/, '').split('.').map(Number);
  for (let i = 0; i < 3; i += 1) {
    if ((have[i] ?? 0) > wanted[i]) return null;
    if ((have[i] ?? 0) < wanted[i]) {
      const major = wanted[0];
      return `Karoo needs Node ${major} LTS (${wanted.join('.')} or newer; found ${found}). Install it from https://nodejs.org or with \`nvm install ${major}\`, then run this again.`;
    }
  }
  return null;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { engines } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  const problem = nodeVersionProblem(process.version, engines.node);
  if (problem) {
    console.error(problem);
    process.exit(1);
  }
}
