// Browse at 100,000 cars, second step (issue 11; docs/decisions/020-browse-at-scale.md): a car row
// is about 2 KB (descriptions, photos, options), so reading rows to test filters was what cost.
// The two sort indexes over listed cars now carry every column the browse filters test (INCLUDE),
// so a page and its capped count are index-only scans that never read a row they do not return;
// the type and city filters compare stored lowered columns (type_key, city_key) whose statistics
// the planner reads, and the pickup filter the stored list of a car's pickup option types
// (pickup_types). A date window's "held in it" check probes a car's holding bookings by car and
// start date (a btree) instead of the exclusion constraint's GiST index.
import { sql, type Kysely } from 'kysely';

const LISTED = sql.raw(`deleted_at IS NULL AND status = 'available' AND verification_status = 'verified'`);
const FILTER_COLUMNS = 'type_key, city_key, transmission_key, fuel_key, car_words, city_words, features, pickup_types, latitude, longitude';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE cars
    ADD COLUMN type_key text GENERATED ALWAYS AS (lower(car_type)) STORED,
    ADD COLUMN city_key text GENERATED ALWAYS AS (lower(pickup_location)) STORED,
    ADD COLUMN pickup_types jsonb GENERATED ALWAYS AS (jsonb_path_query_array(pickup_options, '$[*].type')) STORED`.execute(db);
  for (const index of ['cars_listed_type_idx', 'cars_location_trgm_idx', 'cars_listed_relevance_idx', 'cars_listed_price_idx']) {
    await sql`DROP INDEX IF EXISTS ${sql.ref(index)}`.execute(db);
  }
  await sql`CREATE INDEX cars_listed_relevance_idx ON cars (rating DESC NULLS LAST, total_reviews DESC, created_at DESC, id)
    INCLUDE (car_rent_price_cents, ${sql.raw(FILTER_COLUMNS)}) WHERE ${LISTED}`.execute(db);
  await sql`CREATE INDEX cars_listed_price_idx ON cars (car_rent_price_cents, id)
    INCLUDE (rating, ${sql.raw(FILTER_COLUMNS)}) WHERE ${LISTED}`.execute(db);
  await sql`CREATE INDEX cars_city_key_trgm_idx ON cars USING gin (city_key gin_trgm_ops) WHERE deleted_at IS NULL`.execute(db);
  await sql`CREATE INDEX bookings_holding_car_idx ON bookings (car_id, start_date, end_date) WHERE status IN ('pending', 'confirmed', 'active')`.execute(db);
  await sql`ANALYZE cars`.execute(db);
  await sql`ANALYZE bookings`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const index of ['cars_listed_relevance_idx', 'cars_listed_price_idx', 'cars_city_key_trgm_idx', 'bookings_holding_car_idx']) {
    await sql`DROP INDEX IF EXISTS ${sql.ref(index)}`.execute(db);
  }
  await sql`ALTER TABLE cars DROP COLUMN type_key, DROP COLUMN city_key, DROP COLUMN pickup_types`.execute(db);
  await sql`CREATE INDEX cars_listed_price_idx ON cars (car_rent_price_cents, id) WHERE ${LISTED}`.execute(db);
  await sql`CREATE INDEX cars_listed_relevance_idx ON cars (rating DESC NULLS LAST, total_reviews DESC, created_at DESC, id) WHERE ${LISTED}`.execute(db);
  await sql`CREATE INDEX cars_listed_type_idx ON cars (lower(car_type), car_rent_price_cents) WHERE ${LISTED}`.execute(db);
  await sql`CREATE INDEX cars_location_trgm_idx ON cars USING gin (lower(pickup_location) gin_trgm_ops) WHERE deleted_at IS NULL`.execute(db);
}
