// Sums of the ledger for every money screen and export (issue 20; docs/decisions/039-one-ledger.md):
// host earnings, invoices, admin Finance, its CSV, payouts and analytics read their money here.
// Every period figure counts the rows whose money moved in the period (moved_at, Johannesburg
// dates at the edges), so a closed period never changes: a trip returned, cancelled or paid out
// later adds rows on those later days and leaves the earlier ones as they were.
//
// What the sums mean:
// - gross: what renters paid that Karoo and the host keep, the host's and the platform's shares of
//   the charges (a cancellation takes its shares back on its own day, less the fee kept);
// - charged and refunded: money in from renters' cards and money back to them (a refund counts when
//   the provider accepted it; one still pending or failed has not moved);
// - a paid trip: a booking whose shares that moved in the period sum to more than nothing, money
//   Karoo and the host keep (a trip paid, or a cancellation's fee): a trip refunded in full in the
//   period it was paid is no paid trip, and a refund in a later period takes the trip out of that
//   period's count, never out of the count of the period it was paid in (decision 056).
import { TIME_ZONE } from '@karoo/shared';
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../db/connection';
import { COUNTS_FOR_HOST, HOST_BALANCE_PART, PAID_OUT_PART } from './ledger.rules';

/** A half-open range of instants [start, end) of when money moved; either side may be open. */
export interface MovedRange {
  start?: Date;
  end?: Date;
}

/** The money of a set of rows, in cents. */
export interface MoneySums {
  chargedCents: number;
  refundedCents: number;
  hostEarningsCents: number;
  platformRevenueCents: number;
  /** Of the platform's revenue: the renters' service fees and insurance (the rest is the host fee, on rentals and on cancellation fees). */
  serviceFeesCents: number;
  insuranceCents: number;
  /** Cancellation fees kept from renters: the host's part and the platform's. */
  cancellationFeesCents: number;
  penaltiesCents: number;
  /** Paid out to hosts, less what was reversed. */
  paidOutCents: number;
  /** Bookings whose charge was shared (paid trips). */
  paidTrips: number;
  /** Deposits taken with trips, given back, and applied to claims (decision 064): held money, never revenue. */
  depositsTakenCents: number;
  depositsReleasedCents: number;
  depositsAppliedCents: number;
}

/** gross = host earnings + platform revenue: what renters paid and nobody gave back. */
export const grossOf = (m: MoneySums) => m.hostEarningsCents + m.platformRevenueCents;
/** The host fee: the platform's revenue less the renters' service fees and insurance. */
export const hostFeesOf = (m: MoneySums) => m.platformRevenueCents - m.serviceFeesCents - m.insuranceCents;

const isShare = sql<boolean>`l.kind IN ('host_earning', 'platform_fee')`;

const centsWhere = (condition: RawBuilder<unknown>) => sql<string>`coalesce(sum(l.amount_cents) FILTER (WHERE ${condition}), 0)`;

/**
 * The select list every sum uses (over ledger_entries as l, succeeded rows). A group of one booking's
 * rows counts it a paid trip when its shares keep money (`perBooking`); a group of many bookings
 * counts them with countPaidTrips, as a sum cannot see each booking's net inside it.
 */
function moneyColumns(paidTrips: 'perBooking' | 'countedApart') {
  return [
    centsWhere(sql`l.kind = 'charge'`).as('charged'),
    centsWhere(sql`l.kind = 'refund' AND l.code <> 'deposit_release'`).as('refunded'),
    centsWhere(sql`l.kind = 'deposit'`).as('deposits_taken'),
    centsWhere(sql`l.kind = 'refund' AND l.code = 'deposit_release'`).as('deposits_released'),
    centsWhere(sql`l.kind = 'deposit_applied'`).as('deposits_applied'),
    centsWhere(sql`l.kind = 'host_earning'`).as('host_earnings'),
    centsWhere(sql`l.kind = 'platform_fee'`).as('platform_revenue'),
    centsWhere(sql`l.kind = 'platform_fee' AND l.code IN ('service_fee', 'service_fee_cancelled')`).as('service_fees'),
    centsWhere(sql`l.kind = 'platform_fee' AND l.code IN ('insurance', 'insurance_cancelled')`).as('insurance'),
    centsWhere(sql`${isShare} AND l.code = 'cancellation_fee'`).as('cancellation_fees'),
    centsWhere(sql`l.kind = 'host_penalty'`).as('penalties'),
    sql<string>`coalesce(sum(${PAID_OUT_PART}), 0)`.as('paid_out'),
    (paidTrips === 'perBooking' ? sql<string>`CASE WHEN ${centsWhere(isShare)} > 0 THEN 1 ELSE 0 END` : sql<string>`0`).as('paid_trips'),
  ] as const;
}

