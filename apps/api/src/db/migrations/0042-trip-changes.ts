// Trip changes (issue 36; docs/decisions/081-trip-changes.md): a renter's request for new dates or
// times of a paid trip, the host's answer, and what it came to. The booking itself carries the
// trip's times and price; this table is the record of each request (the times before and asked for,
// the figures quoted, who answered when, and the charge that paid a longer trip). One request waits
// at a time per booking.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE trip_changes (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      booking_id uuid NOT NULL REFERENCES bookings (id),
      renter_id uuid NOT NULL REFERENCES users (id),
      host_id uuid NOT NULL REFERENCES users (id),
      status text NOT NULL CHECK (status IN ('pending', 'accepted', 'declined', 'lapsed', 'withdrawn', 'failed')),
      from_start_date date NOT NULL,
      from_end_date date NOT NULL,
      from_start_time text NOT NULL,
      from_end_time text NOT NULL,
      to_start_date date NOT NULL,
      to_end_date date NOT NULL,
      to_start_time text NOT NULL,
      to_end_time text NOT NULL,
      new_total_cents integer NOT NULL CHECK (new_total_cents >= 0),
      kept_cents integer NOT NULL CHECK (kept_cents >= 0),
      net_cents integer NOT NULL,
      host_difference_cents integer NOT NULL,
      summary text NOT NULL,
      message text,
      note text,
      failure text,
      answer_by timestamptz NOT NULL,
      answered_at timestamptz,
      answered_by uuid REFERENCES users (id),
      charge_reference text,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      CHECK (to_end_date >= to_start_date)
    )
  `.execute(db);
  await sql`CREATE UNIQUE INDEX trip_changes_one_pending ON trip_changes (booking_id) WHERE status = 'pending'`.execute(db);
  await sql`CREATE INDEX trip_changes_booking_idx ON trip_changes (booking_id, created_at DESC)`.execute(db);
  await sql`CREATE INDEX trip_changes_lapse_idx ON trip_changes (answer_by) WHERE status = 'pending'`.execute(db);
  await sql`CREATE INDEX trip_changes_renter_idx ON trip_changes (renter_id)`.execute(db);
  await sql`CREATE INDEX trip_changes_host_idx ON trip_changes (host_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE trip_changes`.execute(db);
}
