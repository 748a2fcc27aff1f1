// Browse from memory (issue 11; docs/decisions/028-browse-index.md): every instance keeps the listed
// cars' browse columns and holding bookings in memory and answers the public browse from there. It
// learns what changed from this table: a trigger on cars and one on bookings note the car of every
// row written, with the writing transaction's id. An instance reads the notes of every transaction
// at or after its horizon (the oldest transaction still running when it last looked), so a
// transaction that commits late, after a younger one was read, is never missed. The prune job
// drops notes older than a day.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE browse_changes (
    id bigserial PRIMARY KEY,
    xid xid8 NOT NULL DEFAULT pg_current_xact_id(),
    car_id uuid NOT NULL,
    changed_at timestamptz NOT NULL DEFAULT now()
  )`.execute(db);
  await sql`CREATE INDEX browse_changes_xid_idx ON browse_changes (xid)`.execute(db);
  await sql`CREATE INDEX browse_changes_changed_at_idx ON browse_changes (changed_at)`.execute(db);
  await sql`CREATE FUNCTION note_browse_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_TABLE_NAME = 'cars' THEN
        IF TG_OP <> 'INSERT' THEN INSERT INTO browse_changes (car_id) VALUES (OLD.id); END IF;
        IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR NEW.id <> OLD.id) THEN INSERT INTO browse_changes (car_id) VALUES (NEW.id); END IF;
      ELSE
        IF TG_OP <> 'INSERT' THEN INSERT INTO browse_changes (car_id) VALUES (OLD.car_id); END IF;
        IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR NEW.car_id <> OLD.car_id) THEN INSERT INTO browse_changes (car_id) VALUES (NEW.car_id); END IF;
      END IF;
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER cars_browse_change AFTER INSERT OR UPDATE OR DELETE ON cars FOR EACH ROW EXECUTE FUNCTION note_browse_change()`.execute(db);
  // A TRUNCATE says nothing of its rows: the nil id tells every instance to load everything again.
  await sql`CREATE FUNCTION note_browse_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO browse_changes (car_id) VALUES ('00000000-0000-0000-0000-000000000000');
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER cars_browse_truncate AFTER TRUNCATE ON cars FOR EACH STATEMENT EXECUTE FUNCTION note_browse_truncate()`.execute(db);
  await sql`CREATE TRIGGER bookings_browse_truncate AFTER TRUNCATE ON bookings FOR EACH STATEMENT EXECUTE FUNCTION note_browse_truncate()`.execute(db);
  // A booking matters to browse by its car, its days and whether it holds them.
  await sql`CREATE TRIGGER bookings_browse_change AFTER INSERT OR DELETE OR UPDATE OF car_id, status, start_date, end_date ON bookings
    FOR EACH ROW EXECUTE FUNCTION note_browse_change()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TRIGGER IF EXISTS bookings_browse_truncate ON bookings`.execute(db);
  await sql`DROP TRIGGER IF EXISTS cars_browse_truncate ON cars`.execute(db);
  await sql`DROP FUNCTION IF EXISTS note_browse_truncate()`.execute(db);
  await sql`DROP TRIGGER IF EXISTS bookings_browse_change ON bookings`.execute(db);
  await sql`DROP TRIGGER IF EXISTS cars_browse_change ON cars`.execute(db);
  await sql`DROP FUNCTION IF EXISTS note_browse_change()`.execute(db);
  await sql`DROP TABLE IF EXISTS browse_changes`.execute(db);
}