interface MoneyRow {
  charged: string | number;
  refunded: string | number;
  host_earnings: string | number;
  platform_revenue: string | number;
  service_fees: string | number;
  insurance: string | number;
  cancellation_fees: string | number;
  penalties: string | number;
  paid_out: string | number;
  paid_trips: string | number;
  deposits_taken: string | number;
  deposits_released: string | number;
  deposits_applied: string | number;
}

function toMoney(r: MoneyRow): MoneySums {
  return {
    chargedCents: Number(r.charged),
    refundedCents: Number(r.refunded),
    hostEarningsCents: Number(r.host_earnings),
    platformRevenueCents: Number(r.platform_revenue),
    serviceFeesCents: Number(r.service_fees),
    insuranceCents: Number(r.insurance),
    cancellationFeesCents: Number(r.cancellation_fees),
    penaltiesCents: Number(r.penalties),
    paidOutCents: Number(r.paid_out),
    paidTrips: Number(r.paid_trips),
    depositsTakenCents: Number(r.deposits_taken),
    depositsReleasedCents: Number(r.deposits_released),
    depositsAppliedCents: Number(r.deposits_applied),
  };
}

/** The rows whose money moved in the range (pending and failed refunds have not moved). */
function movedIn(db: Db, range: MovedRange) {
  let query = db.selectFrom('ledger_entries as l').where('l.state', '=', 'succeeded');
  if (range.start) query = query.where('l.moved_at', '>=', range.start);
  if (range.end) query = query.where('l.moved_at', '<', range.end);
  return query;
}

/** A Johannesburg calendar part of when a row's money moved ('YYYY-MM' or a week's Monday; the day: localDate below). */
const localMonth = sql<string>`to_char(l.moved_at AT TIME ZONE ${sql.lit(TIME_ZONE)}, 'YYYY-MM')`;
const localWeek = sql<string>`to_char(date_trunc('week', l.moved_at AT TIME ZONE ${sql.lit(TIME_ZONE)}), 'YYYY-MM-DD')`;

/**
 * Paid trips by group ('' for all, a 'YYYY-MM' month, a car id): the bookings whose shares that
 * moved in the range, within the group, sum to more than nothing.
 */
async function countPaidTrips(db: Db, range: MovedRange, by: 'all' | 'month' | 'car', filter: { hostId?: string; carIds?: readonly string[] } = {}): Promise<Map<string, number>> {
  if (filter.carIds?.length === 0) return new Map();
  const key = by === 'month' ? localMonth : by === 'car' ? sql<string>`b.car_id::text` : sql<string>`''`;
  let query = movedIn(db, range).innerJoin('bookings as b', 'b.id', 'l.booking_id').where(isShare);
  if (filter.hostId) query = query.where('l.host_id', '=', filter.hostId);
  if (filter.carIds) query = query.where('b.car_id', 'in', [...filter.carIds]);
  const kept = query
    .select([key.as('key'), 'l.booking_id'])
    // A constant cannot be grouped by (all bookings are one group): then by booking alone.
    .groupBy(by === 'all' ? ['l.booking_id'] : [key, 'l.booking_id'])
    .having(sql<boolean>`sum(l.amount_cents) > 0`)
    .as('k');
  const rows = await db.selectFrom(kept).select(['k.key', sql<string>`count(*)`.as('trips')]).groupBy('k.key').execute();
  return new Map(rows.map((r) => [r.key, Number(r.trips)]));
}

