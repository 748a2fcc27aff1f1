// Earnings (document 3 sections 7 and 9; decisions.md sections 5 and 12): every money figure is a
// sum of ledger rows (docs/decisions/039-one-ledger.md), never of booking columns, so every screen
// agrees and a closed period never changes: a period counts the money that moved in it.
// Invoices: one per completed booking, numbered INV-YYYY-NNNNNN. Payouts: admins record them, a
// final trip's only (completed, or cancelled with a fee kept); a payout is the host's share less
// any penalty still owed, written to the ledger; paid is final, and a mistake is corrected by an
// audited reversal (its own row, and a ledger row).
import { analyticsPeriod, ANALYTICS_TOO_LONG, isAnalyticsPeriodTooLong, daysBetween, weeksOf, FINANCE_CSV_HEADER, type AdminAnalytics, type AdminAnalyticsQuery, isAdmin, midnightAfter, monthIn, monthsFrom, startOfDay, todayIn, type AdminFinance, type AdminFinanceQuery, type FinanceTotals, type FinanceTransaction, type EarningsSummary, type Earning, type Invoice, type ProfitPerCar, type updatePayoutBodySchema } from '@karoo/shared';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import type { Db } from '../../db/connection';
import { inTransaction } from '../../events/domain-events';
import type { InvoiceLine, UserRow } from '../../db/schema';
import { badRequest, conflict, forbidden, notFound } from '../../lib/app-error';
import { csvLines } from '../../lib/csv';
import { clearPaidPayout, findBookingById, lockPayout, updatePayout as setBookingPayout, type BookingRecord } from '../bookings';
import { findCar } from '../cars';
import * as ledger from '../ledger';
import { getSettings } from '../settings';
import { findUser } from '../users';
import * as repo from './earnings.repository';
import type { BookingDetails, InvoiceRecord } from './earnings.repository';

const rand = (cents: number) => cents / 100;
const iso = (d: Date | string | null) => (d == null ? null : new Date(d).toISOString());

type Money = ledger.MoneySums;
const NO_MONEY: Money = {
  chargedCents: 0,
  refundedCents: 0,
  hostEarningsCents: 0,
  platformRevenueCents: 0,
  serviceFeesCents: 0,
  insuranceCents: 0,
  cancellationFeesCents: 0,
  penaltiesCents: 0,
  paidOutCents: 0,
  paidTrips: 0,
  depositsTakenCents: 0,
  depositsReleasedCents: 0,
  depositsAppliedCents: 0,
};

function addMoney(a: Money, b: Money): Money {
  const sum = { ...a };
  for (const key of Object.keys(sum) as (keyof Money)[]) sum[key] += b[key];
  return sum;
}
const sumMoney = (list: readonly Money[]) => list.reduce(addMoney, NO_MONEY);

/** A booking of a host's earnings list: what it is, and its money as ledger sums. */
interface EarningRecord {
  details: BookingDetails;
  money: Money;
}

/** The bookings that earned or cost their host something (ledger.sumMoneyByBooking), newest money first. */
async function listEarningRecords(db: Db, filter: ledger.BookingFilter): Promise<EarningRecord[]> {
  const sums = await ledger.sumMoneyByBooking(db, filter);
  const details = await repo.findBookingDetails(db, sums.map((m) => m.bookingId));
  return sums.flatMap((money) => {
    const found = details.get(money.bookingId);
    return found ? [{ details: found, money }] : [];
  });
}

/** One booking as an earning, with no money when the ledger has none for it. */
async function earningRecordOf(db: Db, bookingId: string): Promise<EarningRecord | undefined> {
  const details = (await repo.findBookingDetails(db, [bookingId])).get(bookingId);
  if (!details) return undefined;
  const [money] = await ledger.sumMoneyByBooking(db, { bookingIds: [bookingId] });
  return { details, money: money ?? NO_MONEY };
}

