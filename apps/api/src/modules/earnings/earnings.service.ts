// Earnings (document 3 sections 7 and 9; decisions.md section 5): every figure is a sum of the
// breakdown stored on each booking, never recomputed from prices, so every screen agrees.
// Invoices: one per completed booking, numbered INV-YYYY-NNNNNN. Payouts: admins record them, a
// completed trip's only; paid is final, and a mistake is corrected by an audited reversal (its own row).
import { analyticsPeriod, ANALYTICS_TOO_LONG, isAnalyticsPeriodTooLong, daysBetween, weeksOf, FINANCE_CSV_HEADER, type AdminAnalytics, type AdminAnalyticsQuery, isAdmin, midnightAfter, monthIn, monthsFrom, startOfDay, todayIn, type AdminFinance, type AdminFinanceQuery, type FinanceTotals, type FinanceTransaction, type EarningsSummary, type Earning, type Invoice, type ProfitPerCar, type updatePayoutBodySchema } from '@karoo/shared';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import { inTransaction } from '../../events/domain-events';
import type { InvoiceLine, UserRow } from '../../db/schema';
import { badRequest, conflict, forbidden, notFound } from '../../lib/app-error';
import { csvLines } from '../../lib/csv';
import { clearPaidPayout, findBookingById, lockPayout, updatePayout as setBookingPayout } from '../bookings';
import { findCar } from '../cars';
import { getSettings } from '../settings';
import { findUser } from '../users';
import * as repo from './earnings.repository';
import type { EarnedRange, EarningRecord, FinanceTotalsRow, FinanceTransactionRow, InvoiceRecord } from './earnings.repository';

const rand = (cents: number) => cents / 100;
const iso = (d: Date | string | null) => (d == null ? null : new Date(d).toISOString());
/** 'YYYY-MM' in Johannesburg of when a booking earned (completed, else paid). */
const monthOf = (r: EarningRecord) => monthIn(new Date(r.completed_at ?? r.paid_at ?? r.created_at));

function toEarning(r: EarningRecord): Earning {
  return {
    id: r.id,
    booking_id: r.booking_number,
    car_username: r.car_username,
    car_name: `${r.car_make} ${r.car_model}`,
    status: r.status,
    start_date: r.start_date,
    end_date: r.end_date,
    gross: rand(r.total_price_cents),
    total_price: rand(r.total_price_cents),
    subtotal: rand(r.subtotal_cents),
    pickup_fee: rand(r.pickup_fee_cents),
    car_owner_earnings: rand(r.car_owner_earnings_cents),
    app_fee: rand(r.app_fee_cents),
    commission_rate: Number(r.commission_rate),
    payout_status: r.payout_status,
    payout_reference: r.payout_reference,
    payout_at: iso(r.payout_at),
    paid_at: iso(r.paid_at),
    completed_at: iso(r.completed_at),
  };
}

function sumUp(rows: EarningRecord[]) {
  return rows.reduce(
    (acc, r) => ({
      gross: acc.gross + r.total_price_cents,
      rental: acc.rental + r.subtotal_cents + r.pickup_fee_cents,
      earnings: acc.earnings + r.car_owner_earnings_cents,
      fee: acc.fee + r.app_fee_cents,
    }),
    { gross: 0, rental: 0, earnings: 0, fee: 0 },
  );
}

function requireSelfOrAdmin(viewer: UserRow, userId: string) {
  if (viewer.id !== userId && !isAdmin(viewer)) throw forbidden('You can only see your own earnings.');
}

/** GET /earnings/earning/getCarOwnerProfit/{id}: one entry per completed or paid booking of that host. */
export async function carOwnerProfit(ctx: AppContext, viewer: UserRow, idOrUsername: string): Promise<Earning[]> {
  const user = await findUser(ctx, idOrUsername);
  if (!user) throw notFound('User not found');
  requireSelfOrAdmin(viewer, user.id);
  return (await repo.listEarningRecords(ctx.db, { ownerId: user.id })).map(toEarning);
}

