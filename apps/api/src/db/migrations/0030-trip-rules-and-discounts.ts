// Trip rules and long-trip discounts per car (issue 23, docs/decisions/048-trip-rules-and-discounts.md).
// Every existing car gets the rules of today (any length from 1 day or 1 hour up to the platform's
// maxRentalDays or 24 hours, no notice beyond "not a past day", no booking window, no discount),
// so nothing that was bookable before stops being bookable. A booking keeps the discount it was
// priced with, like every other part of its price: `discount_cents` (taken off the rental; the
// stored subtotal is the rental after it) and `discount_rate` (per cent). Existing bookings had none.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE cars
      ADD COLUMN min_trip_days integer NOT NULL DEFAULT 1 CHECK (min_trip_days BETWEEN 1 AND 90),
      ADD COLUMN max_trip_days integer CHECK (max_trip_days BETWEEN 1 AND 365),
      ADD COLUMN min_trip_hours integer NOT NULL DEFAULT 1 CHECK (min_trip_hours BETWEEN 1 AND 24),
      ADD COLUMN max_trip_hours integer NOT NULL DEFAULT 24 CHECK (max_trip_hours BETWEEN 1 AND 24),
      ADD COLUMN advance_notice_hours integer NOT NULL DEFAULT 0 CHECK (advance_notice_hours BETWEEN 0 AND 336),
      ADD COLUMN booking_window_months integer CHECK (booking_window_months BETWEEN 1 AND 24),
      ADD COLUMN weekly_discount_percent integer NOT NULL DEFAULT 0 CHECK (weekly_discount_percent BETWEEN 0 AND 50),
      ADD COLUMN monthly_discount_percent integer NOT NULL DEFAULT 0 CHECK (monthly_discount_percent BETWEEN 0 AND 50),
      ADD CONSTRAINT cars_trip_days_order CHECK (max_trip_days IS NULL OR max_trip_days >= min_trip_days),
      ADD CONSTRAINT cars_trip_hours_order CHECK (max_trip_hours >= min_trip_hours)
  `.execute(db);
  await sql`
    ALTER TABLE bookings
      ADD COLUMN discount_cents bigint NOT NULL DEFAULT 0 CHECK (discount_cents >= 0),
      ADD COLUMN discount_rate integer NOT NULL DEFAULT 0 CHECK (discount_rate BETWEEN 0 AND 50)
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE bookings DROP COLUMN discount_rate, DROP COLUMN discount_cents`.execute(db);
  await sql`
    ALTER TABLE cars
      DROP CONSTRAINT cars_trip_hours_order,
      DROP CONSTRAINT cars_trip_days_order,
      DROP COLUMN monthly_discount_percent,
      DROP COLUMN weekly_discount_percent,
      DROP COLUMN booking_window_months,
      DROP COLUMN advance_notice_hours,
      DROP COLUMN max_trip_hours,
      DROP COLUMN min_trip_hours,
      DROP COLUMN max_trip_days,
      DROP COLUMN min_trip_days
  `.execute(db);
}
