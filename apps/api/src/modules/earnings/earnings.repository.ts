// SQL for earnings: what the money screens show beside their ledger sums (bookings, cars and
// people by id), invoices, payouts and their reversals, and the analytics that are not money.
// Money itself is summed by the ledger module (ledger.reports.ts), never from booking columns.
import { TIME_ZONE } from '@karoo/shared';
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../db/connection';
import type { Insertable } from 'kysely';
import type { InvoiceLine, InvoicesTable, PayoutStatusValue } from '../../db/schema';
import { countRentedDays } from '../availability';
import type { PayoutState } from '../bookings';

/** A booking as the money screens name it: its car, its people, its price as booked and its payout's state. */
export interface BookingDetails {
  id: string;
  booking_number: string;
  status: string;
  car_id: string;
  owner_id: string;
  car_username: string;
  car_make: string;
  car_model: string;
  car_year: number;
  car_color: string;
  car_plate_number: string;
  renter_username: string;
  host_username: string;
  host_name: string;
  start_date: string;
  end_date: string;
  subtotal_cents: number;
  pickup_fee_cents: number;
  total_price_cents: number;
  commission_rate: number;
  payout_status: PayoutStatusValue;
  payout_reference: string | null;
  payout_at: Date | null;
  paid_at: Date | null;
  completed_at: Date | null;
}

/** These bookings, by id (unknown ids are absent). */
export async function findBookingDetails(db: Db, ids: readonly string[]): Promise<Map<string, BookingDetails>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('bookings as b')
    .innerJoin('cars as c', 'c.id', 'b.car_id')
    .innerJoin('users as r', 'r.id', 'b.renter_id')
    .innerJoin('users as h', 'h.id', 'b.owner_id')
    .select([
      'b.id',
      'b.booking_number',
      'b.status',
      'b.car_id',
      'b.owner_id',
      'c.car_username',
      'c.car_make',
      'c.car_model',
      'c.car_year',
      'c.car_color',
      'c.car_plate_number',
      'r.username as renter_username',
      'h.username as host_username',
      'h.full_name as host_name',
      'b.start_date',
      'b.end_date',
      'b.subtotal_cents',
      'b.pickup_fee_cents',
      'b.total_price_cents',
      'b.commission_rate',
      'b.payout_status',
      'b.payout_reference',
      'b.payout_at',
      'b.paid_at',
      'b.completed_at',
    ])
    .where('b.id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((r) => [r.id, r]));
}

export interface CarDetails {
  id: string;
  car_username: string;
  car_make: string;
  car_model: string;
  car_year: number;
  car_color: string;
  car_plate_number: string;
}

export async function findCarDetails(db: Db, ids: readonly string[]): Promise<Map<string, CarDetails>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('cars as c')
    .select(['c.id', 'c.car_username', 'c.car_make', 'c.car_model', 'c.car_year', 'c.car_color', 'c.car_plate_number'])
    .where('c.id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((r) => [r.id, r]));
}

/** People as money screens name them (hosts, the administrators who reversed a payout). */
export async function findPeople(db: Db, ids: readonly string[]): Promise<Map<string, { id: string; username: string; full_name: string }>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('users').select(['id', 'username', 'full_name']).where('id', 'in', [...new Set(ids)]).execute();
  return new Map(rows.map((r) => [r.id, r]));
}

export interface InvoiceRecord {
  id: string;
  invoice_number: string;
  booking_id: string;
  booking_number: string;
  start_date: string;
  end_date: string;
  car_username: string;
  car_make: string;
  car_model: string;
  car_year: number;
  car_color: string;
  car_plate_number: string;
  renter_username: string;
  renter_name: string;
  host_username: string;
  host_name: string;
  owner_id: string;
  /** The booking's pickup fee as booked and its host fee rate (the amounts come from the ledger). */
  pickup_fee_cents: number;
  commission_rate: number;
  line_items: InvoiceLine[];
  issued_at: Date;
}