async function manageableCar(ctx: AppContext, viewer: UserRow, idOrUsername: string) {
  const car = await findCar(ctx, idOrUsername);
  if (!car) throw notFound('Car not found');
  if (car.owner_id !== viewer.id && !isAdmin(viewer)) throw forbidden('Only the car owner or an administrator can see its earnings.');
  return car;
}

export async function profitPerCar(ctx: AppContext, viewer: UserRow, idOrUsername: string): Promise<ProfitPerCar> {
  const car = await manageableCar(ctx, viewer, idOrUsername);
  const rows = await repo.listEarningRecords(ctx.db, { carId: car.id });
  const sums = sumUp(rows);
  return {
    car_username: car.car_username,
    car_name: `${car.car_make} ${car.car_model}`,
    car_year: car.car_year,
    car_color: car.car_color,
    car_plate_number: car.car_plate_number,
    gross: rand(sums.gross),
    car_owner_earnings: rand(sums.earnings),
    app_fee: rand(sums.fee),
    bookings: rows.length,
  };
}

export async function summary(ctx: AppContext, viewer: UserRow): Promise<EarningsSummary> {
  const rows = await repo.listEarningRecords(ctx.db, isAdmin(viewer) ? {} : { ownerId: viewer.id });
  const total = sumUp(rows);
  const byCar = new Map<string, { first: EarningRecord; rows: EarningRecord[] }>();
  const byMonth = new Map<string, EarningRecord[]>();
  for (const r of rows) {
    const car = byCar.get(r.car_username) ?? { first: r, rows: [] };
    car.rows.push(r);
    byCar.set(r.car_username, car);
    const month = monthOf(r);
    byMonth.set(month, [...(byMonth.get(month) ?? []), r]);
  }
  // Every month from the first earning to this one, months without trips as zero.
  const earned = [...byMonth.keys()].sort();
  const thisMonth = monthIn(ctx.clock.now());
  const months = earned.length ? monthsFrom(earned[0]!, earned.at(-1)! > thisMonth ? earned.at(-1)! : thisMonth) : [];
  return {
    total_revenue: rand(total.gross),
    rental_income: rand(total.rental),
    host_fee: rand(total.rental - total.earnings),
    total_earnings: rand(total.earnings),
    app_fee: rand(total.fee),
    bookings: rows.length,
    by_car: [...byCar.entries()]
      .map(([carUsername, { first, rows: carRows }]) => {
        const s = sumUp(carRows);
        return {
          car_username: carUsername,
          car_name: `${first.car_make} ${first.car_model}`,
          car_year: first.car_year,
          car_color: first.car_color,
          car_plate_number: first.car_plate_number,
          gross: rand(s.gross),
          car_owner_earnings: rand(s.earnings),
          app_fee: rand(s.fee),
          bookings: carRows.length,
        };
      })
      .sort((a, b) => b.gross - a.gross),
    by_month: months.map((month) => {
      const monthRows = byMonth.get(month) ?? [];
      const s = sumUp(monthRows);
      return { month, revenue: rand(s.gross), earnings: rand(s.earnings), app_fee: rand(s.fee), bookings: monthRows.length };
    }),
  };
}

export async function appFee(ctx: AppContext) {
  const settings = await getSettings(ctx);
  const total = sumUp(await repo.listEarningRecords(ctx.db, {}));
  return { platform_fee: settings.platform_fee, platformCommission: settings.platformCommission, total_app_fee: rand(total.fee) };
}

function toInvoice(r: InvoiceRecord): Invoice {
  const rentalIncome = r.subtotal_cents + r.pickup_fee_cents;
  return {
    id: r.id,
    invoice_number: r.invoice_number,
    invoice_car_username: r.car_username,
    car_username: r.car_username,
    car_name: `${r.car_year} ${r.car_make} ${r.car_model}`,
    car: { make: r.car_make, model: r.car_model, year: r.car_year, color: r.car_color, plate_number: r.car_plate_number },
    renter: { username: r.renter_username, full_name: r.renter_name || r.renter_username },
    host: { username: r.host_username, full_name: r.host_name || r.host_username },
    booking_id: r.booking_number,
    booking_number: r.booking_number,
    start_date: r.start_date,
    end_date: r.end_date,
    total_amount: rand(r.total_amount_cents),
    rental_income: rand(rentalIncome),
    pickup_fee: rand(r.pickup_fee_cents),
    host_fee: rand(rentalIncome - r.car_owner_earnings_cents),
    host_fee_rate: Number(r.commission_rate),
    car_owner_earnings: rand(r.car_owner_earnings_cents),
    app_fee: rand(r.app_fee_cents),
    line_items: r.line_items.map((l) => ({ description: l.description, amount: rand(l.amount_cents) })),
    issued_at: new Date(r.issued_at).toISOString(),
  };
}

