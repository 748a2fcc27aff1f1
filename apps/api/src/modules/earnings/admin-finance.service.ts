// Admin Finance: the totals, a period against the one before, the transactions and their CSV, top
// cars, payouts owed and paid, every figure a ledger sum (decisions 039 and 061).
import { FINANCE_CSV_HEADER, midnightAfter, monthIn, startOfDay, todayIn, type AdminFinance, type AdminFinanceQuery, type FinanceTotals, type FinanceTransaction, type ProfitPerCar } from '@karoo/shared';
import type { AppContext } from '../../context';
import type { Db } from '../../db/connection';
import { csvLines } from '../../lib/csv';
import * as ledger from '../ledger';
import { getSettings } from '../settings';
import * as repo from './earnings.repository';
import type { BookingDetails } from './earnings.repository';
import { rand, iso, toProfitPerCar } from './earnings.money';

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
