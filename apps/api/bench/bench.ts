// `npm run bench`: the browse targets of issue 11, measured. Builds the API, then for each database
// seeds it in SQL (seed-bench-data.ts), starts dist/server.js with the browse cache off
// (BROWSE_CACHE_MS=0) and runs autocannon against it:
//   health  GET /api/health                          50 connections (the yardstick)
//   browse  GET /api/car/getCarList?...              50 connections (req/s, p50) and 10 (p95);
//           a different URL on every request (browse-urls.ts), so no cache can help
//   detail  GET /api/car/getCarDetails/{id}          50 connections, over many listed cars
// Databases: PostgreSQL with 10,000 and 100,000 cars (each in a schema of its own, dropped
// afterwards; skipped with a message when no server is set or reachable) and the embedded PGlite
// with 2,000. Bookings: BENCH_BOOKINGS_PER_CAR per car (200,000 with 100,000 cars).
// Prints one table with the ratios to health and whether each target is met (browse and detail at
// least 0.5 of health, browse p95 under 20 ms at 10 connections); BENCH_OUT=file also writes it
// as markdown.
//
// Knobs: BENCH_DURATION (8 s per run), BENCH_WARMUP (2 s before each run), BENCH_PG_CARS
// ("10000,100000"; empty skips PostgreSQL), BENCH_PGLITE_CARS (2000; 0 skips), BENCH_BOOKINGS_PER_CAR
// (2), BENCH_PORT (3399), BENCH_OUT, BENCH_VERBOSE (seed timings). The PostgreSQL server is
// BENCH_DATABASE_URL, else TEST_DATABASE_URL, else DATABASE_URL.
//
// BENCH_MODE=lean (issue 22 and 23, decisions 046 and 051) measures instead, per database size and
// in one run, at 10 connections (req/s and p95): health; the varied browse in the full shape and
// with fields=card, from the browse index and from the SQL (BROWSE_INDEX=off); the same page again
// from the page cache (full and card: the ceiling for an answer of that size); and the map
// (GET /api/car/map: the first view of each of 12 filter sets, one at a time, which builds its
// clusters, then varied views and zooms over them). Three servers run side by side on the same
// data (BENCH_PORT and the next two), and the index and SQL runs alternate BENCH_ROUNDS (3) times,
// so that both engines meet the same machine load.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon, { type AutocannonRequest } from 'autocannon';
import { BASE_CITIES, todayIn } from '@karoo/shared';
import { seededRandom } from '../src/db/seed/demo-cars';
import { createSchema, dropSchema, pgliteDatabase, postgresUnavailable, prepare, type BenchDatabase } from './bench-db';
import { browsePaths, detailPaths } from './browse-urls';

const DURATION = Number(process.env.BENCH_DURATION || 8);
const WARMUP = Number(process.env.BENCH_WARMUP || 2);
/** The server measured (BENCH_MODE=lean runs three side by side, on this port and the next two). */
let PORT = Number(process.env.BENCH_PORT || 3399);
const PG_CARS = (process.env.BENCH_PG_CARS ?? '10000,100000').split(',').map(Number).filter((n) => n > 0);
const PGLITE_CARS = Number(process.env.BENCH_PGLITE_CARS ?? 2000);
const BOOKINGS_PER_CAR = Number(process.env.BENCH_BOOKINGS_PER_CAR || 2);
const OUT = process.env.BENCH_OUT;

const apiDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// ---- Server ----
function startServer(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, [path.join(apiDir, 'dist/server.js')], {
    env: { ...process.env, PORT: String(PORT), HOST: '127.0.0.1', LOG_LEVEL: 'warn', NODE_ENV: 'production', BROWSE_CACHE_MS: '0', RATE_LIMIT_PER_MINUTE: '100000000', ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + 60_000;
    const poll = async () => {
      if (child.exitCode !== null) return reject(new Error(`server exited with ${child.exitCode}`));
      try {
        if ((await fetch(`http://127.0.0.1:${PORT}/api/health`)).ok) return resolve(child);
      } catch {
        // not up yet
      }
      if (Date.now() > deadline) return reject(new Error('server did not start within 60 s'));
      setTimeout(poll, 200);
    };
    void poll();
  });
}

