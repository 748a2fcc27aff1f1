// Bench data, seeded in SQL (INSERT ... SELECT FROM generate_series): hosts and renters, N cars
// and N x BOOKINGS_PER_CAR bookings. 100,000 cars and 200,000 bookings take seconds on PostgreSQL;
// the same statements run on the embedded PGlite. Deterministic: every "random" choice is a hash of
// the row number (hashtext), so two runs seed the same marketplace.
//
// What it looks like: the 14 base cities (with jittered coordinates, a few cars without any), the
// demo makes and models (types, transmissions, fuels, engines), prices R250-R3,000 a day around
// each model's price, features and safety features, pickup options (host's home, mall, airport,
// delivery), ratings on 70% of the cars, 92% listed (the rest offline, in maintenance, pending or
// rejected, 1% deleted). Bookings sit in disjoint slots per car (the exclusion constraint never
// fires) from 150 days ago to 90 days ahead: completed, cancelled and rejected in the past, active
// ones under way today, and pending, confirmed and cancelled ones to come (pending ones expire in
// 47 hours, so the expiry job does not touch them during a run).
import { sql } from 'kysely';
import { BASE_CITIES, buildCarUsername, CAR_FEATURES, SAFETY_FEATURES } from '@karoo/shared';
import type { Db } from '../src/db/connection';
import { DEMO_MODELS } from '../src/db/seed/demo-cars';

/** Any argon2id string will do: nobody signs in as a bench user. */
const PASSWORD_HASH = '$argon2id$v=19$m=19456,t=2,p=1$YmVuY2gtc2FsdC0xMjM0NQ$3Hk2Yk0mX1YbVn9tUq8sZx4cVbNmLkJhGfDsApOiUyT';
/** Days covered by the bookings: from today - PAST_DAYS to today + (SPAN_DAYS - PAST_DAYS). */
const PAST_DAYS = 150;
const SPAN_DAYS = 240;
const PLATE_SUFFIX: Record<string, string> = { Gauteng: 'GP', 'Western Cape': 'WC', 'KwaZulu-Natal': 'ZN', 'Eastern Cape': 'EC', 'Free State': 'FS', Limpopo: 'L', Mpumalanga: 'MP', 'Northern Cape': 'NC', 'North West': 'NW' };

export interface BenchSeed {
  cars: number;
  bookingsPerCar: number;
  /** The server's today (YYYY-MM-DD): bookings are placed around it. */
  today: string;
}

export interface BenchSeedResult {
  cars: number;
  bookings: number;
  listedCarIds: string[];
  seconds: number;
}

/** A uniform number in [0, 1) from a row key and a salt. */
const u = (key: string, salt: string) => sql.raw(`((hashtext(${key}::text || '${salt}')::bigint + 2147483648) / 4294967296.0)`);
/** A whole number in [0, n). */
const pick = (key: string, salt: string, n: number | string) => sql.raw(`floor(((hashtext(${key}::text || '${salt}')::bigint + 2147483648) / 4294967296.0) * ${n})::int`);

async function seedUsers(db: Db, prefix: 'host' | 'renter', count: number): Promise<void> {
  const isHost = prefix === 'host';
  await sql`
    INSERT INTO users (username, email, password_hash, full_name, role, user_type, verification_status, verified_at, host_since, rating, total_trips, created_at)
    SELECT ${`bench_${prefix}_`} || n, ${`bench_${prefix}_`} || n || '@example.co.za', ${PASSWORD_HASH}, ${isHost ? 'Bench Host ' : 'Bench Renter '} || n,
      ${isHost ? 'host' : 'customer'}, ${isHost ? 'host' : null}, 'verified', now() - interval '200 days',
      ${isHost ? sql`now() - (300 + n % 400) * interval '1 day'` : sql`NULL::timestamptz`},
      ${isHost ? sql`round((3.6 + ${u('n', 'hr')} * 1.4)::numeric, 2)` : sql`NULL::numeric`},
      n % 30, now() - (400 + n % 300) * interval '1 day'
    FROM generate_series(1, ${count}::int) AS n
  `.execute(db);
}

