// `npm run bench:start-up -w @karoo/api` (issue 32, decision 057): where a restart of an instance on
// existing demo data spends its time. The server (the production bundle apps/api/dist/server.js when
// built, else the source through tsx) is started once on a fresh data folder, which seeds the demo
// data, then killed with SIGKILL and started again START_ROUNDS times on the same data, as after a
// crash. Each restart reports the time to its IPC "listening" message, to a 200 from
// /api/health/ready, and each step server.ts logs ("start-up: listening", its `steps`).
//
//   npm run bench:start-up -w @karoo/api
//   START_ROUNDS=3 DATABASE_URL=postgres://… npm run bench:start-up -w @karoo/api
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitForListening } from '../test/helpers/process';
import { freePort, sleep } from './chaos-support';

const ROUNDS = Number(process.env.START_ROUNDS ?? 5);
const apiRoot = fileURLToPath(new URL('..', import.meta.url));
const bundle = path.join(apiRoot, 'dist/server.js');
const args = existsSync(bundle) ? [bundle] : ['--import', 'tsx', 'src/server.ts'];

interface Start {
  listeningMs: number;
  readyMs: number;
  steps: Record<string, number>;
}

async function startOnce(dataDir: string): Promise<Start & { kill: () => Promise<void> }> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: apiRoot,
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, SEED_DEMO: 'true', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let log = '';
  child.stdout!.on('data', (chunk) => (log += chunk));
  child.stderr!.on('data', (chunk) => (log += chunk));
  await waitForListening(child, () => log);
  const listeningMs = performance.now() - started;
  for (;;) {
    const res = await fetch(`http://127.0.0.1:${port}/api/health/ready`).catch(() => null);
    if (res?.status === 200) break;
    await sleep(20);
  }
  const readyMs = performance.now() - started;
  const line = log.split('\n').find((l) => l.includes('start-up: listening'));
  const steps = line ? ((JSON.parse(line) as { steps: Record<string, number> }).steps ?? {}) : {};
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    listeningMs,
    readyMs,
    steps,
    kill: async () => {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

const dataDir = await mkdtemp(path.join(tmpdir(), 'karoo-start-up-'));
try {
  const first = await startOnce(dataDir);
  await first.kill();
  console.log(`first start (seeds the demo data): listening after ${Math.round(first.listeningMs)} ms; ${JSON.stringify(first.steps)}`);
  const restarts: Start[] = [];
  for (let round = 1; round <= ROUNDS; round += 1) {
    const restart = await startOnce(dataDir);
    await restart.kill();
    restarts.push(restart);
    console.log(`restart ${round} after kill -9: listening ${Math.round(restart.listeningMs)} ms, ready ${Math.round(restart.readyMs)} ms; ${JSON.stringify(restart.steps)}`);
  }
  const names = [...new Set(restarts.flatMap((r) => Object.keys(r.steps)))];
  console.log(`\nRestart after kill -9 on the demo data (${args[0] === bundle ? 'dist/server.js' : 'tsx src/server.ts'}, ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}), median of ${ROUNDS}\n`);
  console.log(`| ${['spawn to listening', 'spawn to ready', ...names].join(' | ')} |`);
  console.log(`|${' --- |'.repeat(names.length + 2)}`);
  console.log(`| ${[median(restarts.map((r) => r.listeningMs)), median(restarts.map((r) => r.readyMs)), ...names.map((n) => median(restarts.map((r) => r.steps[n] ?? 0)))].map((v) => `${Math.round(v)} ms`).join(' | ')} |`);
} finally {
  await rm(dataDir, { recursive: true, force: true });
}
