// The booking a notification or an email is about (issue 32; docs/decisions/082-erasure-reaches-notices-by-booking.md).
// An erasure sweeps the notices and mail of the people a member dealt with. Until now it found them
// by recipient, so it read every notice of every counterparty (a host with thousands of trips made a
// renter's deletion read thousands of rows and could meet the statement timeout). A notice that names
// another person is about one of their bookings, and from now on it says which: the sweep reads the
// rows of the person's own bookings. Rows written before this migration (or by an instance still
// on the code before) do not say: `reach_recorded` is false on them, and they are still found by
// recipient.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['notifications', 'mail_outbox']) {
    await sql`ALTER TABLE ${sql.table(table)} ADD COLUMN booking_id uuid`.execute(db);
    // False unless the writer says otherwise: every existing row, and any row an instance still on
    // the code before writes during a rolling deploy. notify() writes true with the booking.
    await sql`ALTER TABLE ${sql.table(table)} ADD COLUMN reach_recorded boolean NOT NULL DEFAULT false`.execute(db);
  }
  await sql`CREATE INDEX notifications_booking_idx ON notifications (booking_id) WHERE booking_id IS NOT NULL`.execute(db);
  await sql`CREATE INDEX notifications_unrecorded_idx ON notifications (user_id) WHERE NOT reach_recorded`.execute(db);
  await sql`CREATE INDEX mail_outbox_booking_idx ON mail_outbox (booking_id) WHERE booking_id IS NOT NULL`.execute(db);
  await sql`CREATE INDEX mail_outbox_unrecorded_user_idx ON mail_outbox (user_id) WHERE NOT reach_recorded`.execute(db);
  await sql`CREATE INDEX mail_outbox_unrecorded_to_idx ON mail_outbox (lower(to_address)) WHERE NOT reach_recorded`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // Dropping the columns drops their indexes.
  for (const table of ['notifications', 'mail_outbox']) {
    await sql`ALTER TABLE ${sql.table(table)} DROP COLUMN reach_recorded, DROP COLUMN booking_id`.execute(db);
  }
}