function modelsJson(): string {
  return JSON.stringify(
    DEMO_MODELS.map((m, k) => ({
      k, slug: buildCarUsername(m.make, m.model, '').replace(/-$/, ''), make: m.make, model: m.model, type: m.type, price: m.price, value: m.value,
      specs: { transmission: m.transmission, fuelType: m.fuel, seats: m.seats, doors: m.doors, engine: m.engine, fuelConsumption: m.consumption },
    })),
  );
}

function citiesJson(): string {
  return JSON.stringify(BASE_CITIES.map((c, k) => ({ k, name: c.name, latitude: c.latitude, longitude: c.longitude, plate: PLATE_SUFFIX[c.province] ?? 'ZA' })));
}

/** Pickup options as stored (cents): the host's home always, a mall, an airport and delivery sometimes. */
const PICKUPS = sql`
  jsonb_build_array(jsonb_build_object('id', 'pickup_h' || n, 'name', 'Host''s home', 'address', (n % 90 + 1) || ' Main Rd, ' || ci.name,
    'additional_fee_cents', 0, 'type', 'standard', 'available_times', '["09:00","13:00","17:00"]'::jsonb))
  || CASE WHEN ${u('n', 'pm')} < 0.5 THEN jsonb_build_array(jsonb_build_object('id', 'pickup_m' || n, 'name', ci.name || ' Mall', 'address', 'Mall Rd, ' || ci.name,
    'additional_fee_cents', 5000, 'type', 'mall', 'available_times', '["10:00","14:00"]'::jsonb)) ELSE '[]'::jsonb END
  || CASE WHEN ${u('n', 'pa')} < 0.3 THEN jsonb_build_array(jsonb_build_object('id', 'pickup_a' || n, 'name', ci.name || ' Airport', 'address', 'Airport Rd, ' || ci.name,
    'additional_fee_cents', 15000, 'type', 'airport', 'available_times', '["06:00","12:00","18:00"]'::jsonb)) ELSE '[]'::jsonb END
  || CASE WHEN ${u('n', 'pd')} < 0.35 THEN jsonb_build_array(jsonb_build_object('id', 'pickup_d' || n, 'name', 'Delivery to your address', 'address', 'Anywhere in ' || ci.name,
    'additional_fee_cents', 30000, 'type', 'premium', 'available_times', '["08:00","16:00"]'::jsonb)) ELSE '[]'::jsonb END`;

const INSURANCE = sql`jsonb_build_array(
  jsonb_build_object('id', 'insurance_b' || n, 'name', 'Basic Cover', 'description', 'Third-party liability', 'daily_rate_cents', 0, 'excess_amount_cents', 1500000,
    'coverage', '["Third-party liability"]'::jsonb, 'included', true, 'popular', false, 'recommended', false),
  jsonb_build_object('id', 'insurance_s' || n, 'name', 'Standard Cover', 'description', 'Lower excess', 'daily_rate_cents', 8500, 'excess_amount_cents', 500000,
    'coverage', '["Collision damage waiver","Theft protection"]'::jsonb, 'included', false, 'popular', true, 'recommended', false))`;

/** Distinct feature lists a car can carry (chosen per car by hash: cheaper than a subquery per car). */
const COMBOS = 1024;
/** COMBOS subsets of a JSON array of names, each name kept with probability `p`, in catalogue order. */
const subsets = (names: readonly string[], salt: string, p: number) => sql`
  SELECT k, (
    SELECT coalesce(jsonb_agg(f ORDER BY i), '[]'::jsonb)
    FROM jsonb_array_elements_text(${JSON.stringify(names)}::jsonb) WITH ORDINALITY AS t(f, i)
    WHERE ((hashtext(k::text || ${salt} || i::text)::bigint + 2147483648) / 4294967296.0) < ${p}
  ) AS list
  FROM generate_series(0, ${COMBOS - 1}::int) AS k`;

