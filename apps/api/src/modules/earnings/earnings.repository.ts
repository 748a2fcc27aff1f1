// SQL for earnings: the bookings that earn (completed, or paid and active) with their stored
// breakdown, invoices, payouts and their reversals.
import { TIME_ZONE } from '@karoo/shared';
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../db/connection';
import type { Insertable } from 'kysely';
import type { InvoiceLine, InvoicesTable, PayoutStatusValue } from '../../db/schema';
import { countRentedDays } from '../availability';
import { earningBookingSql, type PayoutState } from '../bookings';

export interface EarningRecord {
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
  start_date: string;
  end_date: string;
  subtotal_cents: number;
  service_fee_cents: number;
  insurance_fee_cents: number;
  pickup_fee_cents: number;
  total_price_cents: number;
  car_owner_earnings_cents: number;
  app_fee_cents: number;
  commission_rate: number;
  payout_status: PayoutStatusValue;
  payout_reference: string | null;
  payout_at: Date | null;
  paid_at: Date | null;
  completed_at: Date | null;
  created_at: Date;
}

/** The bookings that earn (the bookings module's earning rule) with their stored breakdown, newest first. */
export function listEarningRecords(db: Db, filters: { ownerId?: string; carId?: string; bookingId?: string }): Promise<EarningRecord[]> {
  let query = db
    .selectFrom('bookings as b')
    .innerJoin('cars as c', 'c.id', 'b.car_id')
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
      'b.start_date',
      'b.end_date',
      'b.subtotal_cents',
      'b.service_fee_cents',
      'b.insurance_fee_cents',
      'b.pickup_fee_cents',
      'b.total_price_cents',
      'b.car_owner_earnings_cents',
      'b.app_fee_cents',
      'b.commission_rate',
      'b.payout_status',
      'b.payout_reference',
      'b.payout_at',
      'b.paid_at',
      'b.completed_at',
      'b.created_at',
    ])
    .where(earningBookingSql('b'));
  if (filters.ownerId) query = query.where('b.owner_id', '=', filters.ownerId);
  if (filters.carId) query = query.where('b.car_id', '=', filters.carId);
  if (filters.bookingId) query = query.where('b.id', '=', filters.bookingId);
  return query.orderBy(sql`coalesce(b.completed_at, b.paid_at, b.created_at)`, 'desc').orderBy('b.id').execute();
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
  total_amount_cents: number;
  /** The booking's stored rental and pickup fee and its host fee rate, for the host fee line. */
  subtotal_cents: number;
  pickup_fee_cents: number;
  commission_rate: number;
  car_owner_earnings_cents: number;
  app_fee_cents: number;
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
      'i.total_amount_cents',
      'b.subtotal_cents',
      'b.pickup_fee_cents',
      'b.commission_rate',
      'i.car_owner_earnings_cents',
      'i.app_fee_cents',
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
 * when (the bookings module sets the booking's payout pending again).
 */
export async function insertPayoutReversal(db: Db, paid: PayoutState, reversal: { reason: string; by: { id: string; username: string } }, now: Date): Promise<void> {
  await db
    .insertInto('payout_reversals')
    .values({
      booking_id: paid.id,
      amount_cents: paid.car_owner_earnings_cents,
      payout_reference: paid.payout_reference,
      paid_at: paid.payout_at,
      reason: reversal.reason,
      reversed_by: reversal.by.id,
      reversed_by_username: reversal.by.username.toLowerCase(),
      reversed_at: now,
    })
    .execute();
}

// ---- Admin Finance: aggregates over the bookings that earn, never every row ----

/** A half-open range of instants [start, end) of when a booking earned; either side may be open. */
export interface EarnedRange {
  start?: Date;
  end?: Date;
}

/** When a booking earned: completed, else paid (else created). */
const earnedAt = sql<Date>`coalesce(b.completed_at, b.paid_at, b.created_at)`;

function earningBookings(db: Db, range: EarnedRange) {
  let query = db.selectFrom('bookings as b').where(earningBookingSql('b'));
  if (range.start) query = query.where(earnedAt, '>=', range.start);
  if (range.end) query = query.where(earnedAt, '<', range.end);
  return query;
}

export interface FinanceTotalsRow {
  gross: number;
  host_earnings: number;
  app_fee: number;
  service_fees: number;
  insurance: number;
  pickup_fees: number;
  rental: number;
  host_fee_rates: number[];
  service_fee_rates: number[];
  bookings: number;
}

const sumOf = (column: string) => sql<string>`coalesce(sum(${sql.ref(column)}), 0)`;
/** '20.00,25.00' (a string_agg of percentages) as [20, 25]; none as []. */
const ratesOf = (list: string | null) => [...new Set((list ?? '').split(',').filter(Boolean).map(Number))].sort((a, b) => a - b);

export async function financeTotals(db: Db, range: EarnedRange): Promise<FinanceTotalsRow> {
  const row = await earningBookings(db, range)
    .select([
      sumOf('b.total_price_cents').as('gross'),
      sumOf('b.car_owner_earnings_cents').as('host_earnings'),
      sumOf('b.app_fee_cents').as('app_fee'),
      sumOf('b.service_fee_cents').as('service_fees'),
      sumOf('b.insurance_fee_cents').as('insurance'),
      sumOf('b.pickup_fee_cents').as('pickup_fees'),
      sumOf('b.subtotal_cents').as('rental'),
      // The rates the fees were taken at: each booking keeps the rate of the day it was made.
      // (As text: both databases answer a text the same way, where array types are read differently.)
      sql<string | null>`string_agg(DISTINCT b.commission_rate::text, ',')`.as('host_fee_rates'),
      sql<string | null>`string_agg(DISTINCT b.service_fee_rate::text, ',')`.as('service_fee_rates'),
      sql<string>`count(*)`.as('bookings'),
    ])
    .executeTakeFirstOrThrow();
  return {
    gross: Number(row.gross),
    host_earnings: Number(row.host_earnings),
    app_fee: Number(row.app_fee),
    service_fees: Number(row.service_fees),
    insurance: Number(row.insurance),
    pickup_fees: Number(row.pickup_fees),
    rental: Number(row.rental),
    host_fee_rates: ratesOf(row.host_fee_rates),
    service_fee_rates: ratesOf(row.service_fee_rates),
    bookings: Number(row.bookings),
  };
}

export interface FinanceCarRow {
  car_username: string;
  car_make: string;
  car_model: string;
  car_year: number;
  car_color: string;
  car_plate_number: string;
  gross: number;
  host_earnings: number;
  app_fee: number;
  bookings: number;
}

/** The cars that brought the platform the most (app fee, then gross). */
export async function financeTopCars(db: Db, range: EarnedRange, limit: number): Promise<FinanceCarRow[]> {
  const rows = await earningBookings(db, range)
    .innerJoin('cars as c', 'c.id', 'b.car_id')
    .select([
      'c.car_username',
      'c.car_make',
      'c.car_model',
      'c.car_year',
      'c.car_color',
      'c.car_plate_number',
      sumOf('b.total_price_cents').as('gross'),
      sumOf('b.car_owner_earnings_cents').as('host_earnings'),
      sumOf('b.app_fee_cents').as('app_fee'),
      sql<string>`count(*)`.as('bookings'),
    ])
    .groupBy(['c.id', 'c.car_username', 'c.car_make', 'c.car_model', 'c.car_year', 'c.car_color', 'c.car_plate_number'])
    .orderBy(sql`sum(b.app_fee_cents)`, 'desc')
    .orderBy(sql`sum(b.total_price_cents)`, 'desc')
    .orderBy('c.car_username')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ ...r, gross: Number(r.gross), host_earnings: Number(r.host_earnings), app_fee: Number(r.app_fee), bookings: Number(r.bookings) }));
}

