// A booking that can expire carries the moment it will (expires_at), set by the bookings module
// from the one rule in packages/shared (bookingExpiresAt) when it enters a state that can expire,
// and cleared when it leaves it. The expiry job and every screen read it: no interval or time-zone
// offset is written in SQL any more. Existing bookings get theirs from the same rule, here.
import { bookingExpiresAt } from '@karoo/shared';
import { sql, type Kysely } from 'kysely';

interface ExpirableRow {
  id: string;
  status: string;
  payment_status: string;
  start_date: string;
  created_at: Date;
  confirmed_at: Date | null;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE bookings ADD COLUMN expires_at timestamptz`.execute(db);
  const { rows } = await sql<ExpirableRow>`
    SELECT id, status, payment_status, start_date::text AS start_date, created_at, confirmed_at
    FROM bookings WHERE status IN ('pending', 'confirmed') AND payment_status = 'unpaid'
  `.execute(db);
  for (const row of rows) {
    const expiresAt = bookingExpiresAt(row);
    if (expiresAt) await sql`UPDATE bookings SET expires_at = ${expiresAt} WHERE id = ${row.id}`.execute(db);
  }
  await sql`CREATE INDEX bookings_expires_at_idx ON bookings (expires_at) WHERE expires_at IS NOT NULL`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS bookings_expires_at_idx`.execute(db);
  await sql`ALTER TABLE bookings DROP COLUMN IF EXISTS expires_at`.execute(db);
}