async function seedCars(db: Db, count: number): Promise<void> {
  const models = DEMO_MODELS.length;
  const cities = BASE_CITIES.length;
  await sql`
    WITH m AS (
      SELECT * FROM jsonb_to_recordset(${modelsJson()}::jsonb) AS x(k int, slug text, make text, model text, type text, price int, value int, specs jsonb)
    ), ci AS (
      SELECT * FROM jsonb_to_recordset(${citiesJson()}::jsonb) AS x(k int, name text, latitude float8, longitude float8, plate text)
    ), h AS (
      SELECT (row_number() OVER (ORDER BY id)) - 1 AS k, id FROM users WHERE username LIKE 'bench\_host\_%'
    ), hosts AS (SELECT count(*) AS hn FROM h),
    fe AS (${subsets(CAR_FEATURES, 'f', 0.45)}),
    sa AS (${subsets(SAFETY_FEATURES, 's', 0.6)})
    INSERT INTO cars (car_username, owner_id, car_make, car_model, car_year, car_color, car_type, car_plate_number, car_value_cents,
      car_rent_price_cents, car_odometer, description, images, pickup_location, latitude, longitude, status, verification_status,
      specifications, features, safety, rules, pickup_options, insurance_options, rating, total_reviews, created_at, updated_at, deleted_at)
    SELECT
      m.slug || '-' || lpad(n::text, 6, '0'), h.id, m.make, m.model, 2014 + ${pick('n', 'y', 12)},
      (ARRAY['White','White','Silver','Grey','Black','Red','Blue','Navy Blue','Champagne','Dark Green'])[1 + ${pick('n', 'co', 10)}],
      m.type, 'KB ' || lpad(n::text, 6, '0') || ' ' || ci.plate, m.value::bigint * 100,
      greatest(25000, least(300000, (round(m.price * (0.6 + 0.8 * ${u('n', 'p')}) / 10) * 1000)::int)),
      5000 + ${pick('n', 'od', 175000)},
      'A well-kept ' || m.make || ' ' || m.model || ' in ' || ci.name || '. ' || (m.specs->>'transmission') || ', ' || lower(m.specs->>'fuelType') || ', ' || (m.specs->>'seats') || ' seats.',
      jsonb_build_array('/uploads/bench/' || m.slug || '-side.svg', '/uploads/bench/' || m.slug || '-front.svg', '/uploads/bench/' || m.slug || '-rear.svg'),
      ci.name,
      CASE WHEN ${u('n', 'nl')} < 0.01 THEN NULL ELSE ci.latitude + (${u('n', 'la')} - 0.5) * 0.3 END,
      CASE WHEN ${u('n', 'nl')} < 0.01 THEN NULL ELSE ci.longitude + (${u('n', 'lo')} - 0.5) * 0.3 END,
      CASE WHEN s.r < 0.94 THEN 'available' WHEN s.r < 0.97 THEN 'offline' ELSE 'maintenance' END,
      CASE WHEN v.r < 0.97 THEN 'verified' WHEN v.r < 0.99 THEN 'pending_verification' ELSE 'rejected' END,
      m.specs, fe.list, sa.list, '["No smoking","No pets"]'::jsonb,
      ${PICKUPS}, ${INSURANCE},
      CASE WHEN ${u('n', 'rt')} < 0.7 THEN round((3.5 + ${u('n', 'rv')} * 1.5)::numeric, 2) END,
      CASE WHEN ${u('n', 'rt')} < 0.7 THEN 1 + ${pick('n', 'tr', 60)} ELSE 0 END,
      now() - ${pick('n', 'ca', 730 * 24)} * interval '1 hour', now() - ${pick('n', 'ua', 30 * 24)} * interval '1 hour',
      CASE WHEN ${u('n', 'del')} < 0.01 THEN now() - interval '3 days' END
    FROM generate_series(1, ${count}::int) AS n
    CROSS JOIN hosts
    CROSS JOIN LATERAL (SELECT ${u('n', 'st')} AS r) s
    CROSS JOIN LATERAL (SELECT ${u('n', 've')} AS r) v
    JOIN m ON m.k = ${pick('n', 'm', models)}
    JOIN ci ON ci.k = ${pick('n', 'c', cities)}
    JOIN h ON h.k = n % hosts.hn
    JOIN fe ON fe.k = ${pick('n', 'fe', COMBOS)}
    JOIN sa ON sa.k = ${pick('n', 'sa', COMBOS)}
  `.execute(db);
}