/**
 * Waits until the server's browse index has loaded (karoo_browse_index cars > 0 in /metrics, read
 * from the internal network), so that its load does not share the CPU with the first runs.
 */
async function browseIndexLoaded(): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const text = await fetch(`http://127.0.0.1:${PORT}/metrics`).then((r) => r.text(), () => '');
    const cars = Number(/karoo_browse_index\{measure="cars"\} (\d+)/.exec(text)?.[1] ?? 0);
    if (cars > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  console.warn('  the browse index did not load within 120 s; measuring anyway');
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
  rps: number;
  p50: number;
  p95: number;
  /** Responses by status other than 200, e.g. { 404: 3 }. */
  failures: Record<number, number>;
  errors: number;
}

const ms = (v: number) => (Number.isFinite(v) ? `${v.toFixed(1)} ms` : '-');
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

/** One autocannon run; `nextPath` gives the path of every request. */
function load(nextPath: () => string, connections: number, duration: number): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const times: number[] = [];
    const failures: Record<number, number> = {};
    const request: AutocannonRequest = { method: 'GET', path: '/', setupRequest: (req) => ({ ...req, path: nextPath() }) };
    const instance = autocannon({ url: `http://127.0.0.1:${PORT}`, connections, duration, requests: [request] }, (error, result) => {
      if (error) return reject(error);
      times.sort((a, b) => a - b);
      // Responses per second of the run (autocannon's per-second average rounds a slow run down to 0).
      resolve({ rps: times.length / duration, p50: percentile(times, 50), p95: percentile(times, 95), failures, errors: result.errors + result.timeouts });
    });
    instance.on('response', (_client: unknown, status: number, _bytes: number, responseTime: number) => {
      times.push(responseTime);
      if (status !== 200) failures[status] = (failures[status] ?? 0) + 1;
    });
  });
}

async function measure(name: string, nextPath: () => string, connections: number): Promise<Measured> {
  if (WARMUP > 0) await load(nextPath, connections, WARMUP);
  const measured = await load(nextPath, connections, DURATION);
  const failed = Object.entries(measured.failures);
  if (failed.length || measured.errors) console.warn(`  ${name}: ${failed.map(([s, n]) => `${n} x HTTP ${s}`).join(', ')} ${measured.errors} errors`);
  console.log(`  ${name.padEnd(18)} ${n(measured.rps).padStart(6)} req/s  p50 ${ms(measured.p50)}  p95 ${ms(measured.p95)}`);
  await drain();
  return measured;
}

/**
 * Waits until the server has finished the requests autocannon left behind (slow queries keep
 * running after it hangs up): health answers in under 50 ms twice in a row, or 60 s have passed.
 */