/** '20.00,25.00' (a string_agg of percentages) as [20, 25]; none as []. */
const ratesOf = (list: string | null) => [...new Set((list ?? '').split(',').filter(Boolean).map(Number))].sort((a, b) => a - b);

export interface PeriodMoney extends MoneySums {
  /** The host fee and service fee rates of the bookings whose shares moved (each booking keeps the rates it was made at). */
  hostFeeRates: number[];
  serviceFeeRates: number[];
}

/** Everything that moved in the range, summed. */
export async function sumMoneyMoved(db: Db, range: MovedRange): Promise<PeriodMoney> {
  const rowQuery = movedIn(db, range)
    .innerJoin('bookings as b', 'b.id', 'l.booking_id')
    .select([
      ...moneyColumns('countedApart'),
      // As text: both databases answer a text the same way, where array types are read differently.
      sql<string | null>`string_agg(DISTINCT b.commission_rate::text, ',') FILTER (WHERE ${isShare})`.as('host_fee_rates'),
      sql<string | null>`string_agg(DISTINCT b.service_fee_rate::text, ',') FILTER (WHERE ${isShare})`.as('service_fee_rates'),
    ])
    .executeTakeFirstOrThrow();
  const [row, trips] = await Promise.all([rowQuery, countPaidTrips(db, range, 'all')]);
  return { ...toMoney(row), paidTrips: trips.get('') ?? 0, hostFeeRates: ratesOf(row.host_fee_rates), serviceFeeRates: ratesOf(row.service_fee_rates) };
}

/** The cars whose shares moved in the range, most platform revenue first (then gross), at most `limit`. */
export async function sumMoneyByCar(db: Db, range: MovedRange, limit: number): Promise<(MoneySums & { carId: string })[]> {
  const rows = await movedIn(db, range)
    .innerJoin('bookings as b', 'b.id', 'l.booking_id')
    .where(isShare)
    .select(['b.car_id', ...moneyColumns('countedApart')])
    .groupBy('b.car_id')
    .orderBy(sql`sum(l.amount_cents) FILTER (WHERE l.kind = 'platform_fee')`, 'desc')
    .orderBy(sql`sum(l.amount_cents)`, 'desc')
    .orderBy('b.car_id')
    .limit(limit)
    .execute();
  const trips = await countPaidTrips(db, range, 'car', { carIds: rows.map((r) => r.car_id) });
  return rows.map((r) => ({ carId: r.car_id, ...toMoney(r), paidTrips: trips.get(r.car_id) ?? 0 }));
}

/** One booking's money on one Johannesburg day: a line of Finance's transactions and its CSV. */
export interface BookingDayMoney extends MoneySums {
  bookingId: string;
  /** 'YYYY-MM-DD' in Johannesburg. */
  day: string;
  /** The first movement of that day. */
  firstMovedAt: Date;
  /** Where the next page starts (pass it as `after`): the line's place in the order, to the microsecond. */
  cursor: BookingDayCursor;
}

/** A line's place in newest-first order: its day, its first movement (as PostgreSQL wrote it) and its booking. */
export interface BookingDayCursor {
  day: string;
  firstMovedAt: string;
  bookingId: string;
}

/**
 * The Johannesburg date a row's money moved, as migration 0035 indexes it
 * (ledger_entries_day_idx, over the succeeded rows, with the booking and the money), so that the
 * lines below are read newest day first from the index and stop at the page's end.
 */
const localDate = sql<string>`((l.moved_at AT TIME ZONE ${sql.lit(TIME_ZONE)})::date)`;

/**
 * The money that moved in the range, a line per booking and day, newest first (by the day's first
 * movement, then booking), one page: `limit` lines after `after` (the last line of the page
 * before). A line's rows all fall on its day, so ordering by day first is the same order, and it is
 * the index's: the cost follows the page, not the ledger.
 */
