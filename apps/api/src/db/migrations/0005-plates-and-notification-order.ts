// A plate number is unique among the cars on Karoo (deleted cars keep theirs for the records), and
// notifications keep the order they were written in even when two share an instant.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Plates are compared as the registering authority would: case, spaces and hyphens do not count
  // ("CA 123-456" and "ca123456" are one plate). The expression is the same as the service's
  // plateKey() in cars.repository.ts.
  await sql`
    CREATE UNIQUE INDEX cars_plate_unique_idx ON cars ((upper(regexp_replace(car_plate_number, '[[:space:]-]', '', 'g'))))
      WHERE deleted_at IS NULL
  `.execute(db);
  await sql`ALTER TABLE notifications ADD COLUMN seq bigint GENERATED ALWAYS AS IDENTITY`.execute(db);
  await sql`CREATE INDEX notifications_user_order_idx ON notifications (user_id, created_at DESC, seq DESC)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS notifications_user_order_idx`.execute(db);
  await sql`ALTER TABLE notifications DROP COLUMN IF EXISTS seq`.execute(db);
  await sql`DROP INDEX IF EXISTS cars_plate_unique_idx`.execute(db);
}