function selectInvoices(db: Db) {
  return db
    .selectFrom('invoices as i')
    .innerJoin('bookings as b', 'b.id', 'i.booking_id')
    .innerJoin('cars as c', 'c.id', 'i.car_id')
    .innerJoin('users as r', 'r.id', 'b.renter_id')
    .innerJoin('users as h', 'h.id', 'i.owner_id')
    .select([
      'i.id',
      'i.invoice_number',
      'i.booking_id',
      'b.booking_number',
      'b.start_date',
      'b.end_date',
      'c.car_username',
      'c.car_make',
      'c.car_model',
      'c.car_year',
      'c.car_color',
      'c.car_plate_number',
      'r.username as renter_username',
      'r.full_name as renter_name',
      'h.username as host_username',
      'h.full_name as host_name',
      'i.owner_id',
      'b.pickup_fee_cents',
      'b.commission_rate',
      'i.line_items',
      'i.issued_at',
    ]);
}

export function findInvoiceByBooking(db: Db, bookingId: string): Promise<InvoiceRecord | undefined> {
  return selectInvoices(db).where('i.booking_id', '=', bookingId).executeTakeFirst();
}

export function listInvoices(db: Db, ownerId?: string): Promise<InvoiceRecord[]> {
  let query = selectInvoices(db);
  if (ownerId) query = query.where('i.owner_id', '=', ownerId);
  return query.orderBy('i.issued_at', 'desc').orderBy('i.id').limit(500).execute();
}

export async function nextInvoiceSequence(db: Db): Promise<number> {
  const result = await sql<{ n: string }>`SELECT nextval('invoice_number_seq') AS n`.execute(db);
  return Number(result.rows[0]!.n);
}

/** One invoice per booking: two requests at once keep one (unique booking_id); answers whether this one wrote it. */
export async function insertInvoiceOnce(db: Db, invoice: Insertable<InvoicesTable>): Promise<boolean> {
  const row = await db.insertInto('invoices').values(invoice).onConflict((oc) => oc.column('booking_id').doNothing()).returning('id').executeTakeFirst();
  return !!row;
}

export type { PayoutState } from '../bookings';

/**
 * A paid payout taken back, as its own row: what had been paid, its reference and time, why, who,
 * when (the bookings module sets the booking's payout pending again; the ledger records the money).
 */
export async function insertPayoutReversal(
  db: Db,
  paid: PayoutState,
  reversal: { amountCents: number; reason: string; by: { id: string; username: string } },
  now: Date,
): Promise<void> {
  await db
    .insertInto('payout_reversals')
    .values({
      booking_id: paid.id,
      amount_cents: reversal.amountCents,
      payout_reference: paid.payout_reference,
      paid_at: paid.payout_at,
      reason: reversal.reason,
      reversed_by: reversal.by.id,
      reversed_by_username: reversal.by.username.toLowerCase(),
      reversed_at: now,
    })
    .execute();
}

// ---- Admin Analytics: aggregates over a period of Johannesburg days, never every row ----

/** A period of Johannesburg days: [start, end) as instants and [from, to] as dates. */
export interface AnalyticsRange {
  from: string;
  to: string;
  start: Date;
  end: Date;
}

/** The Monday (YYYY-MM-DD) of the week an instant falls in, in Karoo's time zone (TIME_ZONE, the shared zoned-date module's). */
const weekOf = (column: RawBuilder<Date> | RawBuilder<unknown>) =>
  sql<string>`to_char(date_trunc('week', ${column} AT TIME ZONE ${sql.lit(TIME_ZONE)}), 'YYYY-MM-DD')`;

/** Bookings created per week of the period. */
export async function analyticsWeeklyBookings(db: Db, range: AnalyticsRange): Promise<{ week_start: string; count: number }[]> {
  const week = weekOf(sql.ref('b.created_at'));
  const rows = await db
    .selectFrom('bookings as b')
    .where('b.created_at', '>=', range.start)
    .where('b.created_at', '<', range.end)
    .select([week.as('week_start'), sql<string>`count(*)`.as('count')])
    .groupBy(week)
    .execute();
  return rows.map((r) => ({ week_start: r.week_start, count: Number(r.count) }));
}