export interface FinanceTransactionRow {
  id: string;
  booking_number: string;
  car_username: string;
  car_make: string;
  car_model: string;
  renter_username: string;
  host_username: string;
  earned_at: Date;
  total_price_cents: number;
  service_fee_cents: number;
  insurance_fee_cents: number;
  pickup_fee_cents: number;
  car_owner_earnings_cents: number;
  app_fee_cents: number;
  status: string;
  payout_status: PayoutStatusValue;
}

/** One page of the earning bookings, newest first (the recent list and the CSV export). */
export function financeTransactions(db: Db, range: EarnedRange, page: { limit: number; offset?: number }): Promise<FinanceTransactionRow[]> {
  return earningBookings(db, range)
    .innerJoin('cars as c', 'c.id', 'b.car_id')
    .innerJoin('users as r', 'r.id', 'b.renter_id')
    .innerJoin('users as h', 'h.id', 'b.owner_id')
    .select([
      'b.id',
      'b.booking_number',
      'c.car_username',
      'c.car_make',
      'c.car_model',
      'r.username as renter_username',
      'h.username as host_username',
      earnedAt.as('earned_at'),
      'b.total_price_cents',
      'b.service_fee_cents',
      'b.insurance_fee_cents',
      'b.pickup_fee_cents',
      'b.car_owner_earnings_cents',
      'b.app_fee_cents',
      'b.status',
      'b.payout_status',
    ])
    .orderBy(earnedAt, 'desc')
    .orderBy('b.id', 'desc')
    .limit(page.limit)
    .offset(page.offset ?? 0)
    .execute();
}