export async function sumMoneyByBookingDay(db: Db, range: MovedRange, page: { limit: number; after?: BookingDayCursor }): Promise<BookingDayMoney[]> {
  let query = movedIn(db, range);
  const after = page.after;
  if (after) query = query.where(localDate, '<=', sql<string>`${after.day}::date`);
  const rows = await query
    .select([
      'l.booking_id',
      sql<string>`to_char(${localDate}, 'YYYY-MM-DD')`.as('day'),
      sql<Date>`min(l.moved_at)`.as('first_moved_at'),
      sql<string>`min(l.moved_at)::text`.as('first_moved_cursor'),
      ...moneyColumns('perBooking'),
    ])
    .groupBy([localDate, 'l.booking_id'])
    .$if(!!after, (q) => q.having(sql<boolean>`(${localDate}, min(l.moved_at), l.booking_id) < (${after?.day}::date, ${after?.firstMovedAt}::timestamptz, ${after?.bookingId}::uuid)`))
    .orderBy(localDate, 'desc')
    .orderBy(sql`min(l.moved_at)`, 'desc')
    .orderBy('l.booking_id', 'desc')
    .limit(page.limit)
    .execute();
  return rows.map((r) => ({
    bookingId: r.booking_id,
    day: r.day,
    firstMovedAt: new Date(r.first_moved_at),
    cursor: { day: r.day, firstMovedAt: r.first_moved_cursor, bookingId: r.booking_id },
    ...toMoney(r),
  }));
}

/**
 * The final trips (completed, or cancelled) of these hosts whose payout is not paid yet and that
 * carry a share for their host (their host_earning rows sum to more than nothing), by id: what
 * marking them paid would transfer. Read from the unpaid final trips' index and each one's own
 * ledger rows (migration 0035), not from every row of the ledger.
 */
export async function payableFinalTrips(db: Db, hostIds: readonly string[]): Promise<{ bookingId: string; hostId: string }[]> {
  if (hostIds.length === 0) return [];
  const rows = await db
    .selectFrom('bookings as b')
    .select(['b.id', 'b.owner_id'])
    .where('b.owner_id', 'in', [...new Set(hostIds)])
    .where('b.status', 'in', ['completed', 'cancelled'])
    .where('b.payout_status', '!=', 'paid')
    .where(sql<boolean>`(SELECT coalesce(sum(l.amount_cents), 0) FROM ledger_entries l WHERE l.booking_id = b.id AND l.kind = 'host_earning') > 0`)
    .orderBy('b.id')
    .execute();
  return rows.map((r) => ({ bookingId: r.id, hostId: r.owner_id }));
}

/** Whose bookings: one host's, one car's, or these bookings. */
export interface BookingFilter {
  hostId?: string;
  carId?: string;
  bookingIds?: readonly string[];
}

export interface BookingMoneyTotal extends MoneySums {
  bookingId: string;
  /** The last time its money moved (the newest first in lists). */
  lastMovedAt: Date;
}

/**
 * All-time money of each booking that earned or cost its host something: a charge shared (even if
 * a cancellation took it back since) or a penalty. Newest movement first.
 */
export async function sumMoneyByBooking(db: Db, filter: BookingFilter): Promise<BookingMoneyTotal[]> {
  if (filter.bookingIds?.length === 0) return [];
  let query = movedIn(db, {});
  if (filter.hostId) query = query.where('l.host_id', '=', filter.hostId);
  if (filter.bookingIds) query = query.where('l.booking_id', 'in', [...new Set(filter.bookingIds)]);
  if (filter.carId) {
    const carId = filter.carId;
    query = query.where('l.booking_id', 'in', (eb) => eb.selectFrom('bookings').select('id').where('car_id', '=', carId));
  }
  const rows = await query
    .select(['l.booking_id', sql<Date>`max(l.moved_at)`.as('last_moved_at'), ...moneyColumns('perBooking')])
    .groupBy('l.booking_id')
    .having(sql<boolean>`count(*) FILTER (WHERE ${isShare} OR l.kind = 'host_penalty') > 0`)
    .orderBy(sql`max(l.moved_at)`, 'desc')
    .orderBy('l.booking_id', 'desc')
    .execute();
  return rows.map((r) => ({ bookingId: r.booking_id, lastMovedAt: new Date(r.last_moved_at), ...toMoney(r) }));
}

