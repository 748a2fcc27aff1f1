// Which bookings hold a car, and when: defined once, here. A booking in one of the holding statuses
// (pending, confirmed, active: decisions.md section 5) holds its car for a time range (issue 23,
// decision 047): a daily trip from its pickup to its return, an hourly trip only its hours, either
// one then for the car's buffer. The database computes that range (bookings.held, migration 0028)
// and keeps every holding booking's range, with the host's blocked periods, in car_holds, whose
// exclusion constraint refuses any two holds of a car that share a minute. Whoever asks "is this
// car free", "is it out on a rental right now", "what is taken when", or "how many car-days were
// rented" builds the question from these pieces: the booking rules, the car records, the browse in
// SQL and in memory (decision 028), the host's calendar, and utilisation in analytics.
//
// This module reads bookings (the bookings module owns and writes them) and car_holds (bookings
// through the trigger; blocks through the cars module's calendar).
import { HOLDING_STATUSES, type BookingStatus } from '@karoo/shared';
import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { Db } from '../../db/connection';

export { HOLDING_STATUSES };

/** A car, as the SQL that asks about it names its id (`c.id`, or a bound id). */
type CarId = Expression<string> | RawBuilder<string> | string;
const carIdSql = (carId: CarId) => (typeof carId === 'string' ? sql`${carId}::uuid` : carId);

/** An instant (ms) as SQL. */
const instant = (ms: number) => sql`${new Date(ms).toISOString()}::timestamptz`;

/**
 * The car is held at some instant of what a trip [from, to) would hold with `bufferMinutes` after
 * it (a number, or the SQL that names the car's buffer, e.g. c.buffer_minutes): by a holding
 * booking, its buffer included, or by a blocked period.
 */
export function heldBetween(carId: CarId, from: number, to: number, bufferMinutes: number | RawBuilder<number> = 0): RawBuilder<SqlBool> {
  const upper = typeof bufferMinutes === 'number' ? instant(to + bufferMinutes * 60_000) : sql`${instant(to)} + make_interval(mins => ${bufferMinutes})`;
  return sql<SqlBool>`EXISTS (SELECT 1 FROM car_holds h WHERE h.car_id = ${carIdSql(carId)} AND h.during && tstzrange(${instant(from)}, ${upper}, '[)'))`;
}

/** The car is out on a rental right now: an active (paid) booking whose first day has come. */
export function rentedNow(carId: CarId, today: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`EXISTS (SELECT 1 FROM bookings b WHERE b.car_id = ${carIdSql(carId)} AND b.status = 'active' AND b.start_date <= ${today}::date)`;
}

/** The username of whoever has the car right now (see rentedNow), or null. */
export function currentRenterUsername(carId: CarId, today: string): RawBuilder<string | null> {
  return sql<string | null>`(
    SELECT r.username FROM bookings b INNER JOIN users r ON r.id = b.renter_id
    WHERE b.car_id = ${carIdSql(carId)} AND b.status = 'active' AND b.start_date <= ${today}::date
    ORDER BY b.start_date DESC LIMIT 1
  )`;
}

/** Whether a rental is under way (an active booking) in a car, or by a renter. */
export async function hasActiveRental(db: Db, of: { carId: string } | { renterId: string }): Promise<boolean> {
  const row = await db
    .selectFrom('bookings')
    .select('id')
    .where('carId' in of ? 'car_id' : 'renter_id', '=', 'carId' in of ? of.carId : of.renterId)
    .where('status', '=', 'active')
    .executeTakeFirst();
  return !!row;
}

export interface CarHold {
  id: string;
  /** 'booking' (a holding booking, its buffer included) or 'block' (the host's). */
  kind: 'booking' | 'block';
  booking_id: string | null;
  /** The booking's status; 'blocked' for a block. */
  status: BookingStatus | 'blocked';
  /** The booking's dates and times as booked (null for a block). */
  start_date: string | null;
  end_date: string | null;
  start_time: string | null;
  end_time: string | null;
  is_hourly_booking: boolean | null;
  buffer_minutes: number | null;
  /** What it holds: [from, to). */
  from: Date;
  to: Date;
  /** The host's private note (blocks only). */
  note: string | null;
  /** The booking's number and its renter's name (for the host's calendar; never sent to the public). */
  booking_number: string | null;
  renter_name: string | null;
  created_at: Date;
}

/** A car's holds (holding bookings and blocks) that meet [from, to) (to open when missing), in time order. */
export async function findCarHolds(db: Db, carId: string, from: number, to?: number): Promise<CarHold[]> {
  const { rows } = await sql<CarHold>`SELECT h.id, CASE WHEN h.booking_id IS NULL THEN 'block' ELSE 'booking' END AS kind, h.booking_id,
      coalesce(b.status, 'blocked') AS status, b.start_date::text AS start_date, b.end_date::text AS end_date, b.start_time, b.end_time,
      b.is_hourly_booking, b.buffer_minutes, lower(h.during) AS "from", upper(h.during) AS "to", h.note, h.created_at,
      b.booking_number, r.full_name AS renter_name
    FROM car_holds h LEFT JOIN bookings b ON b.id = h.booking_id LEFT JOIN users r ON r.id = b.renter_id
    WHERE h.car_id = ${carId}::uuid AND h.during && tstzrange(${instant(from)}, ${to === undefined ? sql`NULL::timestamptz` : instant(to)}, '[)')
    ORDER BY lower(h.during), h.id`.execute(db);
  return rows.map((r) => ({ ...r, from: new Date(r.from), to: new Date(r.to) }));
}

export interface HoldingBooking {
  id: string;
  car_id: string;
  /** A booking's first day, YYYY-MM-DD (null for a block). */
  start: string | null;
  /** What it holds, in minutes since 1970: [from_min, to_min). */
  from_min: number;
  to_min: number;
  status: BookingStatus | 'blocked';
}

/** Holds (bookings and blocks): those of the cars `ids`, or (ids null) a batch of all of them in id order after `after`. */
export async function selectHoldingBookings(db: Db, ids: readonly string[] | null, after: string | null, limit: number): Promise<HoldingBooking[]> {
  const { rows } = await sql<HoldingBooking>`SELECT h.id, h.car_id, b.start_date::text AS start,
      floor(extract(epoch FROM lower(h.during)) / 60)::int AS from_min, ceil(extract(epoch FROM upper(h.during)) / 60)::int AS to_min,
      coalesce(b.status, 'blocked') AS status
    FROM car_holds h LEFT JOIN bookings b ON b.id = h.booking_id
    WHERE true ${ids ? sql`AND h.car_id = ANY(${ids}::uuid[])` : sql`${after ? sql`AND h.id > ${after}::uuid` : sql``} ORDER BY h.id LIMIT ${limit}`}`.execute(db);
  return rows.map((r) => ({ ...r, from_min: Number(r.from_min), to_min: Number(r.to_min) }));
}

/**
 * Car-days rented in [from, to] (dates, both included) by bookings in `statuses`: each booking
 * counts the days it holds its car (start to end, both included) that fall in the period.
 */
export async function countRentedDays(db: Db, statuses: readonly BookingStatus[], from: string, to: string): Promise<number> {
  const row = await db
    .selectFrom('bookings as b')
    .where('b.status', 'in', [...statuses])
    .where(sql<SqlBool>`b.start_date <= ${to}::date AND b.end_date >= ${from}::date`)
    .select(sql<string>`coalesce(sum(least(b.end_date, ${to}::date) - greatest(b.start_date, ${from}::date) + 1), 0)`.as('days'))
    .executeTakeFirstOrThrow();
  return Number(row.days);
}