function toEarning({ details: d, money: m }: EarningRecord): Earning {
  return {
    id: d.id,
    booking_id: d.booking_number,
    car_username: d.car_username,
    car_name: `${d.car_make} ${d.car_model}`,
    status: d.status,
    start_date: d.start_date,
    end_date: d.end_date,
    gross: rand(ledger.grossOf(m)),
    total_price: rand(d.total_price_cents),
    subtotal: rand(d.subtotal_cents),
    pickup_fee: rand(d.pickup_fee_cents),
    car_owner_earnings: rand(m.hostEarningsCents),
    app_fee: rand(m.platformRevenueCents),
    refunded: rand(m.refundedCents),
    cancellation_fee: rand(m.cancellationFeesCents),
    penalty: rand(m.penaltiesCents),
    commission_rate: Number(d.commission_rate),
    payout_status: d.payout_status,
    payout_reference: d.payout_reference,
    payout_at: iso(d.payout_at),
    paid_at: iso(d.paid_at),
    completed_at: iso(d.completed_at),
  };
}

function requireSelfOrAdmin(viewer: UserRow, userId: string) {
  if (viewer.id !== userId && !isAdmin(viewer)) throw forbidden('You can only see your own earnings.');
}

/**
 * GET /earnings/earning/getCarOwnerProfit/{id}: one entry per paid booking of that host, with its
 * money as ledger sums (a cancelled trip shows what it kept: the host's share of a cancellation
 * fee, or a host's penalty).
 */
export async function carOwnerProfit(ctx: AppContext, viewer: UserRow, idOrUsername: string): Promise<Earning[]> {
  const user = await findUser(ctx, idOrUsername);
  if (!user) throw notFound('User not found');
  requireSelfOrAdmin(viewer, user.id);
  return (await listEarningRecords(ctx.db, { hostId: user.id })).map(toEarning);
}

async function manageableCar(ctx: AppContext, viewer: UserRow, idOrUsername: string) {
  const car = await findCar(ctx, idOrUsername);
  if (!car) throw notFound('Car not found');
  if (car.owner_id !== viewer.id && !isAdmin(viewer)) throw forbidden('Only the car owner or an administrator can see its earnings.');
  return car;
}

type CarNames = Pick<repo.CarDetails, 'car_username' | 'car_make' | 'car_model' | 'car_year' | 'car_color' | 'car_plate_number'>;

function toProfitPerCar(car: CarNames, m: Money): ProfitPerCar {
  return {
    car_username: car.car_username,
    car_name: `${car.car_make} ${car.car_model}`,
    car_year: car.car_year,
    car_color: car.car_color,
    car_plate_number: car.car_plate_number,
    gross: rand(ledger.grossOf(m)),
    car_owner_earnings: rand(m.hostEarningsCents),
    app_fee: rand(m.platformRevenueCents),
    bookings: m.paidTrips,
  };
}

export async function profitPerCar(ctx: AppContext, viewer: UserRow, idOrUsername: string): Promise<ProfitPerCar> {
  const car = await manageableCar(ctx, viewer, idOrUsername);
  const records = await listEarningRecords(ctx.db, { carId: car.id });
  return toProfitPerCar(car, sumMoney(records.map((r) => r.money)));
}

export async function summary(ctx: AppContext, viewer: UserRow): Promise<EarningsSummary> {
  const filter = isAdmin(viewer) ? {} : { hostId: viewer.id };
  const [records, monthly] = await Promise.all([listEarningRecords(ctx.db, filter), ledger.sumMoneyByMonth(ctx.db, filter)]);
  const total = sumMoney(records.map((r) => r.money));
  const byCar = new Map<string, { car: BookingDetails; money: Money }>();
  for (const { details, money } of records) {
    const car = byCar.get(details.car_id) ?? { car: details, money: NO_MONEY };
    byCar.set(details.car_id, { car: car.car, money: addMoney(car.money, money) });
  }
  // Every month from the first money to this one, months without any as zero; each month counts
  // what moved in it (a trip in the month it was paid, a cancellation in its own).
  const byMonth = new Map(monthly.map((m) => [m.month, m]));
  const thisMonth = monthIn(ctx.clock.now());
  const first = monthly[0]?.month;
  const last = monthly.at(-1)?.month;
  const months = first && last ? monthsFrom(first, last > thisMonth ? last : thisMonth) : [];
  const rentalIncome = total.hostEarningsCents + ledger.hostFeesOf(total);
  return {
    total_revenue: rand(ledger.grossOf(total)),
    rental_income: rand(rentalIncome),
    host_fee: rand(ledger.hostFeesOf(total)),
    total_earnings: rand(total.hostEarningsCents),
    app_fee: rand(total.platformRevenueCents),
    bookings: total.paidTrips,
    penalties: rand(total.penaltiesCents),
    by_car: [...byCar.values()].map(({ car, money }) => toProfitPerCar(car, money)).sort((a, b) => b.gross - a.gross),
    by_month: months.map((month) => {
      const m = byMonth.get(month) ?? { ...NO_MONEY, month };
      return { month, revenue: rand(ledger.grossOf(m)), earnings: rand(m.hostEarningsCents), app_fee: rand(m.platformRevenueCents), bookings: m.paidTrips };
    }),
  };
}