/** The money of one host's bookings (or everyone's) by Johannesburg month of when it moved ('YYYY-MM'), oldest first. */
export async function sumMoneyByMonth(db: Db, filter: { hostId?: string }): Promise<(MoneySums & { month: string })[]> {
  let query = movedIn(db, {}).where(sql<boolean>`(${isShare} OR l.kind = 'host_penalty')`);
  if (filter.hostId) query = query.where('l.host_id', '=', filter.hostId);
  const [rows, trips] = await Promise.all([
    query.select([localMonth.as('month'), ...moneyColumns('countedApart')]).groupBy(localMonth).orderBy(localMonth).execute(),
    countPaidTrips(db, {}, 'month', filter),
  ]);
  return rows.map((r) => ({ month: r.month, ...toMoney(r), paidTrips: trips.get(r.month) ?? 0 }));
}

/** The platform's revenue per week (the Monday, Johannesburg) of when it moved, in the range. */
export async function sumPlatformRevenueByWeek(db: Db, range: MovedRange): Promise<{ weekStart: string; cents: number }[]> {
  const rows = await movedIn(db, range)
    .where('l.kind', '=', 'platform_fee')
    .select([localWeek.as('week_start'), sql<string>`coalesce(sum(l.amount_cents), 0)`.as('cents')])
    .groupBy(localWeek)
    .execute();
  return rows.map((r) => ({ weekStart: r.week_start, cents: Number(r.cents) }));
}

/**
 * What each host is owed (hostBalanceCents for every host at once): shares of final trips less
 * penalties, less payouts, plus reversals. Only hosts with something owed (more than zero).
 */
export async function hostBalancesOwed(db: Db): Promise<{ hostId: string; balanceCents: number }[]> {
  const balance = sql<string>`coalesce(sum(${HOST_BALANCE_PART}), 0)`;
  // Payouts under way count as paid (a transfer sent is not owed twice; decision 068).
  const rows = await db
    .selectFrom('ledger_entries as l')
    .where(COUNTS_FOR_HOST)
    .innerJoin('bookings as b', 'b.id', 'l.booking_id')
    .select(['l.host_id', balance.as('balance')])
    .groupBy('l.host_id')
    .having(sql<boolean>`${balance} > 0`)
    .execute();
  return rows.map((r) => ({ hostId: r.host_id, balanceCents: Number(r.balance) })).sort((a, b) => b.balanceCents - a.balanceCents);
}

/** A payout made for one booking. */
export interface PayoutRecord {
  id: string;
  bookingId: string;
  hostId: string;
  amountCents: number;
  reference: string | null;
  paidAt: Date;
}

/** The payouts that stand (none reversed after them), newest first. */
export async function standingPayouts(db: Db, limit: number): Promise<PayoutRecord[]> {
  const rows = await db
    .selectFrom('ledger_entries as l')
    .select(['l.id', 'l.booking_id', 'l.host_id', 'l.amount_cents', 'l.provider_reference', 'l.moved_at'])
    .where('l.kind', '=', 'payout')
    .where('l.state', '=', 'succeeded')
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('ledger_entries as r').select('r.id').whereRef('r.booking_id', '=', 'l.booking_id').where('r.kind', '=', 'payout_reversal').whereRef('r.seq', '>', 'l.seq'))),
    )
    .orderBy('l.moved_at', 'desc')
    .orderBy('l.seq', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ id: r.id, bookingId: r.booking_id, hostId: r.host_id, amountCents: Number(r.amount_cents), reference: r.provider_reference, paidAt: new Date(r.moved_at!) }));
}