/** POST /earnings/earning/createInvoicePerCar/{id}: idempotent, one invoice per completed booking. */
export async function createInvoice(ctx: AppContext, viewer: UserRow, bookingIdOrNumber: string): Promise<{ invoice: Invoice; created: boolean }> {
  const booking = await findBookingById(ctx, bookingIdOrNumber);
  const canSee = booking && (booking.owner_id === viewer.id || booking.renter_id === viewer.id || isAdmin(viewer));
  if (!booking || !canSee) throw notFound('Booking not found');
  if (booking.owner_id !== viewer.id && !isAdmin(viewer)) throw forbidden('Only the car owner or an administrator can invoice a booking.');
  if (booking.status !== 'completed') throw conflict('Only completed bookings can be invoiced.');
  const existing = await repo.findInvoiceByBooking(ctx.db, booking.id);
  if (existing) return { invoice: toInvoice(existing), created: false };

  const now = ctx.clock.now();
  const lines: InvoiceLine[] = [
    { description: booking.is_hourly_booking ? `Rental (${booking.duration_hours} h)` : `Rental (${booking.duration_days} days)`, amount_cents: booking.subtotal_cents },
    { description: `Service fee (${Number(booking.service_fee_rate)}%)`, amount_cents: booking.service_fee_cents },
    { description: 'Insurance', amount_cents: booking.insurance_fee_cents },
    { description: 'Pickup fee', amount_cents: booking.pickup_fee_cents },
  ];
  const sequence = await repo.nextInvoiceSequence(ctx.db);
  const year = monthIn(now).slice(0, 4);
  const number = `INV-${year}-${String(sequence).padStart(6, '0')}`;
  const inserted = await repo.insertInvoiceOnce(ctx.db, {
    invoice_number: number,
    booking_id: booking.id,
    car_id: booking.car_id,
    owner_id: booking.owner_id,
    total_amount_cents: booking.total_price_cents,
    car_owner_earnings_cents: booking.car_owner_earnings_cents,
    app_fee_cents: booking.app_fee_cents,
    line_items: JSON.stringify(lines),
    issued_at: now,
  });
  const invoice = await repo.findInvoiceByBooking(ctx.db, booking.id);
  if (!invoice) throw notFound('Invoice not found');
  return { invoice: toInvoice(invoice), created: !!inserted };
}

export async function listInvoices(ctx: AppContext, viewer: UserRow): Promise<Invoice[]> {
  return (await repo.listInvoices(ctx.db, isAdmin(viewer) ? undefined : viewer.id)).map(toInvoice);
}

/** Why a paid payout cannot be changed, and what to do instead. */
const paidIsFinal = (bookingNumber: string) =>
  `A paid payout is final. To correct it, reverse it with a reason: POST /api/earnings/admin/payouts/${bookingNumber}/reverse.`;

/**
 * PATCH /earnings/earning/updatePayout/{id} (admin): the payout of one earning (a booking). Only a
 * completed trip is payable (processing or paid); a paid payout is final: the same request again
 * answers it unchanged, anything else is a 409 naming the reversal.
 */