export interface AnalyticsBookingFigures {
  created: number;
  paid: number;
  cancelled: number;
  rejected: number;
}

/** Of the bookings created in the period: how many, paid, cancelled and rejected. */
export async function analyticsBookingFigures(db: Db, range: AnalyticsRange): Promise<AnalyticsBookingFigures> {
  const row = await db
    .selectFrom('bookings as b')
    .where('b.created_at', '>=', range.start)
    .where('b.created_at', '<', range.end)
    .select([
      sql<string>`count(*)`.as('created'),
      sql<string>`count(*) FILTER (WHERE b.payment_status = 'paid')`.as('paid'),
      sql<string>`count(*) FILTER (WHERE b.status = 'cancelled')`.as('cancelled'),
      sql<string>`count(*) FILTER (WHERE b.status = 'rejected')`.as('rejected'),
    ])
    .executeTakeFirstOrThrow();
  return { created: Number(row.created), paid: Number(row.paid), cancelled: Number(row.cancelled), rejected: Number(row.rejected) };
}

/** Average duration in days of the daily bookings completed in the period; null when none. */
export async function analyticsAverageTripDays(db: Db, range: AnalyticsRange): Promise<number | null> {
  const row = await db
    .selectFrom('bookings as b')
    .where('b.status', '=', 'completed')
    .where('b.is_hourly_booking', '=', false)
    .where('b.completed_at', '>=', range.start)
    .where('b.completed_at', '<', range.end)
    .select(sql<string | null>`avg(b.duration_days)`.as('average'))
    .executeTakeFirstOrThrow();
  return row.average == null ? null : Number(row.average);
}

/** Average rating of the cars' revealed reviews written in the period (decision 043); null when none. */
export async function analyticsAverageRating(db: Db, range: AnalyticsRange): Promise<number | null> {
  const row = await db
    .selectFrom('reviews as r')
    .where('r.direction', '=', 'car')
    .where('r.hidden_until', 'is', null)
    .where('r.created_at', '>=', range.start)
    .where('r.created_at', '<', range.end)
    .select(sql<string | null>`avg(r.rating)`.as('average'))
    .executeTakeFirstOrThrow();
  return row.average == null ? null : Number(row.average);
}

/** The cities (pickup location) with the most bookings created in the period. */
export async function analyticsBusiestCities(db: Db, range: AnalyticsRange, limit: number): Promise<{ city: string; bookings: number }[]> {
  const rows = await db
    .selectFrom('bookings as b')
    .innerJoin('cars as c', 'c.id', 'b.car_id')
    .where('b.created_at', '>=', range.start)
    .where('b.created_at', '<', range.end)
    .select(['c.pickup_location as city', sql<string>`count(*)`.as('bookings')])
    .groupBy('c.pickup_location')
    .orderBy(sql`count(*)`, 'desc')
    .orderBy('c.pickup_location')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ city: r.city, bookings: Number(r.bookings) }));
}

/**
 * Rented car-days in the period (active or completed bookings, each counting the days it holds its
 * car: the availability module's one definition) and the listed cars (verified, not deleted).
 */
export async function analyticsUtilisation(db: Db, range: AnalyticsRange): Promise<{ booked_days: number; cars: number }> {
  const bookedDays = await countRentedDays(db, ['active', 'completed'], range.from, range.to);
  const cars = await db
    .selectFrom('cars as c')
    .where('c.verification_status', '=', 'verified')
    .where('c.deleted_at', 'is', null)
    .select(sql<string>`count(*)`.as('cars'))
    .executeTakeFirstOrThrow();
  return { booked_days: bookedDays, cars: Number(cars.cars) };
}
