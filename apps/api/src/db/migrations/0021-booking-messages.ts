// Booking messages (issue 21, decision 041): one conversation per booking between its renter and its
// host. Messages are trip records (decisions.md section 12): added to, never changed or deleted, so
// a trigger refuses any UPDATE of a message. The body is stored as written; contact details are
// masked when it is shown until the booking is paid. Each participant's read marker and the moment
// they were last emailed live in booking_message_reads. Reports of a message are rows of their own.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE booking_messages (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
      booking_id uuid NOT NULL REFERENCES bookings (id) ON DELETE CASCADE,
      sender_id uuid NOT NULL REFERENCES users (id),
      body text NOT NULL CHECK (char_length(body) BETWEEN 1 AND 2000),
      created_at timestamptz NOT NULL DEFAULT now()
    )
  `.execute(db);
  await sql`CREATE INDEX booking_messages_booking_idx ON booking_messages (booking_id, seq)`.execute(db);
  // The rate limit counts a sender's recent messages.
  await sql`CREATE INDEX booking_messages_sender_idx ON booking_messages (sender_id, created_at)`.execute(db);
  await sql`
    CREATE FUNCTION booking_messages_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'booking messages are never changed';
    END
    $$
  `.execute(db);
  await sql`
    CREATE TRIGGER booking_messages_append_only BEFORE UPDATE ON booking_messages
    FOR EACH ROW EXECUTE FUNCTION booking_messages_append_only()
  `.execute(db);

  await sql`
    CREATE TABLE booking_message_reads (
      booking_id uuid NOT NULL REFERENCES bookings (id) ON DELETE CASCADE,
      user_id uuid NOT NULL REFERENCES users (id),
      read_seq bigint NOT NULL DEFAULT 0,
      emailed_at timestamptz,
      PRIMARY KEY (booking_id, user_id)
    )
  `.execute(db);

  await sql`
    CREATE TABLE booking_message_reports (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      message_id uuid NOT NULL REFERENCES booking_messages (id) ON DELETE CASCADE,
      reporter_id uuid NOT NULL REFERENCES users (id),
      reason text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (message_id, reporter_id)
    )
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS booking_message_reports`.execute(db);
  await sql`DROP TABLE IF EXISTS booking_message_reads`.execute(db);
  await sql`DROP TABLE IF EXISTS booking_messages`.execute(db);
  await sql`DROP FUNCTION IF EXISTS booking_messages_append_only()`.execute(db);
}
