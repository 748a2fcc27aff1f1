// When a booking's reminders went out (issue 37; docs/decisions/084-booking-reminders.md): the host
// of a request unanswered for two hours, and the renter of a paid trip the evening before its
// pickup. Each is sent once: the reminder job claims a booking by setting its column in the UPDATE
// that finds it, so two instances never send the same reminder.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE bookings ADD COLUMN host_reminded_at timestamptz, ADD COLUMN pickup_reminded_at timestamptz`.execute(db);
  await sql`CREATE INDEX bookings_unanswered_idx ON bookings (created_at) WHERE status = 'pending' AND host_reminded_at IS NULL`.execute(db);
  await sql`CREATE INDEX bookings_pickup_reminder_idx ON bookings (start_date) WHERE status = 'active' AND pickup_reminded_at IS NULL`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE bookings DROP COLUMN pickup_reminded_at, DROP COLUMN host_reminded_at`.execute(db);
}