export async function updatePayout(ctx: AppContext, admin: UserRow, bookingIdOrNumber: string, body: z.output<typeof updatePayoutBodySchema>): Promise<Earning> {
  const booking = await findBookingById(ctx, bookingIdOrNumber);
  if (!booking) throw notFound('Earning not found');
  const [earning] = await repo.listEarningRecords(ctx.db, { bookingId: booking.id });
  if (!earning) throw conflict('Only completed or paid bookings have a payout.');
  await inTransaction(
    ctx,
    async (tx) => {
      const current = await lockPayout(tx.db, booking.id);
      if (!current) throw notFound('Earning not found');
      if (current.payout_status === 'paid') {
        const sameReference = body.payout_reference === undefined || body.payout_reference === current.payout_reference;
        // A retried "mark paid" (the Finance tab marks a host's bookings one by one) changes nothing.
        if (body.payout_status === 'paid' && sameReference) return;
        throw conflict(paidIsFinal(current.booking_number));
      }
      if (body.payout_status !== 'pending' && current.status !== 'completed') {
        throw conflict(`Only a completed trip can be paid out: this booking is ${current.status}.`);
      }
      if (!(await setBookingPayout(tx.db, booking.id, { payout_status: body.payout_status, payout_reference: body.payout_reference }, tx.now))) {
        throw conflict(paidIsFinal(current.booking_number));
      }
      tx.emit({
        type: 'payout.updated',
        bookingId: booking.id,
        bookingNumber: booking.booking_number,
        before: { payout_status: current.payout_status, payout_reference: current.payout_reference },
        after: { payout_status: body.payout_status, payout_reference: body.payout_reference ?? current.payout_reference },
      });
    },
    { by: admin },
  );
  const [updated] = await repo.listEarningRecords(ctx.db, { bookingId: booking.id });
  return toEarning(updated!);
}

/**
 * POST /earnings/admin/payouts/{id}/reverse (admin): the one way a paid payout changes. The
 * reversal is kept as its own row (what was paid, its reference and time, the reason, who, when)
 * and audited with the payout before and after; the trip's payout is pending (owed) again.
 */
export async function reversePayout(ctx: AppContext, admin: UserRow, bookingIdOrNumber: string, reason: string): Promise<Earning> {
  const booking = await findBookingById(ctx, bookingIdOrNumber);
  if (!booking) throw notFound('Payout not found');
  await inTransaction(
    ctx,
    async (tx) => {
      const current = await lockPayout(tx.db, booking.id);
      if (!current) throw notFound('Payout not found');
      if (current.payout_status !== 'paid' || !(await clearPaidPayout(tx.db, current.id, tx.now))) {
        throw conflict(`Only a paid payout can be reversed: this one is ${current.payout_status}.`);
      }
      await repo.insertPayoutReversal(tx.db, current, { reason, by: admin }, tx.now);
      tx.emit({
        type: 'payout.reversed',
        bookingId: booking.id,
        bookingNumber: booking.booking_number,
        hostId: booking.owner_id,
        amountCents: current.car_owner_earnings_cents,
        before: { payout_status: 'paid', payout_reference: current.payout_reference, payout_at: iso(current.payout_at), amount: rand(current.car_owner_earnings_cents) },
        after: { payout_status: 'pending', payout_reference: null, payout_at: null },
        reason,
      });
    },
    { by: admin },
  );
  const [updated] = await repo.listEarningRecords(ctx.db, { bookingId: booking.id });
  if (!updated) throw notFound('Payout not found');
  return toEarning(updated);
}

// ---- Admin Finance (GET /earnings/admin/finance and /earnings/admin/transactions.csv) ----

/** Johannesburg dates `from` to `to`, both included, as instants [start, end). */
function rangeOf(query: AdminFinanceQuery): EarnedRange {
  return { ...(query.from ? { start: startOfDay(query.from) } : {}), ...(query.to ? { end: midnightAfter(query.to) } : {}) };
}

/** The Johannesburg month before 'YYYY-MM'. */
function monthBefore(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
}
function monthAfter(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
}
const monthRange = (month: string): EarnedRange => ({ start: startOfDay(`${month}-01`), end: startOfDay(`${monthAfter(month)}-01`) });