export async function appFee(ctx: AppContext) {
  const [settings, total] = await Promise.all([getSettings(ctx), ledger.sumMoneyMoved(ctx.db, {})]);
  return { platform_fee: settings.platform_fee, platformCommission: settings.platformCommission, total_app_fee: rand(total.platformRevenueCents) };
}

/** An invoice's amounts are its booking's ledger sums: what the renter paid, the host's part and the platform's. */
function toInvoice(r: InvoiceRecord, m: Money): Invoice {
  const hostFee = ledger.hostFeesOf(m);
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
    total_amount: rand(ledger.grossOf(m)),
    rental_income: rand(m.hostEarningsCents + hostFee),
    pickup_fee: rand(r.pickup_fee_cents),
    host_fee: rand(hostFee),
    host_fee_rate: Number(r.commission_rate),
    car_owner_earnings: rand(m.hostEarningsCents),
    app_fee: rand(m.platformRevenueCents),
    line_items: r.line_items.map((l) => ({ description: l.description, amount: rand(l.amount_cents) })),
    issued_at: new Date(r.issued_at).toISOString(),
  };
}

/** The ledger sums of these bookings, by id. */
async function moneyByBooking(db: Db, bookingIds: readonly string[]): Promise<Map<string, Money>> {
  const sums = await ledger.sumMoneyByBooking(db, { bookingIds });
  return new Map(sums.map((m) => [m.bookingId, m]));
}

async function toInvoices(db: Db, records: InvoiceRecord[]): Promise<Invoice[]> {
  const money = await moneyByBooking(db, records.map((r) => r.booking_id));
  return records.map((r) => toInvoice(r, money.get(r.booking_id) ?? NO_MONEY));
}

/** POST /earnings/earning/createInvoicePerCar/{id}: idempotent, one invoice per completed booking. */
export async function createInvoice(ctx: AppContext, viewer: UserRow, bookingIdOrNumber: string): Promise<{ invoice: Invoice; created: boolean }> {
  const booking = await findBookingById(ctx, bookingIdOrNumber);
  const canSee = booking && (booking.owner_id === viewer.id || booking.renter_id === viewer.id || isAdmin(viewer));
  if (!booking || !canSee) throw notFound('Booking not found');
  if (booking.owner_id !== viewer.id && !isAdmin(viewer)) throw forbidden('Only the car owner or an administrator can invoice a booking.');
  if (booking.status !== 'completed') throw conflict('Only completed bookings can be invoiced.');
  const existing = await repo.findInvoiceByBooking(ctx.db, booking.id);
  if (existing) return { invoice: (await toInvoices(ctx.db, [existing]))[0]!, created: false };

  const now = ctx.clock.now();
  const lines: InvoiceLine[] = [
    { description: booking.is_hourly_booking ? `Rental (${booking.duration_hours} h)` : `Rental (${booking.duration_days} days)`, amount_cents: booking.subtotal_cents },
    { description: `Service fee (${Number(booking.service_fee_rate)}%)`, amount_cents: booking.service_fee_cents },
    { description: 'Insurance', amount_cents: booking.insurance_fee_cents },
    { description: 'Pickup fee', amount_cents: booking.pickup_fee_cents },
  ];
  const money = (await moneyByBooking(ctx.db, [booking.id])).get(booking.id) ?? NO_MONEY;
  const sequence = await repo.nextInvoiceSequence(ctx.db);
  const year = monthIn(now).slice(0, 4);
  const number = `INV-${year}-${String(sequence).padStart(6, '0')}`;
  const inserted = await repo.insertInvoiceOnce(ctx.db, {
    invoice_number: number,
    booking_id: booking.id,
    car_id: booking.car_id,
    owner_id: booking.owner_id,
    // As the ledger has them when issued (a completed trip's shares no longer change).
    total_amount_cents: ledger.grossOf(money),
    car_owner_earnings_cents: money.hostEarningsCents,
    app_fee_cents: money.platformRevenueCents,
    line_items: JSON.stringify(lines),
    issued_at: now,
  });
  const invoice = await repo.findInvoiceByBooking(ctx.db, booking.id);
  if (!invoice) throw notFound('Invoice not found');
  return { invoice: toInvoice(invoice, money), created: !!inserted };
}

