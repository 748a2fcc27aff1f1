// Time, not days (issue 23, docs/decisions/047-time-ranges-and-blocked-periods.md). A booking holds
// its car for a time range: a daily trip from its pickup to its return, an hourly trip only its
// hours, and either one then for the car's buffer (cars.buffer_minutes, copied onto the booking
// when it is made). The range is computed here, in the database, from the booking's own dates and
// times (Johannesburg, UTC+2 all year, written as a fixed offset so no session time zone moves it).
//
// Blocked periods (a host keeping the car) and holding bookings live in one table, car_holds, with
// one exclusion constraint: no two holds of a car share a minute. A trigger on bookings keeps a
// holding booking's row there (inserted with the booking, in the same statement, so the booking
// insert itself fails with 23P01 when it meets a block or another booking; removed when the
// booking stops holding). That constraint replaces bookings_no_overlap and stays the one
// guarantee across instances.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE EXTENSION IF NOT EXISTS btree_gist`.execute(db);
  await sql`ALTER TABLE cars ADD COLUMN buffer_minutes integer NOT NULL DEFAULT 0 CHECK (buffer_minutes BETWEEN 0 AND 1440)`.execute(db);
  await sql`ALTER TABLE bookings
    ADD COLUMN buffer_minutes integer NOT NULL DEFAULT 0 CHECK (buffer_minutes BETWEEN 0 AND 1440),
    ADD COLUMN held tstzrange`.execute(db);

  // The one definition of a booking's range. A daily trip whose return is not after its pickup
  // (one day, same date, e.g. 17:00 to 09:00) holds from the pickup to the end of that day.
  await sql`CREATE FUNCTION booking_held_range(start_date date, start_time text, end_date date, end_time text, buffer_minutes integer)
    RETURNS tstzrange LANGUAGE sql IMMUTABLE AS $$
      SELECT tstzrange(
        ((start_date + start_time::time) - interval '2 hours') AT TIME ZONE 'UTC',
        (CASE WHEN end_date + end_time::time > start_date + start_time::time
              THEN end_date + end_time::time
              ELSE (start_date + 1)::timestamp END
          - interval '2 hours' + make_interval(mins => buffer_minutes)) AT TIME ZONE 'UTC',
        '[)')
    $$`.execute(db);
  await sql`UPDATE bookings SET held = booking_held_range(start_date, start_time, end_date, end_time, buffer_minutes)`.execute(db);
  await sql`ALTER TABLE bookings ALTER COLUMN held SET NOT NULL`.execute(db);

  // A booking's range follows its dates and times whoever writes them; its buffer is the car's when made.
  await sql`CREATE FUNCTION bookings_set_held() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        SELECT c.buffer_minutes INTO NEW.buffer_minutes FROM cars c WHERE c.id = NEW.car_id;
        NEW.buffer_minutes := coalesce(NEW.buffer_minutes, 0);
      END IF;
      NEW.held := booking_held_range(NEW.start_date, NEW.start_time, NEW.end_date, NEW.end_time, NEW.buffer_minutes);
      RETURN NEW;
    END $$`.execute(db);
  await sql`CREATE TRIGGER bookings_set_held BEFORE INSERT OR UPDATE OF start_date, start_time, end_date, end_time, buffer_minutes, held ON bookings
    FOR EACH ROW EXECUTE FUNCTION bookings_set_held()`.execute(db);

  await sql`CREATE TABLE car_holds (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    car_id uuid NOT NULL REFERENCES cars (id),
    during tstzrange NOT NULL CHECK (NOT isempty(during) AND lower_inc(during) AND NOT upper_inc(during) AND NOT lower_inf(during) AND NOT upper_inf(during)),
    booking_id uuid UNIQUE REFERENCES bookings (id) ON DELETE CASCADE,
    note text CHECK (char_length(note) <= 500),
    created_by uuid REFERENCES users (id),
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT car_holds_booking_or_block CHECK ((booking_id IS NULL) = (created_by IS NOT NULL) AND (booking_id IS NULL OR note IS NULL)),
    CONSTRAINT car_holds_no_overlap EXCLUDE USING gist (car_id WITH =, during WITH &&)
  )`.execute(db);
  await sql`CREATE INDEX car_holds_booking_idx ON car_holds (booking_id) WHERE booking_id IS NOT NULL`.execute(db);

  await sql`CREATE FUNCTION bookings_sync_hold() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE holds boolean := NEW.status IN ('pending', 'confirmed', 'active');
    BEGIN
      IF TG_OP = 'INSERT' THEN
        IF holds THEN INSERT INTO car_holds (car_id, during, booking_id) VALUES (NEW.car_id, NEW.held, NEW.id); END IF;
      ELSIF NOT holds THEN
        DELETE FROM car_holds WHERE booking_id = NEW.id;
      ELSIF OLD.status NOT IN ('pending', 'confirmed', 'active') THEN
        INSERT INTO car_holds (car_id, during, booking_id) VALUES (NEW.car_id, NEW.held, NEW.id);
      ELSIF NEW.held <> OLD.held OR NEW.car_id <> OLD.car_id THEN
        UPDATE car_holds SET during = NEW.held, car_id = NEW.car_id WHERE booking_id = NEW.id;
      END IF;
      RETURN NULL;
    END $$`.execute(db);
  await sql`INSERT INTO car_holds (car_id, during, booking_id)
    SELECT car_id, held, id FROM bookings WHERE status IN ('pending', 'confirmed', 'active')`.execute(db);
  await sql`CREATE TRIGGER bookings_sync_hold AFTER INSERT OR UPDATE ON bookings FOR EACH ROW EXECUTE FUNCTION bookings_sync_hold()`.execute(db);
  await sql`ALTER TABLE bookings DROP CONSTRAINT bookings_no_overlap`.execute(db);

  // The in-memory browse (decision 028) learns of blocks as of bookings: by their car.
  await sql`CREATE TRIGGER car_holds_browse_change AFTER INSERT OR DELETE OR UPDATE ON car_holds
    FOR EACH ROW EXECUTE FUNCTION note_browse_change()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TRIGGER IF EXISTS car_holds_browse_change ON car_holds`.execute(db);
  await sql`DROP TRIGGER IF EXISTS bookings_sync_hold ON bookings`.execute(db);
  await sql`DROP FUNCTION IF EXISTS bookings_sync_hold()`.execute(db);
  await sql`DROP TABLE IF EXISTS car_holds`.execute(db);
  await sql`DROP TRIGGER IF EXISTS bookings_set_held ON bookings`.execute(db);
  await sql`DROP FUNCTION IF EXISTS bookings_set_held()`.execute(db);
  await sql`ALTER TABLE bookings DROP COLUMN IF EXISTS held, DROP COLUMN IF EXISTS buffer_minutes`.execute(db);
  await sql`DROP FUNCTION IF EXISTS booking_held_range(date, text, date, text, integer)`.execute(db);
  await sql`ALTER TABLE cars DROP COLUMN IF EXISTS buffer_minutes`.execute(db);
  await sql`ALTER TABLE bookings ADD CONSTRAINT bookings_no_overlap EXCLUDE USING gist (
    car_id WITH =, daterange(start_date, end_date, '[]') WITH &&
  ) WHERE (status IN ('pending', 'confirmed', 'active'))`.execute(db);
}
