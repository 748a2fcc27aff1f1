// `npm run bench`: how fast is browsing? Seeds 20 000 cars (embedded PGlite by default, or the
// PostgreSQL server of DATABASE_URL, in a schema of its own that is dropped afterwards), starts the
// built API on a port, and runs autocannon (50 connections, 10 s each) against GET /api/health and
// GET /api/car/getCarList with typical filters: browse cache on (the default), with and without
// Accept-Encoding: gzip (browsers send it), and cache off (every request queries the database).
// Prints req/s and p50/p95/p99 latency, and the browse/health ratio.
//
// Knobs: BENCH_CARS (20000), BENCH_DURATION (10 s), BENCH_CONNECTIONS (50), BENCH_PORT (3399).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon, { type AutocannonRequest } from 'autocannon';
import pg from 'pg';
import pino from 'pino';
import { addDays, todayIn } from '@karoo/shared';
import { systemClock, type AppContext } from '../src/context';
import { connectPglite, connectServer, openPglite, type DatabaseHandle } from '../src/db/connection';
import { migrateToLatest } from '../src/db/migrate';
import { loadEnv } from '../src/env';
import { createMailer } from '../src/lib/mail';
import { LocalDiskStorage } from '../src/lib/storage';
import { seedBenchData } from './seed-bench-data';

const CARS = Number(process.env.BENCH_CARS ?? 20_000);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const PORT = Number(process.env.BENCH_PORT ?? 3399);
const databaseUrl = process.env.DATABASE_URL;

const apiDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const log = pino({ level: 'warn' });

// ---- Data ----
async function openDatabase(dataDir: string, schema: string | null): Promise<{ handle: DatabaseHandle; serverUrl?: string }> {
  if (!databaseUrl) return { handle: connectPglite(await openPglite({ dataDir: path.join(dataDir, 'db') })) };
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query('CREATE EXTENSION IF NOT EXISTS btree_gist SCHEMA public');
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const url = new URL(databaseUrl);
  url.searchParams.set('options', `-c search_path=${schema},public`);
  return { handle: connectServer({ url: databaseUrl, schema: schema! }), serverUrl: url.toString() };
}

// ---- Server ----
function startServer(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, [path.join(apiDir, 'dist/server.js')], {
    env: { ...process.env, ...env, PORT: String(PORT), HOST: '127.0.0.1', LOG_LEVEL: 'warn', NODE_ENV: 'production', RATE_LIMIT_PER_MINUTE: '100000000' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + 60_000;
    const poll = async () => {
      if (child.exitCode !== null) return reject(new Error(`server exited with ${child.exitCode}`));
      try {
        const res = await fetch(`http://127.0.0.1:${PORT}/api/health`);
        if (res.ok) return resolve(child);
      } catch {
        // not up yet
      }
      if (Date.now() > deadline) return reject(new Error('server did not start within 60 s'));
      setTimeout(poll, 200);
    };
    void poll();
  });
}

function stopServer(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

// ---- Load ----
interface Measured {
  name: string;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  non2xx: number;
  errors: number;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

function load(name: string, requests: AutocannonRequest[], duration: number): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const times: number[] = [];
    const instance = autocannon({ url: `http://127.0.0.1:${PORT}`, connections: CONNECTIONS, duration, requests }, (error, result) => {
      if (error) return reject(error);
      times.sort((a, b) => a - b);
      resolve({
        name,
        rps: result.requests.average,
        p50: percentile(times, 50),
        p95: percentile(times, 95),
        p99: percentile(times, 99),
        non2xx: result.non2xx,
        errors: result.errors + result.timeouts,
      });
    });
    instance.on('response', (_client: unknown, _status: number, _bytes: number, responseTime: number) => times.push(responseTime));
    let reported = 0;
    instance.on('reqError', (error: Error) => {
      if (reported++ < 3) console.warn(`${name}: ${error.message}`);
    });
  });
}

async function measure(name: string, requests: AutocannonRequest[]): Promise<Measured> {
  await load(`${name} (warm-up)`, requests, 2);
  const measured = await load(name, requests, DURATION);
  // Let requests autocannon gave up on finish before the next run (or the server stops).
  await new Promise((resolve) => setTimeout(resolve, 1500));
  return measured;
}