function toTotals(t: FinanceTotalsRow): FinanceTotals {
  return {
    gross: rand(t.gross),
    host_earnings: rand(t.host_earnings),
    platform_revenue: rand(t.app_fee),
    service_fees: rand(t.service_fees),
    insurance: rand(t.insurance),
    pickup_fees: rand(t.pickup_fees),
    host_fees: rand(t.rental + t.pickup_fees - t.host_earnings),
    host_fee_rates: t.host_fee_rates,
    service_fee_rates: t.service_fee_rates,
    bookings: t.bookings,
  };
}

function toTransaction(r: FinanceTransactionRow): FinanceTransaction {
  return {
    id: r.id,
    booking_number: r.booking_number,
    car_username: r.car_username,
    car_name: `${r.car_make} ${r.car_model}`,
    renter_username: r.renter_username,
    host_username: r.host_username,
    date: new Date(r.earned_at).toISOString(),
    total: rand(r.total_price_cents),
    service_fee: rand(r.service_fee_cents),
    insurance: rand(r.insurance_fee_cents),
    pickup_fee: rand(r.pickup_fee_cents),
    host_earnings: rand(r.car_owner_earnings_cents),
    app_fee: rand(r.app_fee_cents),
    status: r.status,
    payout_status: r.payout_status,
  };
}

/** How many paid payouts and reversals the Finance tab lists (the newest). */
const FINANCE_PAID_PAYOUTS = 20;
const FINANCE_PAYOUT_REVERSALS = 10;

export async function adminFinance(ctx: AppContext, query: AdminFinanceQuery): Promise<AdminFinance> {
  const range = rangeOf(query);
  const thisMonth = monthIn(ctx.clock.now());
  const lastMonth = monthBefore(thisMonth);
  const [settings, totals, topCars, recent, current, previous, payouts, paidPayouts, reversals] = await Promise.all([
    getSettings(ctx),
    repo.financeTotals(ctx.db, range),
    repo.financeTopCars(ctx.db, range, 5),
    repo.financeTransactions(ctx.db, range, { limit: 10 }),
    repo.financeTotals(ctx.db, monthRange(thisMonth)),
    repo.financeTotals(ctx.db, monthRange(lastMonth)),
    repo.financePayoutsOwed(ctx.db),
    repo.financePaidPayouts(ctx.db, FINANCE_PAID_PAYOUTS),
    repo.financePayoutReversals(ctx.db, FINANCE_PAYOUT_REVERSALS),
  ]);
  return {
    period: { from: query.from ?? null, to: query.to ?? null },
    totals: toTotals(totals),
    fee_structure: { platform_fee: settings.platform_fee, platformCommission: settings.platformCommission },
    top_cars: topCars.map((c) => ({
      car_username: c.car_username,
      car_name: `${c.car_make} ${c.car_model}`,
      car_year: c.car_year,
      car_color: c.car_color,
      car_plate_number: c.car_plate_number,
      gross: rand(c.gross),
      car_owner_earnings: rand(c.host_earnings),
      app_fee: rand(c.app_fee),
      bookings: c.bookings,
    })),
    recent_transactions: recent.map(toTransaction),
    month_over_month: { this_month: thisMonth, last_month: lastMonth, current: toTotals(current), previous: toTotals(previous) },
    payouts: payouts.map((p) => ({
      host_id: p.host_id,
      host_username: p.host_username,
      host_name: p.host_name || p.host_username,
      bookings: p.bookings,
      amount_owed: rand(p.amount_owed),
      booking_ids: p.booking_ids,
    })),
    paid_payouts: paidPayouts.map((p) => ({
      booking_id: p.booking_id,
      booking_number: p.booking_number,
      host_id: p.host_id,
      host_username: p.host_username,
      host_name: p.host_name || p.host_username,
      car_name: `${p.car_make} ${p.car_model}`,
      amount: rand(p.car_owner_earnings_cents),
      payout_reference: p.payout_reference,
      paid_at: iso(p.payout_at),
    })),
    payout_reversals: reversals.map((r) => ({
      id: r.id,
      booking_id: r.booking_id,
      booking_number: r.booking_number,
      host_username: r.host_username,
      amount: rand(r.amount_cents),
      payout_reference: r.payout_reference,
      paid_at: iso(r.paid_at),
      reason: r.reason,
      reversed_by: r.reversed_by_username,
      reversed_at: new Date(r.reversed_at).toISOString(),
    })),
  };
}

