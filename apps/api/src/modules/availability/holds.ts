// Which bookings hold a car, and when: defined once, here. A booking in one of the holding statuses
// (pending, confirmed, active: decisions.md section 5) holds its car on every day from its start
// date to its end date, both included; the exclusion constraint of migration 0002 says the same
// with daterange(start_date, end_date, '[]'). Whoever asks "is this car free", "is it out on a
// rental right now", "which days are taken", or "how many car-days were rented" builds the
// question from these pieces: the booking rules, the car records, the browse in SQL and in memory
// (decision 028), and utilisation in analytics. The host's calendar will change the rule, here.
//
// This module reads the bookings table, which the bookings module owns and alone writes.
import { HOLDING_STATUSES, type BookingStatus } from '@karoo/shared';
import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { Db } from '../../db/connection';

export { HOLDING_STATUSES };

const holdingList = sql.join(HOLDING_STATUSES.map((status) => sql.lit(status)));

/** A car, as the SQL that asks about it names its id (`c.id`, or a bound id). */
type CarId = Expression<string> | RawBuilder<string> | string;
const carIdSql = (carId: CarId) => (typeof carId === 'string' ? sql`${carId}::uuid` : carId);

/** The car is held on some day of [start, end] (dates, both included). */
export function heldBetween(carId: CarId, start: string, end: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`EXISTS (SELECT 1 FROM bookings b WHERE b.car_id = ${carIdSql(carId)} AND b.status IN (${holdingList})
    AND b.start_date <= ${end}::date AND b.end_date >= ${start}::date)`;
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

/** A car's holding bookings that meet [from, to] (to open when missing): its calendar, without personal data. */
export function findHoldingBookings(db: Db, carId: string, from: string, to?: string) {
  let query = db
    .selectFrom('bookings')
    .select(['id', 'start_date', 'end_date', 'status'])
    .where('car_id', '=', carId)
    .where('status', 'in', [...HOLDING_STATUSES])
    .where('end_date', '>=', from);
  if (to) query = query.where('start_date', '<=', to);
  return query.orderBy('start_date').execute();
}

export interface HoldingBooking {
  id: string;
  car_id: string;
  /** First held day, YYYY-MM-DD. */
  start: string;
  /** Last held day (included), YYYY-MM-DD. */
  end: string;
  status: BookingStatus;
}

/** Holding bookings: those of the cars `ids`, or (ids null) a batch of all of them in id order after `after`. */
export async function selectHoldingBookings(db: Db, ids: readonly string[] | null, after: string | null, limit: number): Promise<HoldingBooking[]> {
  const { rows } = await sql<HoldingBooking>`SELECT b.id, b.car_id, b.start_date::text AS start, b.end_date::text AS "end", b.status
    FROM bookings b WHERE b.status IN (${holdingList})
    ${ids ? sql`AND b.car_id = ANY(${ids}::uuid[])` : sql`${after ? sql`AND b.id > ${after}::uuid` : sql``} ORDER BY b.id LIMIT ${limit}`}`.execute(db);
  return rows;
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