/** Ten typical browse queries; `gzip` sends Accept-Encoding as browsers do. */
function browseRequests(gzip: boolean): AutocannonRequest[] {
  const today = todayIn();
  const from = addDays(today, 14);
  const to = addDays(today, 17);
  return [
    'page=1&limit=12',
    'location=Cape%20Town&page=1&limit=12',
    'location=Johannesburg&sort=PRICE_LOW&page=1&limit=12',
    'type=SUV&transmission=Automatic&page=1&limit=12',
    'minPrice=400&maxPrice=900&sort=PRICE_LOW&page=1&limit=12',
    `location=Durban&startDate=${from}&endDate=${to}&page=1&limit=12`,
    'features=Bluetooth,Apple%20CarPlay&fuel=Petrol&page=1&limit=12',
    'sort=DISTANCE&lat=-26.1076&lng=28.0567&page=1&limit=12',
    'search=toyota&page=2&limit=12',
    'pickupType=HOST_DELIVERY&sort=PRICE_HIGH&page=1&limit=12',
  ].map((q) => ({ method: 'GET', path: `/api/car/getCarList?${q}`, ...(gzip ? { headers: { 'accept-encoding': 'gzip, deflate, br' } } : {}) }));
}

const fmt = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : '-');

async function main() {
  const build = spawnSync(process.execPath, ['build.mjs'], { cwd: apiDir, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('build failed');

  const dataDir = await mkdtemp(path.join(tmpdir(), 'karoo-bench-'));
  const schema = databaseUrl ? `karoo_bench_${process.pid}` : null;
  const kind = databaseUrl ? 'PostgreSQL' : 'PGlite (embedded)';
  let server: ChildProcess | undefined;
  try {
    const { handle, serverUrl } = await openDatabase(dataDir, schema);
    const env = loadEnv({ DATA_DIR: dataDir, LOG_LEVEL: 'warn' });
    const ctx: AppContext = {
      db: handle.db,
      env,
      clock: systemClock,
      mailer: createMailer({ db: handle.db, log, from: env.MAIL_FROM }),
      privateFiles: new LocalDiskStorage(path.join(env.FILES_DIR, 'private')),
    };
    try {
      await migrateToLatest(handle.db);
      await seedBenchData(ctx, CARS);
    } finally {
      await handle.close();
    }

    const serverEnv = { DATA_DIR: dataDir, ...(serverUrl ? { DATABASE_URL: serverUrl } : {}) };
    const results: Measured[] = [];
    server = await startServer(serverEnv);
    results.push(await measure('GET /api/health', [{ method: 'GET', path: '/api/health' }]));
    results.push(await measure('GET /api/car/getCarList (cache on, gzip)', browseRequests(true)));
    results.push(await measure('GET /api/car/getCarList (cache on)', browseRequests(false)));
    await stopServer(server);
    server = await startServer({ ...serverEnv, BROWSE_CACHE_MS: '0' });
    results.push(await measure('GET /api/car/getCarList (cache off)', browseRequests(false)));
    await stopServer(server);
    server = undefined;

    const health = results[0]!;
    console.log(`\nKaroo bench: ${kind}, ${CARS} cars, ${CONNECTIONS} connections, ${DURATION} s per run, 10 typical browse queries in rotation\n`);
    console.log('scenario                                         req/s    p50 ms   p95 ms   p99 ms   non-2xx  errors   vs health');
    for (const m of results) {
      console.log(
        `${m.name.padEnd(46)} ${fmt(m.rps).padStart(8)} ${fmt(m.p50).padStart(8)} ${fmt(m.p95).padStart(8)} ${fmt(m.p99).padStart(8)} ${String(m.non2xx).padStart(9)} ${String(m.errors).padStart(7)} ${(m.rps / health.rps).toFixed(2).padStart(10)}`,
      );
    }
    const verdict = (m: Measured) =>
      `p95 < 50 ms ${m.p95 < 50 ? 'met' : 'NOT met'}, >= 1/3 of health req/s ${m.rps >= health.rps / 3 ? 'met' : 'NOT met'}`;
    console.log('\ntargets:');
    for (const m of results.slice(1)) console.log(`  ${m.name}: ${verdict(m)}`);
  } finally {
    if (server) await stopServer(server);
    if (databaseUrl && schema) {
      const admin = new pg.Client({ connectionString: databaseUrl });
      await admin.connect();
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    }
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