export interface PayoutReversalRecord {
  id: string;
  bookingId: string;
  amountCents: number;
  reference: string | null;
  reason: string | null;
  actorId: string | null;
  reversedAt: Date;
  /** When the payout it took back was made. */
  paidAt: Date | null;
}

/** The payout reversals, newest first. */
export async function latestPayoutReversals(db: Db, limit: number): Promise<PayoutReversalRecord[]> {
  const rows = await db
    .selectFrom('ledger_entries as l')
    .select([
      'l.id',
      'l.booking_id',
      'l.amount_cents',
      'l.provider_reference',
      'l.reason',
      'l.actor_id',
      'l.moved_at',
      (eb) =>
        eb
          .selectFrom('ledger_entries as p')
          .select('p.moved_at')
          .whereRef('p.booking_id', '=', 'l.booking_id')
          .where('p.kind', '=', 'payout')
          .whereRef('p.seq', '<', 'l.seq')
          .orderBy('p.seq', 'desc')
          .limit(1)
          .as('paid_at'),
    ])
    .where('l.kind', '=', 'payout_reversal')
    .orderBy('l.moved_at', 'desc')
    .orderBy('l.seq', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    bookingId: r.booking_id,
    amountCents: Number(r.amount_cents),
    reference: r.provider_reference,
    reason: r.reason,
    actorId: r.actor_id,
    reversedAt: new Date(r.moved_at!),
    paidAt: r.paid_at ? new Date(r.paid_at) : null,
  }));
}

/** What was paid out for one booking and not reversed. */
export async function paidOutOfBooking(db: Db, bookingId: string): Promise<number> {
  const row = await db
    .selectFrom('ledger_entries as l')
    .where(sql<boolean>`(l.state = 'succeeded' OR (l.kind = 'payout' AND l.state = 'pending'))`)
    .where('l.booking_id', '=', bookingId)
    .select(sql<string>`coalesce(sum(${PAID_OUT_PART}), 0)`.as('paid'))
    .executeTakeFirstOrThrow();
  return Number(row.paid);
}

/**
 * Holds one host's payouts for the caller's transaction: a payout is the host's balance at that
 * moment, so two payouts of one host are worked out one after the other, never from one balance.
 */
export async function lockHostPayouts(db: Db, hostId: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext(${`karoo.host-payouts:${hostId}`}))`.execute(db);
}

/** One party's money on the booking stats (GET /booking/getStats): what their cars earned, and what they spent as a renter. */
export interface PartyMoney {
  /** Shares of the charges on the host's cars (or the platform's, for all): what renters paid and kept paid. */
  grossCents: number;
  hostEarningsCents: number;
  platformRevenueCents: number;
  /** What the renter paid and was not given back (the shares of their charges). */
  spentCents: number;
}

/** Sums for one user's stats (a host's cars, a renter's trips), or for the whole platform without one. */
export async function sumPartyMoney(db: Db, userId: string | undefined): Promise<PartyMoney> {
  const share = sql`l.kind IN ('host_earning', 'platform_fee')`;
  const asHost = userId ? sql`${share} AND l.host_id = ${userId}` : share;
  const asRenter = userId ? sql`${share} AND l.renter_id = ${userId}` : share;
  const row = await db
    .selectFrom('ledger_entries as l')
    .where('l.state', '=', 'succeeded')
    .select([
      centsWhere(asHost).as('gross'),
      centsWhere(sql`${asHost} AND l.kind = 'host_earning'`).as('host_earnings'),
      centsWhere(sql`${asHost} AND l.kind = 'platform_fee'`).as('platform_revenue'),
      centsWhere(asRenter).as('spent'),
    ])
    .executeTakeFirstOrThrow();
  return {
    grossCents: Number(row.gross),
    hostEarningsCents: Number(row.host_earnings),
    platformRevenueCents: Number(row.platform_revenue),
    spentCents: Number(row.spent),
  };
}