export interface FinancePayoutRow {
  host_id: string;
  host_username: string;
  host_name: string | null;
  bookings: number;
  amount_owed: number;
  booking_ids: string[];
}

/** Per host: the completed trips whose payout is not paid yet (what is payable today), and what they add up to. */
export async function financePayoutsOwed(db: Db): Promise<FinancePayoutRow[]> {
  const rows = await earningBookings(db, {})
    .innerJoin('users as h', 'h.id', 'b.owner_id')
    .where('b.status', '=', 'completed')
    .where('b.payout_status', '!=', 'paid')
    .select([
      'h.id as host_id',
      'h.username as host_username',
      'h.full_name as host_name',
      sql<string>`count(*)`.as('bookings'),
      sumOf('b.car_owner_earnings_cents').as('amount_owed'),
      sql<string[]>`array_agg(b.id::text ORDER BY b.id)`.as('booking_ids'),
    ])
    .groupBy(['h.id', 'h.username', 'h.full_name'])
    .orderBy(sql`sum(b.car_owner_earnings_cents)`, 'desc')
    .orderBy('h.username')
    .execute();
  return rows.map((r) => ({ ...r, bookings: Number(r.bookings), amount_owed: Number(r.amount_owed) }));
}

export interface FinancePaidPayoutRow {
  booking_id: string;
  booking_number: string;
  host_id: string;
  host_username: string;
  host_name: string | null;
  car_make: string;
  car_model: string;
  car_owner_earnings_cents: number;
  payout_reference: string | null;
  payout_at: Date | null;
}

/** The most recent payouts marked paid, newest first (bookings_paid_payouts_idx). */
export function financePaidPayouts(db: Db, limit: number): Promise<FinancePaidPayoutRow[]> {
  return db
    .selectFrom('bookings as b')
    .innerJoin('users as h', 'h.id', 'b.owner_id')
    .innerJoin('cars as c', 'c.id', 'b.car_id')
    .where('b.payout_status', '=', 'paid')
    .select([
      'b.id as booking_id',
      'b.booking_number',
      'h.id as host_id',
      'h.username as host_username',
      'h.full_name as host_name',
      'c.car_make',
      'c.car_model',
      'b.car_owner_earnings_cents',
      'b.payout_reference',
      'b.payout_at',
    ])
    .orderBy(sql`b.payout_at DESC NULLS LAST`)
    .orderBy('b.id', 'desc')
    .limit(limit)
    .execute();
}

export interface FinancePayoutReversalRow {
  id: string;
  booking_id: string;
  booking_number: string;
  host_username: string;
  amount_cents: number;
  payout_reference: string | null;
  paid_at: Date | null;
  reason: string;
  reversed_by_username: string;
  reversed_at: Date;
}

/** The most recent payout reversals, newest first. */
export function financePayoutReversals(db: Db, limit: number): Promise<FinancePayoutReversalRow[]> {
  return db
    .selectFrom('payout_reversals as r')
    .innerJoin('bookings as b', 'b.id', 'r.booking_id')
    .innerJoin('users as h', 'h.id', 'b.owner_id')
    .select(['r.id', 'r.booking_id', 'b.booking_number', 'h.username as host_username', 'r.amount_cents', 'r.payout_reference', 'r.paid_at', 'r.reason', 'r.reversed_by_username', 'r.reversed_at'])
    .orderBy('r.reversed_at', 'desc')
    .orderBy('r.id', 'desc')
    .limit(limit)
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

/** The app fee of the bookings that earned per week of the period, cents. */
export async function analyticsWeeklyRevenue(db: Db, range: AnalyticsRange): Promise<{ week_start: string; app_fee: number }[]> {
  const week = weekOf(earnedAt);
  const rows = await earningBookings(db, { start: range.start, end: range.end })
    .select([week.as('week_start'), sumOf('b.app_fee_cents').as('app_fee')])
    .groupBy(week)
    .execute();
  return rows.map((r) => ({ week_start: r.week_start, app_fee: Number(r.app_fee) }));
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

/** Average rating of the reviews written in the period; null when none. */
export async function analyticsAverageRating(db: Db, range: AnalyticsRange): Promise<number | null> {
  const row = await db
    .selectFrom('reviews as r')
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