/**
 * BOOKINGS_PER_CAR bookings per car, slot k of SPAN_DAYS / perCar days each (so they never
 * overlap), 1 to 7 days long, status from where the dates fall against today.
 */
async function seedBookings(db: Db, perCar: number, today: string): Promise<void> {
  const slot = Math.floor(SPAN_DAYS / perCar);
  if (slot < 10) throw new Error(`BENCH_BOOKINGS_PER_CAR=${perCar} leaves slots of ${slot} days; use at most ${Math.floor(SPAN_DAYS / 10)}`);
  await sql`
    WITH c AS (
      SELECT id, owner_id, car_rent_price_cents AS price, (row_number() OVER (ORDER BY id)) - 1 AS rn FROM cars
    ), r AS (
      SELECT (row_number() OVER (ORDER BY id)) - 1 AS k, id FROM users WHERE username LIKE 'bench\_renter\_%'
    ), renters AS (SELECT count(*) AS rcount FROM r),
    b AS (
      SELECT c.*, k.k AS slot, c.rn * ${perCar}::int + k.k AS seq,
        ${sql`${today}::date`} - ${PAST_DAYS}::int + k.k * ${slot}::int + floor(((hashtext(c.id::text || 'bs' || k.k)::bigint + 2147483648) / 4294967296.0) * ${slot - 10}::int)::int AS start_date,
        1 + floor(((hashtext(c.id::text || 'bd' || k.k)::bigint + 2147483648) / 4294967296.0) * 7)::int AS days,
        ((hashtext(c.id::text || 'bx' || k.k)::bigint + 2147483648) / 4294967296.0) AS x
      FROM c CROSS JOIN generate_series(0, ${perCar - 1}::int) AS k(k)
    ), s AS (
      SELECT b.*, start_date + days - 1 AS end_date,
        CASE
          WHEN start_date + days - 1 < ${today}::date THEN CASE WHEN x < 0.8 THEN 'completed' WHEN x < 0.95 THEN 'cancelled' ELSE 'rejected' END
          WHEN start_date <= ${today}::date THEN CASE WHEN x < 0.85 THEN 'active' ELSE 'cancelled' END
          ELSE CASE WHEN x < 0.45 THEN 'confirmed' WHEN x < 0.75 THEN 'pending' ELSE 'cancelled' END
        END AS status
      FROM b
    )
    INSERT INTO bookings (booking_number, car_id, renter_id, owner_id, start_date, end_date, start_time, end_time, is_hourly_booking,
      duration_days, status, subtotal_cents, service_fee_cents, total_price_cents, service_fee_rate, commission_rate,
      car_owner_earnings_cents, app_fee_cents, payment_status, paid_at, confirmed_at, completed_at, cancelled_at,
      payout_status, expires_at, created_at, updated_at, held)
    SELECT 'BB' || lpad(seq::text, 9, '0'), s.id, r.id, s.owner_id, start_date, end_date, '10:00', '10:00', false,
      days, status, price * days, price * days / 10, price * days + price * days / 10, 10, 15,
      price * days * 85 / 100, price * days / 10 + price * days * 15 / 100,
      CASE WHEN status IN ('confirmed', 'active', 'completed') THEN 'paid' ELSE 'unpaid' END,
      CASE WHEN status IN ('confirmed', 'active', 'completed') THEN start_date - 5 + time '12:00' END,
      CASE WHEN status IN ('confirmed', 'active', 'completed') THEN start_date - 6 + time '12:00' END,
      CASE WHEN status = 'completed' THEN end_date + time '11:00' END,
      CASE WHEN status = 'cancelled' THEN start_date - 3 + time '12:00' END,
      CASE WHEN status = 'completed' AND x < 0.6 THEN 'paid' ELSE 'pending' END,
      CASE WHEN status = 'pending' THEN now() + interval '47 hours' END,
      CASE WHEN status = 'pending' THEN now() ELSE start_date - 7 + time '09:00' END,
      now(),
      -- Triggers are off during the bulk load: the range and the car's hold are written here (migration 0028).
      booking_held_range(start_date, '10:00', end_date, '10:00', 0)
    FROM s CROSS JOIN renters JOIN r ON r.k = (s.rn * 7 + s.slot) % renters.rcount
  `.execute(db);
  await sql`INSERT INTO car_holds (car_id, during, booking_id)
    SELECT car_id, held, id FROM bookings WHERE status IN ('pending', 'confirmed', 'active') AND booking_number LIKE 'BB%'`.execute(db);
}