async function drain(): Promise<void> {
  const deadline = Date.now() + 60_000;
  let quick = 0;
  while (quick < 2 && Date.now() < deadline) {
    const at = performance.now();
    await fetch(`http://127.0.0.1:${PORT}/api/health`).catch(() => undefined);
    quick = performance.now() - at < 50 ? quick + 1 : 0;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

// ---- One database ----
interface Row {
  database: string;
  cars: number;
  bookings: number;
  seedSeconds: number;
  health: Measured;
  browse50: Measured;
  browse10: Measured;
  detail: Measured;
}

async function benchDatabase(label: string, target: BenchDatabase, cars: number, dataDir: string): Promise<Row> {
  console.log(`\n${label}: ${cars.toLocaleString('en-US')} cars`);
  const seeded = await prepare(target, { cars, bookingsPerCar: BOOKINGS_PER_CAR, today: todayIn() }, dataDir);
  console.log(`  seeded ${seeded.cars.toLocaleString('en-US')} cars and ${seeded.bookings.toLocaleString('en-US')} bookings in ${seeded.seconds.toFixed(1)} s`);
  const server = await startServer({ ...target.serverEnv, DATA_DIR: dataDir });
  try {
    await browseIndexLoaded();
    const browse = browsePaths(cars);
    return {
      database: label,
      cars: seeded.cars,
      bookings: seeded.bookings,
      seedSeconds: seeded.seconds,
      health: await measure('health @50', () => '/api/health', 50),
      browse50: await measure('browse @50', browse, 50),
      browse10: await measure('browse @10', browse, 10),
      detail: await measure('detail @50', detailPaths(seeded.listedCarIds), 50),
    };
  } finally {
    await stopServer(server);
  }
}

async function benchPostgres(rows: Row[]): Promise<string | null> {
  if (!PG_CARS.length) return 'PostgreSQL skipped: BENCH_PG_CARS is empty';
  const unavailable = await postgresUnavailable();
  if (unavailable) return `PostgreSQL skipped: ${unavailable}`;
  for (const cars of PG_CARS) {
    const schema = `karoo_bench_${process.pid}_${cars}`;
    const dataDir = await mkdtemp(path.join(tmpdir(), 'karoo-bench-'));
    try {
      rows.push(await benchDatabase('PostgreSQL', await createSchema(schema), cars, dataDir));
    } finally {
      await dropSchema(schema);
      await rm(dataDir, { recursive: true, force: true });
    }
  }
  return null;
}

async function benchPglite(rows: Row[]): Promise<void> {
  if (PGLITE_CARS <= 0) return;
  const dataDir = await mkdtemp(path.join(tmpdir(), 'karoo-bench-'));
  try {
    rows.push(await benchDatabase('PGlite (embedded)', pgliteDatabase(dataDir), PGLITE_CARS, dataDir));
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

// ---- Report ----
const n = (v: number) => (v < 10 ? v.toFixed(1) : Math.round(v).toLocaleString('en-US'));
const met = (ok: boolean) => (ok ? 'met' : 'NOT met');

function table(rows: Row[]): string {
  const head = ['database', 'cars', 'bookings', 'health req/s', 'browse req/s @50', 'browse p50 @50', 'browse p95 @10', 'detail req/s @50', 'browse/health', 'detail/health'];
  const body = rows.map((r) => [
    r.database, n(r.cars), n(r.bookings), n(r.health.rps), n(r.browse50.rps), ms(r.browse50.p50), ms(r.browse10.p95), n(r.detail.rps),
    (r.browse50.rps / r.health.rps).toFixed(2), (r.detail.rps / r.health.rps).toFixed(2),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (i < 1 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
  return [line(head), `|${widths.map((w, i) => (i < 1 ? `:${'-'.repeat(w + 1)}` : `${'-'.repeat(w + 1)}:`)).join('|')}|`, ...body.map(line)].join('\n');
}

function targets(rows: Row[]): string {
  return rows
    .map((r) => {
      const browse = r.browse50.rps / r.health.rps;
      const detail = r.detail.rps / r.health.rps;
      return `- ${r.database} ${n(r.cars)} cars: browse >= 0.5 of health ${met(browse >= 0.5)} (${browse.toFixed(2)}); browse p95 @10 < 20 ms ${met(r.browse10.p95 < 20)} (${ms(r.browse10.p95)}); detail >= 0.5 of health ${met(detail >= 0.5)} (${detail.toFixed(2)})`;
    })
    .join('\n');
}

// ---- BENCH_MODE=lean ----
interface LeanRow {
  cars: number;
  load: string;
  health: Measured;
  fullIndex: Measured;
  cardIndex: Measured;
  fullSql: Measured;
  cardSql: Measured;
  fullCached: Measured;
  cardCached: Measured;
  map: Measured;
  mapFirst: number[];
  fullBytes: number;
  cardBytes: number;
}

const withCard = (next: () => string) => () => `${next()}&fields=card`;
const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

const MAP_FILTERS = ['', 'type=SUV', 'transmission=automatic', 'maxPrice=600', 'fuel=diesel', 'minPrice=1000', 'pickupType=HOST_DELIVERY', 'search=toyota', 'type=Sedan&transmission=manual', 'features=Bluetooth', 'location=cape%20town', 'type=Luxury'];

/** Map requests: 12 filter sets (each built once), a view around a base city or the country, zoom 5-15. */
function mapPaths(seed = 46): () => string {
  const r = seededRandom(seed);
  return () => {
    const f = r.pick(MAP_FILTERS);
    const zoom = r.int(5, 15);
    const city = r.pick(BASE_CITIES);
    const half = zoom <= 5 ? 8 : 180 / 2 ** zoom;
    const lat = city.latitude + (r.next() - 0.5) * 0.2;
    const lng = city.longitude + (r.next() - 0.5) * 0.2;
    const bbox = [lng - half * 1.5, lat - half, lng + half * 1.5, lat + half].map((v) => v.toFixed(4)).join(',');
    return `/api/car/map?bbox=${bbox}&zoom=${zoom}${f ? `&${f}` : ''}`;
  };
}

/** The first view of each filter set, one at a time (its clusters are built then): the times in ms, sorted. */
async function mapFirstViews(): Promise<number[]> {
  const times: number[] = [];
  for (const f of MAP_FILTERS) {
    const at = performance.now();
    await fetch(`http://127.0.0.1:${PORT}/api/car/map?bbox=16,-35,33,-22&zoom=5${f ? `&${f}` : ''}`).then((r) => r.arrayBuffer());
    times.push(performance.now() - at);
  }
  return times.sort((a, b) => a - b);
}

async function bytesOf(url: string): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${PORT}${url}`);
  return (await res.arrayBuffer()).byteLength;
}

/** Averages of runs alternated with another server's (so that both meet the same machine load). */
function mean(runs: Measured[]): Measured {
  const avg = (pick: (m: Measured) => number) => runs.reduce((sum, m) => sum + pick(m), 0) / runs.length;
  return { rps: avg((m) => m.rps), p50: avg((m) => m.p50), p95: avg((m) => m.p95), failures: {}, errors: runs.reduce((sum, m) => sum + m.errors, 0) };
}

const LEAN_ROUNDS = Number(process.env.BENCH_ROUNDS || 3);

async function benchLean(cars: number): Promise<LeanRow> {
  const schema = `karoo_bench_lean_${process.pid}_${cars}`;
  const dataDir = await mkdtemp(path.join(tmpdir(), 'karoo-bench-'));
  const basePort = PORT;
  const started: ChildProcess[] = [];
  try {
    const target = await createSchema(schema);
    console.log(`\nPostgreSQL: ${cars.toLocaleString('en-US')} cars (lean)`);
    const seeded = await prepare(target, { cars, bookingsPerCar: BOOKINGS_PER_CAR, today: todayIn() }, dataDir);
    console.log(`  seeded ${seeded.cars.toLocaleString('en-US')} cars and ${seeded.bookings.toLocaleString('en-US')} bookings in ${seeded.seconds.toFixed(1)} s`);
    // Three servers at once on the same data: the index, the SQL alone, and the page cache on.
    const ports = { index: basePort, sql: basePort + 1, cached: basePort + 2 };
    const start = async (name: keyof typeof ports, extra: Record<string, string>) => {
      PORT = ports[name];
      started.push(await startServer({ ...target.serverEnv, DATA_DIR: path.join(dataDir, name), ...extra }));
      if (extra.BROWSE_INDEX !== 'off') await browseIndexLoaded();
    };
    await start('index', {});
    await start('sql', { BROWSE_INDEX: 'off' });
    await start('cached', { BROWSE_CACHE_MS: '60000' });
    const on = (name: keyof typeof ports) => {
      PORT = ports[name];
    };
    const load = loadAverage();
    on('index');
    const health = await measure('health @10', () => '/api/health', 10);
    // Index and SQL in turns, each round with its own URLs (the same for both engines).
    const runs = { cardIndex: [] as Measured[], cardSql: [] as Measured[], fullIndex: [] as Measured[], fullSql: [] as Measured[] };
    for (let round = 0; round < LEAN_ROUNDS; round += 1) {
      on('index');
      runs.cardIndex.push(await measure(`card, index @10 #${round + 1}`, withCard(browsePaths(100 + round)), 10));
      on('sql');
      runs.cardSql.push(await measure(`card, SQL @10 #${round + 1}`, withCard(browsePaths(100 + round)), 10));
      on('index');
      runs.fullIndex.push(await measure(`full, index @10 #${round + 1}`, browsePaths(200 + round), 10));
      on('sql');
      runs.fullSql.push(await measure(`full, SQL @10 #${round + 1}`, browsePaths(200 + round), 10));
    }
    on('index');
    const mapFirst = await mapFirstViews();
    console.log(`  map, first views of 12 filter sets: ${mapFirst.map((t) => t.toFixed(0)).join(', ')} ms`);
    const map = await measure('map @10', mapPaths(), 10);
    on('cached');
    const page = '/api/car/getCarList?limit=12&page=1';
    const fullCached = await measure('full, cached @10', () => page, 10);
    const cardCached = await measure('card, cached @10', () => `${page}&fields=card`, 10);
    const fullBytes = await bytesOf(page);
    const cardBytes = await bytesOf(`${page}&fields=card`);
    return {
      cars: seeded.cars,
      load: `${load} → ${loadAverage()}`,
      health,
      cardIndex: mean(runs.cardIndex),
      cardSql: mean(runs.cardSql),
      fullIndex: mean(runs.fullIndex),
      fullSql: mean(runs.fullSql),
      mapFirst,
      map,
      fullCached,
      cardCached,
      fullBytes,
      cardBytes,
    };
  } finally {
    for (const child of started) await stopServer(child);
    PORT = basePort;
    await dropSchema(schema);
    await rm(dataDir, { recursive: true, force: true });
  }
}

function leanTable(rows: LeanRow[]): string {
  const cell = (m: Measured) => `${n(m.rps)} req/s, p95 ${ms(m.p95)}`;
  const lines = [
    '| cars | health | full, index | card, index | full, SQL | card, SQL | full, cached | card, cached | map (clusters built) | map, first view of a filter set (median, max) | SQL/index (card) | page bytes full → card | load (1, 5, 15 min) |',
    '|---:|---|---|---|---|---|---|---|---|---|---:|---|---|',
    ...rows.map((r) =>
      `| ${n(r.cars)} | ${cell(r.health)} | ${cell(r.fullIndex)} | ${cell(r.cardIndex)} | ${cell(r.fullSql)} | ${cell(r.cardSql)} | ${cell(r.fullCached)} | ${cell(r.cardCached)} | ${cell(r.map)} | ${ms(r.mapFirst[Math.floor(r.mapFirst.length / 2)]!)}, ${ms(r.mapFirst.at(-1)!)} | ${(r.cardSql.rps / r.cardIndex.rps).toFixed(2)} | ${n(r.fullBytes)} → ${n(r.cardBytes)} | ${r.load} |`,
    ),
  ];
  return lines.join('\n');
}

async function mainLean() {
  const unavailable = await postgresUnavailable();
  if (unavailable) throw new Error(`PostgreSQL needed for BENCH_MODE=lean: ${unavailable}`);
  const rows: LeanRow[] = [];
  for (const cars of PG_CARS) rows.push(await benchLean(cars));
  const report = `Karoo bench (lean): PostgreSQL, all at 10 connections, ${DURATION} s per run after ${WARMUP} s warm-up, ${BOOKINGS_PER_CAR} bookings per car; three servers on the same data at once (browse index on, BROWSE_INDEX=off, page cache on); index and SQL runs alternate, ${LEAN_ROUNDS} rounds each, averaged; a different browse URL on every request except "cached" (one page served again from the page cache)\n\n${leanTable(rows)}\n`;
  console.log(`\n${report}`);
  if (OUT) await writeFile(OUT, report);
}

async function main() {
  const build = spawnSync(process.execPath, ['build.mjs'], { cwd: apiDir, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('build failed');
  if (process.env.BENCH_MODE === 'lean') return mainLean();
  const started = Date.now();
  const rows: Row[] = [];
  const skipped = await benchPostgres(rows);
  if (skipped) console.log(`\n${skipped}`);
  await benchPglite(rows);

  const title = `Karoo bench: browse cache off, a different browse URL on every request, ${DURATION} s per run after ${WARMUP} s warm-up, ${BOOKINGS_PER_CAR} bookings per car`;
  const notes = [skipped, `seeding: ${rows.map((r) => `${r.database} ${n(r.cars)} cars ${r.seedSeconds.toFixed(1)} s`).join(', ')}; total ${((Date.now() - started) / 1000).toFixed(0)} s`].filter(Boolean);
  const report = `${title}\n\n${table(rows)}\n\nTargets (issue 11):\n${targets(rows)}\n\n${notes.join('\n')}\n`;
  console.log(`\n${report}`);
  if (OUT) await writeFile(OUT, report);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
