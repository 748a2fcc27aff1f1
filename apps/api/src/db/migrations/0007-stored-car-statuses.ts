// A car's stored status is what its owner or an admin set: available, offline or maintenance.
// "Rented" is never stored: it follows the bookings (a started active booking) and is computed when
// a car is read. `active` and `rented` were allowed by the first schema but nothing wrote them.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`UPDATE cars SET status = 'available' WHERE status IN ('active', 'rented')`.execute(db);
  await sql`ALTER TABLE cars DROP CONSTRAINT IF EXISTS cars_status_check`.execute(db);
  await sql`ALTER TABLE cars ADD CONSTRAINT cars_status_check CHECK (status IN ('available', 'offline', 'maintenance'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE cars DROP CONSTRAINT IF EXISTS cars_status_check`.execute(db);
  await sql`ALTER TABLE cars ADD CONSTRAINT cars_status_check CHECK (status IN ('available', 'offline', 'active', 'rented', 'maintenance'))`.execute(db);
}
