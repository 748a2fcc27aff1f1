// Browse at 100,000 cars (issue 11; docs/decisions/020-browse-at-scale.md). Every index serves a
// query the browse page sends, so its cost follows the page size, not the number of cars:
// - the search words' match columns (each run of non-letters one space, spaces around, lowered:
//   the expression the repository used to compute per row) stored by the database, with trigram
//   indexes, and the location filter's lower(pickup_location) with one too;
// - the type filter by type and price, on listed cars;
// - the distance sort: listed cars' positions in a GiST index, searched box by box around the
//   visitor;
// - "rented right now": the active bookings only, by car.
// The unused search_text column goes. The extensions (pg_trgm) are created by migrate.ts.
import { sql, type Kysely } from 'kysely';

const LISTED = sql.raw(`deleted_at IS NULL AND status = 'available' AND verification_status = 'verified'`);
const WORDS = (expression: string) => sql.raw(`(' ' || regexp_replace(lower(${expression}), '[^[:alnum:]]+', ' ', 'g') || ' ')`);

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE cars DROP COLUMN search_text`.execute(db);
  await sql`ALTER TABLE cars ADD COLUMN car_words text GENERATED ALWAYS AS ${WORDS(`car_make || ' ' || car_model || ' ' || car_type`)} STORED`.execute(db);
  await sql`ALTER TABLE cars ADD COLUMN city_words text GENERATED ALWAYS AS ${WORDS('pickup_location')} STORED`.execute(db);
  await sql`CREATE INDEX cars_words_trgm_idx ON cars USING gin (car_words gin_trgm_ops) WHERE deleted_at IS NULL`.execute(db);
  await sql`CREATE INDEX cars_city_words_trgm_idx ON cars USING gin (city_words gin_trgm_ops) WHERE deleted_at IS NULL`.execute(db);
  await sql`CREATE INDEX cars_location_trgm_idx ON cars USING gin (lower(pickup_location) gin_trgm_ops) WHERE deleted_at IS NULL`.execute(db);
  await sql`CREATE INDEX cars_listed_type_idx ON cars (lower(car_type), car_rent_price_cents) WHERE ${LISTED}`.execute(db);
  await sql`CREATE INDEX cars_listed_position_idx ON cars USING gist (point(longitude, latitude))
    WHERE ${LISTED} AND latitude IS NOT NULL AND longitude IS NOT NULL`.execute(db);
  await sql`CREATE INDEX bookings_active_car_idx ON bookings (car_id, start_date) WHERE status = 'active'`.execute(db);
  await sql`ANALYZE cars`.execute(db);
  await sql`ANALYZE bookings`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const index of ['cars_words_trgm_idx', 'cars_city_words_trgm_idx', 'cars_location_trgm_idx', 'cars_listed_type_idx', 'cars_listed_position_idx', 'bookings_active_car_idx']) {
    await sql`DROP INDEX IF EXISTS ${sql.ref(index)}`.execute(db);
  }
  await sql`ALTER TABLE cars DROP COLUMN car_words, DROP COLUMN city_words`.execute(db);
  await sql`ALTER TABLE cars ADD COLUMN search_text text GENERATED ALWAYS AS (lower(car_make || ' ' || car_model || ' ' || car_type || ' ' || pickup_location)) STORED`.execute(db);
}