const CSV_PAGE = 1000;
/** Rand as a number (lib/csv writes it with 2 decimals); cents stay integers until here. */
const money = (cents: number) => cents / 100;

/**
 * The earning bookings of a period as CSV lines, header first, read a page at a time. Names typed
 * by people (car, renter, host) go through lib/csv's formula guard; money goes as numbers.
 */
export async function* transactionsCsv(ctx: AppContext, query: AdminFinanceQuery): AsyncGenerator<string> {
  const range = rangeOf(query);
  yield csvLines([FINANCE_CSV_HEADER], { decimals: 2 });
  for (let offset = 0; ; offset += CSV_PAGE) {
    const rows = await repo.financeTransactions(ctx.db, range, { limit: CSV_PAGE, offset });
    const lines = rows.map((r) => [
      r.booking_number,
      todayIn(new Date(r.earned_at)),
      `${r.car_make} ${r.car_model} (${r.car_username})`,
      r.renter_username,
      r.host_username,
      money(r.total_price_cents),
      money(r.service_fee_cents),
      money(r.insurance_fee_cents),
      money(r.pickup_fee_cents),
      money(r.car_owner_earnings_cents),
      money(r.app_fee_cents),
      r.status,
      r.payout_status,
    ]);
    if (lines.length > 0) yield csvLines(lines, { decimals: 2 });
    if (rows.length < CSV_PAGE) return;
  }
}

export function csvFilename(query: AdminFinanceQuery, now: Date): string {
  return `karoo-transactions-${query.from ?? 'all'}-${query.to ?? todayIn(now)}.csv`;
}

// ---- Admin Analytics (GET /admin/analytics) ----

/** The analytics of a period of Johannesburg days (default the last 12 weeks ending today). */
export async function adminAnalytics(ctx: AppContext, query: AdminAnalyticsQuery): Promise<AdminAnalytics> {
  const period = analyticsPeriod(query, todayIn(ctx.clock.now()));
  if (isAnalyticsPeriodTooLong(period.from, period.to)) throw badRequest(`${ANALYTICS_TOO_LONG} (from ${period.from} to ${period.to})`, { from: ANALYTICS_TOO_LONG });
  const range: repo.AnalyticsRange = { ...period, start: startOfDay(period.from), end: midnightAfter(period.to) };
  const [settings, weeklyBookings, weeklyRevenue, figures, tripDays, rating, cities, utilisation] = await Promise.all([
    getSettings(ctx),
    repo.analyticsWeeklyBookings(ctx.db, range),
    repo.analyticsWeeklyRevenue(ctx.db, range),
    repo.analyticsBookingFigures(ctx.db, range),
    repo.analyticsAverageTripDays(ctx.db, range),
    repo.analyticsAverageRating(ctx.db, range),
    repo.analyticsBusiestCities(ctx.db, range, 5),
    repo.analyticsUtilisation(ctx.db, range),
  ]);
  const bookingsByWeek = new Map(weeklyBookings.map((w) => [w.week_start, w.count]));
  const revenueByWeek = new Map(weeklyRevenue.map((w) => [w.week_start, w.app_fee]));
  const share = (part: number) => (figures.created === 0 ? 0 : part / figures.created);
  const capacity = utilisation.cars * (daysBetween(period.from, period.to) + 1);
  return {
    period,
    weeks: weeksOf(period.from, period.to).map((week) => ({
      week_start: week,
      bookings: bookingsByWeek.get(week) ?? 0,
      revenue: rand(revenueByWeek.get(week) ?? 0),
    })),
    average_trip_days: tripDays,
    average_rating: rating,
    conversion: share(figures.paid),
    cancellation_rate: share(figures.cancelled),
    rejection_rate: share(figures.rejected),
    bookings: figures.created,
    busiest_cities: cities,
    utilisation: capacity === 0 ? 0 : Math.min(1, utilisation.booked_days / capacity),
    platform_fee: settings.platform_fee,
  };
}
