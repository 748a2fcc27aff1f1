// Trip records (issue 21; docs/decisions/042-trip-records.md): the car's condition at check-in and
// check-out, recorded by the host and by the renter, with photos in private storage, and the
// disputes a host opens over damage or a missing item.
// - Records and photos are append-only, enforced by the database: no UPDATE, no DELETE
//   (trip_rows_append_only), as ledger_entries are. One record per booking, stage and party.
// - A dispute's facts never change; the only change allowed is its one resolution (open ->
//   resolved, with who, when and the note), and it is never deleted (trip_disputes_resolve_once).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE trip_records (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      booking_id uuid NOT NULL REFERENCES bookings (id),
      stage text NOT NULL CHECK (stage IN ('check_in', 'check_out')),
      party text NOT NULL CHECK (party IN ('host', 'renter')),
      author_id uuid NOT NULL REFERENCES users (id),
      odometer_km integer NOT NULL CHECK (odometer_km >= 0),
      fuel_eighths smallint NOT NULL CHECK (fuel_eighths BETWEEN 0 AND 8),
      note text NOT NULL DEFAULT '',
      created_at timestamptz NOT NULL,
      CONSTRAINT trip_records_one_per_party UNIQUE (booking_id, stage, party)
    )
  `.execute(db);
  await sql`
    CREATE TABLE trip_disputes (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      booking_id uuid NOT NULL REFERENCES bookings (id),
      kind text NOT NULL CHECK (kind IN ('damage', 'missing_item')),
      description text NOT NULL,
      opened_by uuid NOT NULL REFERENCES users (id),
      status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'resolved')),
      created_at timestamptz NOT NULL,
      resolved_by uuid REFERENCES users (id),
      resolved_at timestamptz,
      resolution_note text,
      CONSTRAINT trip_disputes_resolved_fully CHECK ((status = 'resolved') = (resolved_at IS NOT NULL AND resolved_by IS NOT NULL AND resolution_note IS NOT NULL))
    )
  `.execute(db);
  await sql`CREATE INDEX trip_disputes_booking_idx ON trip_disputes (booking_id, created_at)`.execute(db);
  await sql`CREATE INDEX trip_disputes_open_idx ON trip_disputes (created_at) WHERE status = 'open'`.execute(db);
  await sql`
    CREATE TABLE trip_photos (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      booking_id uuid NOT NULL REFERENCES bookings (id),
      record_id uuid REFERENCES trip_records (id),
      dispute_id uuid REFERENCES trip_disputes (id),
      slot text NOT NULL CHECK (slot IN ('front', 'back', 'left', 'right', 'extra')),
      position smallint NOT NULL,
      storage_key text NOT NULL UNIQUE,
      mime_type text NOT NULL,
      created_at timestamptz NOT NULL,
      CONSTRAINT trip_photos_one_owner CHECK ((record_id IS NULL) <> (dispute_id IS NULL))
    )
  `.execute(db);
  await sql`CREATE INDEX trip_photos_record_idx ON trip_photos (record_id, position) WHERE record_id IS NOT NULL`.execute(db);
  await sql`CREATE INDEX trip_photos_dispute_idx ON trip_photos (dispute_id, position) WHERE dispute_id IS NOT NULL`.execute(db);

  await sql`
    CREATE FUNCTION trip_rows_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'trip records are never changed or deleted; add a new one' USING ERRCODE = 'check_violation';
    END $$
  `.execute(db);
  await sql`CREATE TRIGGER trip_records_append_only BEFORE UPDATE OR DELETE ON trip_records FOR EACH ROW EXECUTE FUNCTION trip_rows_append_only()`.execute(db);
  await sql`CREATE TRIGGER trip_photos_append_only BEFORE UPDATE OR DELETE ON trip_photos FOR EACH ROW EXECUTE FUNCTION trip_rows_append_only()`.execute(db);
  await sql`
    CREATE FUNCTION trip_disputes_resolve_once() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'DELETE' THEN
        RAISE EXCEPTION 'disputes are never deleted' USING ERRCODE = 'check_violation';
      END IF;
      IF OLD.status <> 'open' OR NEW.status <> 'resolved' OR NEW.id <> OLD.id OR NEW.booking_id <> OLD.booking_id
        OR NEW.kind <> OLD.kind OR NEW.description <> OLD.description OR NEW.opened_by <> OLD.opened_by
        OR NEW.created_at <> OLD.created_at THEN
        RAISE EXCEPTION 'a dispute is only ever resolved once; its facts never change' USING ERRCODE = 'check_violation';
      END IF;
      RETURN NEW;
    END $$
  `.execute(db);
  await sql`CREATE TRIGGER trip_disputes_resolve_once BEFORE UPDATE OR DELETE ON trip_disputes FOR EACH ROW EXECUTE FUNCTION trip_disputes_resolve_once()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS trip_photos`.execute(db);
  await sql`DROP TABLE IF EXISTS trip_disputes`.execute(db);
  await sql`DROP TABLE IF EXISTS trip_records`.execute(db);
  await sql`DROP FUNCTION IF EXISTS trip_rows_append_only()`.execute(db);
  await sql`DROP FUNCTION IF EXISTS trip_disputes_resolve_once()`.execute(db);
}
