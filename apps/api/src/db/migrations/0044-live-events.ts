// What a person's open stream is told (issue 37; docs/decisions/083-live-messages-and-notices.md):
// one row per person and happening (a notice, a message in one of their conversations, their
// message read), written in the transaction of the change. The stream (GET /api/live) sends the
// rows after the last one a client saw, so a reconnect with Last-Event-ID misses nothing; the
// instances only tell each other whose rows are new (the cache bus), never the rows. Kept a day.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE live_events (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      user_id uuid NOT NULL REFERENCES users (id),
      kind text NOT NULL CHECK (kind IN ('notification', 'message', 'message_read')),
      booking_id uuid,
      created_at timestamptz NOT NULL
    )
  `.execute(db);
  await sql`CREATE INDEX live_events_user_idx ON live_events (user_id, id)`.execute(db);
  await sql`CREATE INDEX live_events_created_idx ON live_events (created_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE live_events`.execute(db);
}
