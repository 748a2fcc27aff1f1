// `npm run bench:explain`: where the time of a browse goes. Seeds PostgreSQL with 100,000 cars
// (BENCH_EXPLAIN_CARS) and their bookings in a schema of its own (dropped afterwards), then runs
// representative browse queries through the API's own code (listCarsPage from car-browse.service,
// with the browse cache off, and findVisibleCar for the detail route), records every SQL statement
// they send through a Kysely logger, and prints EXPLAIN (ANALYZE, BUFFERS) of each, with the same
// parameters. Nothing is rebuilt here, so the plans stay those of whatever the repository builds.
//
// Knobs: BENCH_EXPLAIN_CARS (100000), BENCH_BOOKINGS_PER_CAR (2), BENCH_EXPLAIN_KEEP=1 (keep the
// schema, and reuse it on the next run), BENCH_VERBOSE (seed timings). The server is
// BENCH_DATABASE_URL, else TEST_DATABASE_URL, else DATABASE_URL.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Kysely, PostgresDialect, type CompiledQuery } from 'kysely';
import pg from 'pg';
import pino from 'pino';
import { addDays, carListQuerySchema, todayIn } from '@karoo/shared';
import { createAppContext } from '../src/app-context';
import { systemClock, type AppContext } from '../src/context';
import type { Database } from '../src/db/schema';
import { loadEnv } from '../src/env';
import { createMailer } from '../src/lib/mail';
import { createStorage } from '../src/lib/storage';
import { listCarsPage } from '../src/modules/cars/car-browse.service';
import { findVisibleCar } from '../src/modules/cars/cars.service';
import { createSchema, dropSchema, postgresUnavailable, prepare, serverUrl } from './bench-db';

const CARS = Number(process.env.BENCH_EXPLAIN_CARS || 100_000);
const BOOKINGS_PER_CAR = Number(process.env.BENCH_BOOKINGS_PER_CAR || 2);
const KEEP = !!process.env.BENCH_EXPLAIN_KEEP;
const SCHEMA = `karoo_explain_${CARS}`;

/** Representative browse pages: the first page, filters, each sort, a date window, a deep page. */
function browseCases(today: string): { name: string; query: string }[] {
  const start = addDays(today, 21);
  return [
    { name: 'first page, no filter (relevance)', query: 'page=1&limit=12' },
    { name: 'city + browse type, price low', query: 'location=Cape%20Town&type=SUV&sort=PRICE_LOW&page=1&limit=12' },
    { name: 'search word + price band, price high', query: 'search=toyota&minPrice=500&maxPrice=1500&sort=PRICE_HIGH&page=2&limit=12' },
    { name: 'distance from Sandton', query: 'sort=DISTANCE&lat=-26.1076&lng=28.0567&page=1&limit=12' },
    { name: 'date window (3 days in 3 weeks) + city', query: `location=Durban&startDate=${start}&endDate=${addDays(start, 3)}&page=1&limit=12` },
    { name: 'features + transmission + host delivery, page 5', query: 'features=Bluetooth,Apple%20CarPlay&transmission=Automatic&pickupType=HOST_DELIVERY&page=5&limit=12' },
  ];
}

/** A Kysely over the schema that records every statement it sends. */
function recordingDb(schema: string, recorded: CompiledQuery[]): Kysely<Database> {
  const pool = new pg.Pool({ connectionString: serverUrl, max: 2, options: `-c search_path=${schema},public` });
  return new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    log: (event) => {
      if (event.level === 'query') recorded.push(event.query);
    },
  });
}

function context(db: Kysely<Database>, dataDir: string): AppContext {
  const env = loadEnv({ DATA_DIR: dataDir, LOG_LEVEL: 'warn', BROWSE_CACHE_MS: '0' });
  return createAppContext({
    db,
    env,
    clock: systemClock,
    mailer: createMailer({ log: pino({ level: 'warn' }), from: env.MAIL_FROM }),
    ...createStorage(env),
  });
}

/** Runs `call` through the API code, then EXPLAIN (ANALYZE, BUFFERS) of each statement it sent. */
async function explainCall(db: Kysely<Database>, client: pg.Client, recorded: CompiledQuery[], title: string, call: () => Promise<unknown>) {
  recorded.length = 0;
  await call(); // warms the cache, and records the statements
  const statements = [...recorded];
  console.log(`\n${'='.repeat(100)}\n${title}`);
  for (const [i, q] of statements.entries()) {
    console.log(`\n-- statement ${i + 1} of ${statements.length}, parameters ${JSON.stringify(q.parameters)}\n${q.sql.trim()}\n`);
    const { rows } = await client.query<{ 'QUERY PLAN': string }>({ text: `EXPLAIN (ANALYZE, BUFFERS) ${q.sql}`, values: q.parameters as unknown[] });
    console.log(rows.map((r) => r['QUERY PLAN']).join('\n'));
  }
}

async function schemaSeeded(): Promise<boolean> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const { rows } = await client.query(`SELECT 1 FROM information_schema.tables WHERE table_schema = $1 AND table_name = 'cars'`, [SCHEMA]);
    return rows.length > 0;
  } finally {
    await client.end();
  }
}

async function main() {
  const unavailable = await postgresUnavailable();
  if (unavailable) {
    console.log(`bench:explain needs PostgreSQL: ${unavailable}`);
    return;
  }
  const today = todayIn();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'karoo-explain-'));
  const recorded: CompiledQuery[] = [];
  let db: Kysely<Database> | undefined;
  const client = new pg.Client({ connectionString: serverUrl, options: `-c search_path=${SCHEMA},public` });
  try {
    if (KEEP && (await schemaSeeded())) {
      console.log(`reusing schema ${SCHEMA}`);
    } else {
      const seeded = await prepare(await createSchema(SCHEMA), { cars: CARS, bookingsPerCar: BOOKINGS_PER_CAR, today });
      console.log(`seeded ${seeded.cars.toLocaleString('en-US')} cars and ${seeded.bookings.toLocaleString('en-US')} bookings in ${seeded.seconds.toFixed(1)} s (schema ${SCHEMA})`);
    }
    await client.connect();
    const { rows } = await client.query<{ version: string }>('SELECT version()');
    console.log(rows[0]!.version);
    db = recordingDb(SCHEMA, recorded);
    const ctx = context(db, dataDir);
    for (const c of browseCases(today)) {
      const query = carListQuerySchema.parse(Object.fromEntries(new URLSearchParams(c.query)));
      await explainCall(db, client, recorded, `browse: ${c.name}\nGET /api/car/getCarList?${c.query}`, () => listCarsPage(ctx, null, query));
    }
    const { rows: car } = await client.query<{ id: string }>(`SELECT id FROM cars WHERE deleted_at IS NULL AND status = 'available' AND verification_status = 'verified' ORDER BY hashtext(id::text) LIMIT 1`);
    await explainCall(db, client, recorded, `detail\nGET /api/car/getCarDetails/${car[0]!.id}`, () => findVisibleCar(ctx, null, car[0]!.id));
  } finally {
    await db?.destroy();
    await client.end().catch(() => undefined);
    if (!KEEP) await dropSchema(SCHEMA);
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
