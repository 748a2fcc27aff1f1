// Reported messages reach an administrator (issue 21, decision 041): a report stays open until an
// administrator marks it handled with a note. That is the only change a report ever takes (who,
// when, the note; once), and the database refuses any other (message_reports_resolve_once).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE booking_message_reports
      ADD COLUMN resolved_by uuid REFERENCES users (id),
      ADD COLUMN resolved_at timestamptz,
      ADD COLUMN resolution_note text,
      ADD CONSTRAINT booking_message_reports_resolved_fully
        CHECK ((resolved_at IS NULL) = (resolved_by IS NULL) AND (resolved_at IS NULL) = (resolution_note IS NULL))
  `.execute(db);
  // The administrators' list: open reports, newest first.
  await sql`CREATE INDEX booking_message_reports_open_idx ON booking_message_reports (created_at DESC) WHERE resolved_at IS NULL`.execute(db);
  await sql`
    CREATE FUNCTION booking_message_reports_resolve_once() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF OLD.resolved_at IS NOT NULL OR NEW.resolved_at IS NULL OR NEW.id <> OLD.id OR NEW.message_id <> OLD.message_id
        OR NEW.reporter_id <> OLD.reporter_id OR NEW.reason <> OLD.reason OR NEW.created_at <> OLD.created_at THEN
        RAISE EXCEPTION 'a message report is only ever resolved once; its facts never change' USING ERRCODE = 'check_violation';
      END IF;
      RETURN NEW;
    END $$
  `.execute(db);
  await sql`
    CREATE TRIGGER booking_message_reports_resolve_once BEFORE UPDATE ON booking_message_reports
    FOR EACH ROW EXECUTE FUNCTION booking_message_reports_resolve_once()
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TRIGGER IF EXISTS booking_message_reports_resolve_once ON booking_message_reports`.execute(db);
  await sql`DROP FUNCTION IF EXISTS booking_message_reports_resolve_once()`.execute(db);
  await sql`DROP INDEX IF EXISTS booking_message_reports_open_idx`.execute(db);
  await sql`
    ALTER TABLE booking_message_reports
      DROP CONSTRAINT booking_message_reports_resolved_fully,
      DROP COLUMN resolution_note,
      DROP COLUMN resolved_at,
      DROP COLUMN resolved_by
  `.execute(db);
}
