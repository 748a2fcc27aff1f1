// Instant booking by the host's choice, per car (issue 36, docs/decisions/078-instant-booking-by-car.md).
// - cars.instant_booking and its requirements: at least N completed trips, a rating of at least R
//   (tenths: 45 is 4.5), a licence held at least Y years. A renter is always verified to book at all.
// - users.driver_licence_issued_on: the licence's first issue date, from the profile (the years held).
// - The platform's `instant_booking_enabled` becomes the kill switch over the cars' choices. Where
//   it was on (every request confirmed at once), every car is given instant booking with no further
//   requirement, so nothing changes for anyone on the day of the migration.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE cars
      ADD COLUMN instant_booking boolean NOT NULL DEFAULT false,
      ADD COLUMN instant_min_trips integer NOT NULL DEFAULT 0 CHECK (instant_min_trips BETWEEN 0 AND 50),
      ADD COLUMN instant_min_rating_tenths integer CHECK (instant_min_rating_tenths BETWEEN 10 AND 50),
      ADD COLUMN instant_min_licence_years integer CHECK (instant_min_licence_years BETWEEN 1 AND 20)
  `.execute(db);
  await sql`ALTER TABLE users ADD COLUMN driver_licence_issued_on date`.execute(db);
  await carryPlatformSwitch(db);
}

/** Where every request was confirmed at once, every car keeps being booked instantly (no further requirement). */
export async function carryPlatformSwitch(db: Kysely<unknown>): Promise<void> {
  await sql`
    UPDATE cars SET instant_booking = true
    WHERE deleted_at IS NULL
      AND EXISTS (SELECT 1 FROM settings s WHERE coalesce((s.data -> 'business_rules' ->> 'instant_booking_enabled')::boolean, false))
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE users DROP COLUMN driver_licence_issued_on`.execute(db);
  await sql`
    ALTER TABLE cars
      DROP COLUMN instant_min_licence_years,
      DROP COLUMN instant_min_rating_tenths,
      DROP COLUMN instant_min_trips,
      DROP COLUMN instant_booking
  `.execute(db);
}
