// `npm run bench:find`: the browse index's own work, without HTTP or the record query: times
// BrowseIndex.find (the filters, the sort, the page and the capped count) over the bench's varied
// browse URLs (browse-urls.ts), on BENCH_CARS (100,000) cars seeded in a PostgreSQL schema of its
// own (TEST_DATABASE_URL, else DATABASE_URL). Prints the mean and percentiles, overall and by the
// filters and sorts a URL carries. BENCH_KEEP=1 keeps the schema, and a later run reuses it
// (BENCH_RESEED=1 seeds again); N (3,000) URLs from seed SEED (100).
import { todayIn, carListQuerySchema } from '@karoo/shared';
import { createSchema, dropSchema, prepare, openBenchDatabase, serverUrl, type BenchDatabase } from './bench-db';
import { browsePaths } from './browse-urls';
import { BrowseIndex } from '../src/modules/cars/browse-index';
import { browseFilters } from '../src/modules/cars/car-browse.service';
import pg from 'pg';

const schema = 'karoo_findbench';
if (!serverUrl) throw new Error('bench:find needs PostgreSQL: set TEST_DATABASE_URL or DATABASE_URL');
const url = serverUrl;
const CARS = Number(process.env.BENCH_CARS ?? 100000);
const client = new pg.Client({ connectionString: url }); await client.connect();
const exists = (await client.query(`SELECT 1 FROM information_schema.tables WHERE table_schema = $1 AND table_name = 'cars'`, [schema])).rowCount;
await client.end();
const today = todayIn();
let target: BenchDatabase;
if (!exists || process.env.BENCH_RESEED) {
  target = await createSchema(schema);
  console.log('seeding…', await prepare(target, { cars: CARS, bookingsPerCar: 2, today }).then((r) => r.seconds));
} else {
  const u = new URL(url); u.searchParams.set('options', `-c search_path=${schema},public`);
  target = { kind: 'PostgreSQL', serverEnv: {}, url: u.toString(), schema };
}
const handle = await openBenchDatabase(target);
const index = new BrowseIndex(handle.db, 600000);
const t = performance.now(); await index.sync(); console.log('loaded', index.size, 'in', (performance.now() - t).toFixed(0), 'ms');
const next = browsePaths(Number(process.env.SEED ?? 100));
const times: { ms: number; kind: string }[] = [];
for (let i = 0; i < Number(process.env.N ?? 3000); i++) {
  const path = next();
  const params = new URL(path, 'http://x').searchParams;
  const raw: Record<string, string> = {}; params.forEach((v, k) => (raw[k] = v));
  const query = carListQuerySchema.parse(raw);
  const sort = query.sort ?? 'RELEVANCE';
  const origin = query.lat !== undefined && query.lng !== undefined ? { lat: query.lat, lng: query.lng } : undefined;
  const q = { scope: 'public' as const, today, ...browseFilters(query, false), sort, origin, shape: 'card' as const, limit: query.limit, offset: (query.page - 1) * query.limit };
  const t0 = performance.now();
  index.find(q as never);
  const ms = performance.now() - t0;
  const kind = [sort, q.searchWords.length ? 'words' : '', q.location ? 'loc' : '', q.minPriceCents !== undefined || q.maxPriceCents !== undefined ? 'price' : '', q.window ? 'window' : '', q.type ? 'type' : ''].filter(Boolean).join('+');
  times.push({ ms, kind });
}
const pct = (a: number[], p: number) => a.sort((x, y) => x - y)[Math.min(a.length - 1, Math.floor(a.length * p))]!;
const all = times.map((x) => x.ms);
console.log(`find: n ${all.length}, mean ${(all.reduce((a, b) => a + b, 0) / all.length).toFixed(2)} ms, p50 ${pct(all, 0.5).toFixed(2)}, p95 ${pct(all, 0.95).toFixed(2)}, p99 ${pct(all, 0.99).toFixed(2)}, max ${pct(all, 1).toFixed(2)}`);
const byFeature: Record<string, number[]> = {};
for (const { ms, kind } of times) for (const f of kind.split('+')) (byFeature[f] ??= []).push(ms);
for (const [f, a] of Object.entries(byFeature)) console.log(`  ${f.padEnd(12)} n ${String(a.length).padStart(5)} mean ${(a.reduce((x, y) => x + y, 0) / a.length).toFixed(2).padStart(6)} p95 ${pct(a, 0.95).toFixed(2).padStart(6)} total ${a.reduce((x, y) => x + y, 0).toFixed(0)}`);
await handle.close();
if (!process.env.BENCH_KEEP) await dropSchema(schema);