/**
 * Runs a bulk load the way one loads a big table: the secondary indexes and the unique and
 * exclusion constraints of `tables` are dropped first and rebuilt after from their own definitions
 * (pg_indexes, pg_get_constraintdef), and foreign-key triggers are off for the session when the
 * role may do that (the data is consistent by construction; rebuilding the constraints checks it).
 */
async function bulkLoad(db: Db, tables: string[], run: (db: Db) => Promise<void>): Promise<void> {
  await db.connection().execute(async (conn) => {
    const { rows: constraints } = await sql<{ table: string; name: string; def: string }>`
      SELECT t.relname AS table, c.conname AS name, pg_get_constraintdef(c.oid) AS def
      FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid
      WHERE t.relnamespace = current_schema()::regnamespace AND t.relname IN (${sql.join(tables)}) AND c.contype IN ('u', 'x')
    `.execute(conn);
    const { rows: indexes } = await sql<{ name: string; def: string }>`
      SELECT indexname AS name, indexdef AS def FROM pg_indexes i
      WHERE schemaname = current_schema() AND tablename IN (${sql.join(tables)})
        AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = (quote_ident(i.schemaname) || '.' || quote_ident(i.indexname))::regclass)
    `.execute(conn);
    for (const c of constraints) await sql`ALTER TABLE ${sql.table(c.table)} DROP CONSTRAINT ${sql.id(c.name)}`.execute(conn);
    for (const i of indexes) await sql`DROP INDEX ${sql.id(i.name)}`.execute(conn);
    const triggersOff = await sql`SET session_replication_role = replica`.execute(conn).then(() => true, () => false);
    try {
      await run(conn);
    } finally {
      if (triggersOff) await sql`SET session_replication_role = DEFAULT`.execute(conn);
    }
    for (const i of indexes) await sql.raw(i.def).execute(conn);
    for (const c of constraints) await sql`ALTER TABLE ${sql.table(c.table)} ADD CONSTRAINT ${sql.id(c.name)} ${sql.raw(c.def)}`.execute(conn);
  });
}

export async function seedBenchData(db: Db, seed: BenchSeed): Promise<BenchSeedResult> {
  const started = Date.now();
  const step = async (name: string, run: () => Promise<void>) => {
    const at = Date.now();
    await run();
    if (process.env.BENCH_VERBOSE) console.log(`  seed: ${name} ${((Date.now() - at) / 1000).toFixed(1)} s`);
  };
  await step('hosts', () => seedUsers(db, 'host', Math.max(20, Math.ceil(seed.cars / 40))));
  await step('renters', () => seedUsers(db, 'renter', Math.max(50, Math.ceil(seed.cars / 20))));
  await bulkLoad(db, ['cars', 'bookings'], async (conn) => {
    await step('cars', () => seedCars(conn, seed.cars));
    await step('bookings', () => seedBookings(conn, seed.bookingsPerCar, seed.today));
  });
  await step('vacuum analyze', async () => {
    for (const table of ['users', 'cars', 'bookings']) await sql`VACUUM ANALYZE ${sql.table(table)}`.execute(db);
  });
  const { rows } = await sql<{ id: string }>`
    SELECT id FROM cars WHERE deleted_at IS NULL AND status = 'available' AND verification_status = 'verified'
    ORDER BY hashtext(id::text) LIMIT 20000
  `.execute(db);
  const counts = await sql<{ cars: number; bookings: number }>`SELECT (SELECT count(*) FROM cars) AS cars, (SELECT count(*) FROM bookings) AS bookings`.execute(db);
  return { cars: Number(counts.rows[0]!.cars), bookings: Number(counts.rows[0]!.bookings), listedCarIds: rows.map((r) => r.id), seconds: (Date.now() - started) / 1000 };
}
