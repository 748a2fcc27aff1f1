// Admins find a car by its plate however it is typed (issue 18): the search compares the plate key
// (uppercase, no spaces or hyphens; the unique index's expression of migration 0005) with LIKE
// '%KR42%', so a trigram index on that key keeps it an index scan at 100,000 cars.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX cars_plate_key_trgm_idx ON cars USING gin ((upper(regexp_replace(car_plate_number, '[[:space:]-]', '', 'g'))) gin_trgm_ops)
    WHERE deleted_at IS NULL`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS cars_plate_key_trgm_idx`.execute(db);
}
