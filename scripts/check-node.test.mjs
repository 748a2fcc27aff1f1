// `npm start`, `npm run dev` and `npm test` stop at once on a Node older than `engines` allows.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { lowestAllowed, nodeVersionProblem } from './check-node.mjs';

const script = new URL('./check-node.mjs', import.meta.url).pathname;
const { engines, scripts } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

describe('the Node version check', () => {
  it('refuses an older Node in one line that names the Node needed, the one found and how to get it', () => {
    expect(nodeVersionProblem('v20.20.2', '>=24.11')).toBe(
      'Karoo needs Node 24 LTS (24.11.0 or newer; found v20.20.2). Install it from https://nodejs.org or with `nvm install 24`, then run this again.',
    );
    expect(nodeVersionProblem('v24.10.9', '>=24.11')).toMatch(/^Karoo needs Node 24 LTS .*found v24\.10\.9/);
    expect(nodeVersionProblem('v22.99.0', '>=24.11')).not.toBeNull();
  });

  it('lets the allowed versions through', () => {
    for (const version of ['v24.11.0', 'v24.21.0', 'v25.0.0', 'v30.1.2']) expect(nodeVersionProblem(version, '>=24.11'), version).toBeNull();
  });

  it('reads the version from package.json engines, and refuses a form it cannot read', () => {
    expect(lowestAllowed(engines.node)).toEqual([24, 11, 0]);
    expect(() => lowestAllowed('^24')).toThrow(/reads only/);
  });

  it('npm start, npm run dev and npm test run through the runtime launcher', () => {
    expect(scripts.start).toBe('node scripts/node-runtime.mjs --exec npm run build && node scripts/node-runtime.mjs apps/api/dist/server.js');
    expect(scripts.dev).toBe('node scripts/node-runtime.mjs scripts/dev.mjs');
    expect(scripts.test).toBe('node scripts/node-runtime.mjs scripts/test.mjs');
  });

  it('exits 0 quietly on this Node, 1 with the line on an older one', () => {
    expect(execFileSync(process.execPath, [script], { encoding: 'utf8' })).toBe('');
    // An older Node, when the machine has one (Debian's, say): the script itself must run on it.
    const old = spawnSync('/usr/bin/node', ['--version'], { encoding: 'utf8' });
    if (old.status === 0 && nodeVersionProblem(old.stdout.trim(), engines.node)) {
      const run = spawnSync('/usr/bin/node', [script], { encoding: 'utf8' });
      expect(run.status).toBe(1);
      expect(run.stderr.trim().split('\n')).toEqual([nodeVersionProblem(old.stdout.trim(), engines.node)]);
    }
  });
});