export async function listInvoices(ctx: AppContext, viewer: UserRow): Promise<Invoice[]> {
  return toInvoices(ctx.db, await repo.listInvoices(ctx.db, isAdmin(viewer) ? undefined : viewer.id));
}

/** Why a paid payout cannot be changed, and what to do instead. */
const paidIsFinal = (bookingNumber: string) =>
  `A paid payout is final. To correct it, reverse it with a reason: POST /api/earnings/admin/payouts/${bookingNumber}/reverse.`;

/** Whose money a booking's payout moves. */
const partiesOf = (b: Pick<BookingRecord, 'id' | 'renter_id' | 'owner_id'>): ledger.LedgerParties => ({ bookingId: b.id, renterId: b.renter_id, hostId: b.owner_id });

/** Trips that are over and keep their money: a completed trip, or a cancelled one (its fee, or a penalty). */
const FINAL_STATUSES: readonly string[] = ['completed', 'cancelled'];

/**
 * What marking this booking paid transfers: its host's share, less any penalty the host still owes
 * (their balance, which includes this share), never less than nothing: min(share, max(0, balance)).
 * Called under lockHostPayouts, so two payouts of one host never use one balance.
 */
async function payableNow(db: Db, booking: Pick<BookingRecord, 'id' | 'owner_id'>): Promise<number> {
  // What a transfer already paid or is paying of this booking (payouts module) is not paid again.
  const [shares, paid, balance] = await Promise.all([ledger.sharesOfBooking(db, booking.id), ledger.paidOutOfBooking(db, booking.id), ledger.hostBalanceCents(db, booking.owner_id)]);
  return Math.max(0, Math.min(shares.hostCents - paid, balance));
}

/**
 * PATCH /earnings/earning/updatePayout/{id} (admin): the payout of one earning (a booking). Only a
 * final trip is payable (processing or paid): completed, or cancelled with a share for its host.
 * Marked paid, the amount transferred is written to the ledger. A paid payout is final: the same
 * request again answers it unchanged, anything else is a 409 naming the reversal.
 */
export async function updatePayout(ctx: AppContext, admin: UserRow, bookingIdOrNumber: string, body: z.output<typeof updatePayoutBodySchema>): Promise<Earning> {
  const booking = await findBookingById(ctx, bookingIdOrNumber);
  if (!booking) throw notFound('Earning not found');
  if (booking.status !== 'completed' && booking.payment_status !== 'paid') throw conflict('Only completed or paid bookings have a payout.');
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
      // A transfer under way is answered by the bank (decision 068); marking it by hand would pay it twice.
      if (current.payout_status === 'processing' && current.payout_reference?.startsWith('KAROO-PO-')) {
        throw conflict(`This payout is being sent by transfer ${current.payout_reference}: its outcome is recorded when the bank answers.`);
      }
      if (body.payout_status !== 'pending' && !FINAL_STATUSES.includes(current.status)) {
        throw conflict(`Only a completed trip can be paid out: this booking is ${current.status}.`);
      }
      let paidCents = 0;
      if (body.payout_status === 'paid') {
        await ledger.lockHostPayouts(tx.db, booking.owner_id);
        paidCents = await payableNow(tx.db, booking);
      }
      if (!(await setBookingPayout(tx.db, booking.id, { payout_status: body.payout_status, payout_reference: body.payout_reference }, tx.now))) {
        throw conflict(paidIsFinal(current.booking_number));
      }
      const reference = body.payout_reference ?? current.payout_reference;
      if (paidCents > 0) await ledger.recordPayout(tx.db, partiesOf(booking), { amountCents: paidCents, reference, at: tx.now, actorId: admin.id });
      tx.emit({
        type: 'payout.updated',
        bookingId: booking.id,
        bookingNumber: booking.booking_number,
        before: { payout_status: current.payout_status, payout_reference: current.payout_reference },
        after: { payout_status: body.payout_status, payout_reference: reference, ...(body.payout_status === 'paid' ? { amount: rand(paidCents) } : {}) },
      });
    },
    { by: admin },
  );
  const updated = await earningRecordOf(ctx.db, booking.id);
  if (!updated) throw notFound('Earning not found');
  return toEarning(updated);
}

/**
 * POST /earnings/admin/payouts/{id}/reverse (admin): the one way a paid payout changes. The
 * reversal is kept as its own row (what was paid, its reference and time, the reason, who, when)
 * and as a ledger row of what was transferred, and audited with the payout before and after; the
 * trip's payout is pending (owed) again.
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
      await ledger.lockHostPayouts(tx.db, booking.owner_id);
      const paidCents = await ledger.paidOutOfBooking(tx.db, booking.id);
      await repo.insertPayoutReversal(tx.db, current, { amountCents: paidCents, reason, by: admin }, tx.now);
      if (paidCents > 0) {
        await ledger.recordPayoutReversal(tx.db, partiesOf(booking), { amountCents: paidCents, reference: current.payout_reference, reason, at: tx.now, actorId: admin.id });
      }
      tx.emit({
        type: 'payout.reversed',
        bookingId: booking.id,
        bookingNumber: booking.booking_number,
        hostId: booking.owner_id,
        amountCents: paidCents,
        before: { payout_status: 'paid', payout_reference: current.payout_reference, payout_at: iso(current.payout_at), amount: rand(paidCents) },
        after: { payout_status: 'pending', payout_reference: null, payout_at: null },
        reason,
      });
    },
    { by: admin },
  );
  const updated = await earningRecordOf(ctx.db, booking.id);
  if (!updated) throw notFound('Payout not found');
  return toEarning(updated);
}

// ---- Admin Finance (GET /earnings/admin/finance and /earnings/admin/transactions.csv) ----

/** Johannesburg dates `from` to `to`, both included, as instants [start, end). */
function rangeOf(query: AdminFinanceQuery): ledger.MovedRange {
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
const monthRange = (month: string): ledger.MovedRange => ({ start: startOfDay(`${month}-01`), end: startOfDay(`${monthAfter(month)}-01`) });

function toTotals(m: ledger.PeriodMoney): FinanceTotals {
  return {
    gross: rand(ledger.grossOf(m)),
    host_earnings: rand(m.hostEarningsCents),
    platform_revenue: rand(m.platformRevenueCents),
    service_fees: rand(m.serviceFeesCents),
    insurance: rand(m.insuranceCents),
    host_fees: rand(ledger.hostFeesOf(m)),
    host_fee_rates: m.hostFeeRates,
    service_fee_rates: m.serviceFeeRates,
    bookings: m.paidTrips,
    charged: rand(m.chargedCents),
    refunds: rand(m.refundedCents),
    cancellation_fees: rand(m.cancellationFeesCents),
    penalties: rand(m.penaltiesCents),
    paid_out: rand(m.paidOutCents),
  };
}

/** A booking's money on one day, named. */
interface TransactionLine {
  money: ledger.BookingDayMoney;
  booking: BookingDetails;
  /** The booking's host share to date (all time), in cents. */
  hostShareCents: number;
}

/** One page of the period's money, a line per booking and day, newest first (the recent list and the CSV). */
async function transactionLines(db: Db, range: ledger.MovedRange, page: { limit: number; after?: ledger.BookingDayCursor; withHostShare?: boolean }): Promise<TransactionLine[]> {
  const lines = await ledger.sumMoneyByBookingDay(db, range, page);
  const ids = lines.map((l) => l.bookingId);
  // The host share to date only where a payout badge is drawn (the recent list; the CSV has none).
  const [bookings, totals] = await Promise.all([repo.findBookingDetails(db, ids), page.withHostShare ? ledger.moneyOfBookings(db, ids) : new Map<string, ledger.BookingMoney>()]);
  // Every ledger row has its booking (a foreign key), so every line is named.
  return lines.map((money) => ({ money, booking: bookings.get(money.bookingId)!, hostShareCents: totals.get(money.bookingId)?.hostShareCents ?? 0 }));
}

function toTransaction({ money: m, booking: b, hostShareCents }: TransactionLine): FinanceTransaction {
  return {
    id: `${m.bookingId}:${m.day}`,
    booking_id: m.bookingId,
    booking_number: b.booking_number,
    car_username: b.car_username,
    car_name: `${b.car_make} ${b.car_model}`,
    renter_username: b.renter_username,
    host_username: b.host_username,
    date: m.firstMovedAt.toISOString(),
    day: m.day,
    charged: rand(m.chargedCents),
    refunded: rand(m.refundedCents),
    gross: rand(ledger.grossOf(m)),
    service_fee: rand(m.serviceFeesCents),
    insurance: rand(m.insuranceCents),
    host_fee: rand(ledger.hostFeesOf(m)),
    cancellation_fee: rand(m.cancellationFeesCents),
    host_earnings: rand(m.hostEarningsCents),
    app_fee: rand(m.platformRevenueCents),
    penalty: rand(m.penaltiesCents),
    paid_out: rand(m.paidOutCents),
    status: b.status,
    payout_status: b.payout_status,
    host_share: rand(hostShareCents),
  };
}

async function topCars(db: Db, range: ledger.MovedRange, limit: number): Promise<ProfitPerCar[]> {
  const sums = await ledger.sumMoneyByCar(db, range, limit);
  const cars = await repo.findCarDetails(db, sums.map((s) => s.carId));
  return sums.flatMap((m) => {
    const car = cars.get(m.carId);
    return car ? [toProfitPerCar(car, m)] : [];
  });
}

/**
 * What each host is owed today (the ledger's balance: shares of final trips, less penalties and
 * payouts, plus reversals), with the final trips not yet paid out that carry a share: marking
 * those paid transfers the balance (each booking's share, less any penalty still owed).
 */
async function payoutsOwed(db: Db): Promise<AdminFinance['payouts']> {
  const balances = await ledger.hostBalancesOwed(db);
  const hostIds = balances.map((b) => b.hostId);
  const [people, payable] = await Promise.all([repo.findPeople(db, hostIds), ledger.payableFinalTrips(db, hostIds)]);
  const byHost = new Map<string, string[]>();
  for (const p of payable) byHost.set(p.hostId, [...(byHost.get(p.hostId) ?? []), p.bookingId]);
  return balances
    .map(({ hostId, balanceCents }) => {
      const host = people.get(hostId);
      const bookingIds = byHost.get(hostId) ?? [];
      return {
        host_id: hostId,
        host_username: host?.username ?? '',
        host_name: host?.full_name || host?.username || '',
        bookings: bookingIds.length,
        amount_owed: rand(balanceCents),
        booking_ids: bookingIds,
      };
    })
    .sort((a, b) => b.amount_owed - a.amount_owed || a.host_username.localeCompare(b.host_username));
}

async function paidPayouts(db: Db, limit: number): Promise<AdminFinance['paid_payouts']> {
  const payouts = await ledger.standingPayouts(db, limit);
  const bookings = await repo.findBookingDetails(db, payouts.map((p) => p.bookingId));
  return payouts.flatMap((p) => {
    const b = bookings.get(p.bookingId);
    if (!b) return [];
    return [
      {
        booking_id: p.bookingId,
        booking_number: b.booking_number,
        host_id: p.hostId,
        host_username: b.host_username,
        host_name: b.host_name || b.host_username,
        car_name: `${b.car_make} ${b.car_model}`,
        amount: rand(p.amountCents),
        payout_reference: p.reference,
        paid_at: p.paidAt.toISOString(),
      },
    ];
  });
}

async function payoutReversals(db: Db, limit: number): Promise<AdminFinance['payout_reversals']> {
  const reversals = await ledger.latestPayoutReversals(db, limit);
  const [bookings, admins] = await Promise.all([
    repo.findBookingDetails(db, reversals.map((r) => r.bookingId)),
    repo.findPeople(db, reversals.flatMap((r) => (r.actorId ? [r.actorId] : []))),
  ]);
  return reversals.flatMap((r) => {
    const b = bookings.get(r.bookingId);
    if (!b) return [];
    return [
      {
        id: r.id,
        booking_id: r.bookingId,
        booking_number: b.booking_number,
        host_username: b.host_username,
        amount: rand(r.amountCents),
        payout_reference: r.reference,
        paid_at: iso(r.paidAt),
        reason: r.reason ?? '',
        reversed_by: (r.actorId ? admins.get(r.actorId)?.username : undefined)?.toLowerCase() ?? '',
        reversed_at: r.reversedAt.toISOString(),
      },
    ];
  });
}

/** How many paid payouts and reversals the Finance tab lists (the newest). */
const FINANCE_PAID_PAYOUTS = 20;
const FINANCE_PAYOUT_REVERSALS = 10;

export async function adminFinance(ctx: AppContext, query: AdminFinanceQuery): Promise<AdminFinance> {
  const range = rangeOf(query);
  const thisMonth = monthIn(ctx.clock.now());
  const lastMonth = monthBefore(thisMonth);
  const [settings, totals, top, recent, current, previous, payouts, paid, reversals] = await Promise.all([
    getSettings(ctx),
    ledger.sumMoneyMoved(ctx.db, range),
    topCars(ctx.db, range, 5),
    transactionLines(ctx.db, range, { limit: 10, withHostShare: true }),
    ledger.sumMoneyMoved(ctx.db, monthRange(thisMonth)),
    ledger.sumMoneyMoved(ctx.db, monthRange(lastMonth)),
    payoutsOwed(ctx.db),
    paidPayouts(ctx.db, FINANCE_PAID_PAYOUTS),
    payoutReversals(ctx.db, FINANCE_PAYOUT_REVERSALS),
  ]);
  return {
    period: { from: query.from ?? null, to: query.to ?? null },
    totals: toTotals(totals),
    fee_structure: { platform_fee: settings.platform_fee, platformCommission: settings.platformCommission },
    top_cars: top,
    recent_transactions: recent.map(toTransaction),
    month_over_month: { this_month: thisMonth, last_month: lastMonth, current: toTotals(current), previous: toTotals(previous) },
    payouts,
    paid_payouts: paid,
    payout_reversals: reversals,
  };
}

const CSV_PAGE = 1000;

/**
 * The period's money as CSV lines, header first, a line per booking and day its money moved, read
 * a page at a time. Only what moved that day (no state of today), so a closed period's file never
 * changes. Names typed by people (car, renter, host) go through lib/csv's formula guard; money goes
 * as numbers.
 */
export async function* transactionsCsv(ctx: AppContext, query: AdminFinanceQuery): AsyncGenerator<string> {
  const range = rangeOf(query);
  yield csvLines([FINANCE_CSV_HEADER], { decimals: 2 });
  // Each page starts after the last line of the one before (not at an offset, which would read
  // every line before it again): the file costs its own lines.
  for (let after: ledger.BookingDayCursor | undefined; ; ) {
    const page = await transactionLines(ctx.db, range, { limit: CSV_PAGE, ...(after ? { after } : {}) });
    after = page.at(-1)?.money.cursor;
    const lines = page.map(({ money: m, booking: b }) => [
      m.day,
      b.booking_number,
      `${b.car_make} ${b.car_model} (${b.car_username})`,
      b.renter_username,
      b.host_username,
      rand(m.chargedCents),
      rand(m.refundedCents),
      rand(m.serviceFeesCents),
      rand(m.insuranceCents),
      rand(ledger.hostFeesOf(m)),
      rand(m.cancellationFeesCents),
      rand(m.hostEarningsCents),
      rand(m.platformRevenueCents),
      rand(m.penaltiesCents),
      rand(m.paidOutCents),
    ]);
    if (lines.length > 0) yield csvLines(lines, { decimals: 2 });
    if (page.length < CSV_PAGE) return;
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
    ledger.sumPlatformRevenueByWeek(ctx.db, range),
    repo.analyticsBookingFigures(ctx.db, range),
    repo.analyticsAverageTripDays(ctx.db, range),
    repo.analyticsAverageRating(ctx.db, range),
    repo.analyticsBusiestCities(ctx.db, range, 5),
    repo.analyticsUtilisation(ctx.db, range),
  ]);
  const bookingsByWeek = new Map(weeklyBookings.map((w) => [w.week_start, w.count]));
  // The platform's revenue by when it moved (a cancellation's correction in its own week).
  const revenueByWeek = new Map(weeklyRevenue.map((w) => [w.weekStart, w.cents]));
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
