// Property (issue 20, "One ledger for every rand"): random sequences of what people and providers do
// with money, driven through the routes on the real database with the injected clock: bookings
// requested and accepted, paid once, twice (the second charge refunded) or after the booking expired,
// time passing, cancellations by the renter, the host, a host reporting a no-show and an
// administrator with each refund choice, returns, refund jobs, Paystack queueing refunds, paying
// them out (job or webhook) or refusing them until they fail, an administrator's Retry, payouts and
// their reversals; and (the third property, below "Trip charges and payouts by themselves") trip
// records, the host's trip charges and the renter's answers, deposits released, hosts' bank accounts
// and the payout job on two instances at once. After every step the ledger's invariants hold,
// worked out here from the raw rows (one SELECT of ledger_entries), not through the ledger module's
// own sums, so a mistake there cannot hide itself (5 and 6 are the third property's, see there):
// 1. What the provider holds of each charge is what the ledger says it holds: the provider's books
//    (the sandbox's payments and sandbox_refunds; the Paystack stub's transactions and refunds) and
//    the ledger agree on each reference's charge and on what was paid back of it.
// 2. Every booking balances: its charges = host share + platform share + refunds, and each part is
//    what the test expects (the booking's price, the cancellation quote shown before confirming).
// 3. What each host is owed (shares of final trips − penalties − payouts + reversals) is the same
//    from the rows, from the ledger module and on admin Finance, and equals the test's own model.
// 4. No row was changed, except a pending refund settling once; none disappeared.
// Each run has its own hosts and cars and is judged on its own bookings only, so a shrunk
// counterexample is not blamed for an earlier run's rows. Replay a failure with the seed and path
// fast-check prints: FC_SEED=<seed> FC_PATH=<path> (helpers/property.ts).
import fc from 'fast-check';
import { sql } from 'kysely';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  claimSplit,
  localInstant,
  nextRunDay,
  SANDBOX_DECLINED_CARD,
  SANDBOX_DECLINES_LATER_CARD,
  SANDBOX_SUCCESS_CARD,
  todayIn,
  type CancellationQuote,
  type PaymentSession,
  type TripChargeKind,
} from '@karoo/shared';
import { connectServer } from '../src/db/connection';
import type { BookingRow, CarRow, LedgerKind, LedgerState } from '../src/db/schema';
import { DEPOSIT_RELEASE_CODE, depositHeldCents, hostBalanceCents, sumBookingMoney } from '../src/modules/ledger';
import { runPayouts, syncTransfers } from '../src/modules/payouts';
import { getSettings } from '../src/modules/settings';
import { releaseDueDeposits, settleOverdueClaims } from '../src/modules/trips/trip-claims.service';
import { authHeader, createTestApp, createUser, HOUR, login, MINUTE, multipart, type TestApp, type TestUser } from './helpers';
import { startPaystackStub, type PaystackStub } from './helpers/bookings';
import { propertyRuns } from './helpers/property';
import { createTestCar, INSURANCE_STANDARD, PICKUP_AIRPORT, PICKUP_HOME } from './helpers/vehicles';

const START = '2030-03-02T06:00:00.000Z';
const ALLOWED = new Set([200, 201, 400, 402, 403, 404, 409]);
const cents = (rand: number) => Math.round(rand * 100);

// ---- The actions ----

type Canceller = 'renter' | 'host' | 'no_show' | 'admin';
const trip = fc.nat(7);
const booking = {
  car: fc.nat(1),
  inDays: fc.nat(4),
  days: fc.integer({ min: 1, max: 5 }),
  hourly: fc.boolean(),
  pickup: fc.constantFrom(null, PICKUP_HOME.id, PICKUP_AIRPORT.id),
  insured: fc.boolean(),
};
/** once: one charge; twice: a declined checkout, a second one, then both charged; late: the charge arrives a day after the checkout opened. */
const payment = { how: fc.constantFrom('once' as const, 'once' as const, 'once' as const, 'twice' as const, 'late' as const), webhook: fc.boolean() };
// Weighted towards trips that get paid (requested, accepted and paid in one step), so runs reach
// cancellations, returns and payouts; the single steps still come in any order.
const commonActions = [
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('book' as const), ...booking, ...payment }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('create' as const), ...booking }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('accept' as const), trip }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('pay' as const), trip, ...payment }) },
  // At most 36 hours a step, so the 30-day sessions outlast any sequence.
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('wait' as const), hours: fc.integer({ min: 1, max: 36 }) }) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('cancel' as const),
      trip,
      who: fc.constantFrom<Canceller>('renter', 'host', 'no_show', 'admin'),
      refund: fc.constantFrom('full' as const, 'policy' as const, 'amount' as const),
      // Of what was paid, for an administrator's amount; above 100 % is refused.
      percent: fc.integer({ min: 0, max: 105 }),
    }),
  },
  // The host returns the car, now or once its earliest paid trip has ended.
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('return' as const), car: fc.nat(1), atTripEnd: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('refundJobs' as const), minutes: fc.integer({ min: 0, max: 8 * 60 }) }) },
  // An administrator pays out (or reverses the payout of) a trip that is over, or any trip (mostly refused).
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('payout' as const), trip, over: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('reverse' as const), trip, over: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('retry' as const), pick: fc.nat(3) }) },
];
const paystackActions = [
  // Paystack answers POST /refund with 503 from now on, or normally again.
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('refundsRefused' as const), on: fc.boolean() }) },
  // Paystack pays new refunds out at once, or queues them (accepted, pending).
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('refundsQueued' as const), on: fc.boolean() }) },
  // Paystack pays out the refunds it queued; our job checks, and its refund.processed webhook comes.
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('paystackPaysOut' as const), jobFirst: fc.boolean() }) },
  // Paystack refuses refunds until the job's last try: they end failed (an administrator's Retry next).
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('refundsGiveUp' as const) }) },
];
const sandboxAction = fc.oneof(...commonActions);
const paystackAction = fc.oneof(...commonActions, ...paystackActions);
type Action = typeof paystackAction extends fc.Arbitrary<infer A> ? A : never;

// ---- The world: one app and provider per test, fresh hosts and cars per run ----

interface World {
  t: TestApp;
  /** The Paystack stub, or null for the sandbox provider. */
  stub: PaystackStub | null;
  admin: TestUser;
  renter: TestUser;
  /** A second app on the same database, as a second instance runs the same jobs (the money runs only). */
  other?: TestApp;
}

/** A claim as the model sees it: its lines, and what settling it must have paid. */
interface ModelClaim {
  id: string;
  lines: { kind: TripChargeKind; cents: number }[];
  claimedCents: number;
  answerDueAt: Date;
  status: 'awaiting_renter' | 'disputed' | 'settled';
  settled: { amountCents: number; fromDepositCents: number; cardCents: number; owedCents: number } | null;
}

interface Trip {
  id: string;
  host: number;
  /** The quote shown before a cancellation by the policy that then went through. */
  quote: CancellationQuote | null;
  /** What the test expects paid out to the host for this booking, net of reversals. */
  paidOutCents: number;
  /** Paid with the sandbox card that pays at checkout and is declined when charged again (decision 064). */
  declinesLater: boolean;
  /** The host's trip charges, and what the model says they moved: from the deposit, from the card, the shares. */
  claims: ModelClaim[];
  appliedCents: number;
  claimCardCents: number;
  claimHostCents: number;
  claimPlatformCents: number;
  /** What was left of the deposit went back (the claim window closed with no claim open). */
  depositReleased: boolean;
}

interface LedgerRow {
  id: string;
  seq: string;
  booking_id: string;
  renter_id: string;
  host_id: string;
  kind: LedgerKind;
  code: string;
  amount_cents: number;
  state: LedgerState;
  moved_at: Date | null;
  recorded_at: Date;
  charge_reference: string | null;
  reason: string | null;
  actor_id: string | null;
}

interface Run {
  w: World;
  hosts: TestUser[];
  cars: CarRow[];
  headers: { admin: Record<string, string>; renter: Record<string, string>; hosts: Record<string, string>[] };
  /** When (the test clock) the headers' sessions began: a run can move the clock past their 30 days. */
  signedInAt: number;
  trips: Trip[];
  /** This run's ledger rows as last seen, by id. */
  seen: Map<string, LedgerRow>;
  refundsRefused: boolean;
  /** This run's payout transfers as last seen, by id (the money runs). */
  transfersSeen: Set<string>;
}

/** The cars of the money runs: a small deposit (claims beyond it reach the card), a tank, a daily km allowance and a km rate. */
const CLAIM_CAR = { deposit_cents: 200_000, tank_litres: 48, distance_allowance_km: 200, extra_km_rate_cents: 350 };

/** Everyone of a run signed in with "remember me" (30 days): the clock moves days within a run. */
async function signInAll(w: World, hosts: TestUser[]): Promise<Run['headers']> {
  const headerOf = async (u: TestUser) => authHeader(await login(w.t.app, u.username, undefined, { remember: true }));
  return { admin: await headerOf(w.admin), renter: await headerOf(w.renter), hosts: await Promise.all(hosts.map(headerOf)) };
}

/**
 * People sign in again a week into a run, as they would: a long run (seed 704246189 moved the clock
 * 36 days) otherwise outlives the 30-day sessions and reads 401 where the rule under test answers.
 */
async function keepSignedIn(run: Run): Promise<void> {
  const now = run.w.t.clock.now().getTime();
  if (now - run.signedInAt < 7 * 24 * HOUR) return;
  run.headers = await signInAll(run.w, run.hosts);
  run.signedInAt = now;
}

async function newRun(w: World, prices: readonly number[], carOverrides?: typeof CLAIM_CAR): Promise<Run> {
  const { t } = w;
  w.stub?.failRefund(null);
  if (w.stub) w.stub.newRefundStatus = 'processed';
  const hosts = [await createUser(t.ctx, { role: 'host', verification_status: 'verified' }), await createUser(t.ctx, { role: 'host', verification_status: 'verified' })];
  const cars = await Promise.all(hosts.map((h, i) => createTestCar(t.ctx, h, { price: prices[i]!, ...(carOverrides ? { fuelType: 'Petrol', overrides: carOverrides } : {}) })));
  return {
    w,
    hosts,
    cars,
    headers: await signInAll(w, hosts),
    signedInAt: t.clock.now().getTime(),
    trips: [],
    seen: new Map(),
    refundsRefused: false,
    transfersSeen: new Set(),
  };
}

/** The trip an action names: the newest first, wrapping around. */
const tripOf = (run: Run, n: number): Trip | undefined => run.trips[run.trips.length - 1 - (n % Math.max(1, run.trips.length))];

/** A trip that is over (completed or cancelled) and was paid, if the run has one. */
async function tripOverOf(run: Run, n: number): Promise<Trip | undefined> {
  const bookings = await bookingsOf(run);
  const over = run.trips.filter((x) => FINAL.has(bookings.get(x.id)!.status) && bookings.get(x.id)!.paid_at !== null);
  return over[n % Math.max(1, over.length)];
}

/** A trip whose payout is marked paid, if the run has one. */
async function tripPaidOutOf(run: Run, n: number): Promise<Trip | undefined> {
  const bookings = await bookingsOf(run);
  const paid = run.trips.filter((x) => bookings.get(x.id)!.payout_status === 'paid');
  return paid[n % Math.max(1, paid.length)];
}

function johannesburgDate(at: Date, plusDays: number): string {
  return new Date(at.getTime() + 2 * HOUR + plusDays * 24 * HOUR).toISOString().slice(0, 10);
}

type Reply = { statusCode: number; body: string; json(): unknown };
const dataOf = <T>(res: Reply) => (res.json() as { data: T }).data;

// ---- Paying ----

async function openCheckout(run: Run, id: string): Promise<string | null> {
  const res = await run.w.t.app.inject({ method: 'POST', url: `/api/booking/${id}/payment-session`, headers: run.headers.renter });
  expectAllowed('payment-session', res);
  return res.statusCode === 200 ? dataOf<PaymentSession>(res).reference : null;
}

/**
 * A card's expiry (MM/YY) two years after `now`: the runs move the shared clock on by days at a
 * time, and a fixed year (12/39) was once passed by a long seed, so the card read as expired.
 */
function cardExpiryAfter(now: Date): string {
  return `12/${String((now.getUTCFullYear() + 2) % 100).padStart(2, '0')}`;
}

/** The renter's card charged for a checkout, and the charge reported (sandbox: its checkout settles it; Paystack: the pay call or the webhook). */
async function charge(run: Run, trip: Trip, reference: string, card: string, webhook: boolean, amountCents: number): Promise<void> {
  const { t, stub } = run.w;
  if (!stub) {
    const res = await t.app.inject({ method: 'POST', url: '/api/payments/sandbox/charge', headers: run.headers.renter, payload: { reference, card_number: card, expiry: cardExpiryAfter(t.clock.now()), cvv: '123' } });
    expect(res.statusCode, res.body).toBe(200);
    return;
  }
  stub.settle(reference, { status: card !== SANDBOX_DECLINED_CARD ? 'success' : 'failed', amount: amountCents, currency: 'ZAR' });
  const body = JSON.stringify({ event: 'charge.success', data: { reference } });
  const res =
    webhook && card !== SANDBOX_DECLINED_CARD
      ? await t.app.inject({ method: 'POST', url: '/api/payments/paystack/webhook', headers: { 'content-type': 'application/json', 'x-paystack-signature': stub.sign(body) }, payload: body })
      : await t.app.inject({ method: 'POST', url: `/api/booking/pay/${trip.id}`, headers: run.headers.renter, payload: { paystack_reference: reference } });
  expectAllowed('charge', res);
}

async function pay(run: Run, trip: Trip, how: 'once' | 'twice' | 'late', webhook: boolean): Promise<void> {
  const booking = await bookingOf(run, trip.id);
  // The sandbox's card that pays now and is declined when a claim charges it again (sandbox only).
  const card = trip.declinesLater && !run.w.stub ? SANDBOX_DECLINES_LATER_CARD : SANDBOX_SUCCESS_CARD;
  const first = await openCheckout(run, trip.id);
  if (!first) return;
  if (how === 'once') return charge(run, trip, first, card, webhook, booking.total_price_cents + booking.deposit_cents);
  if (how === 'late') {
    run.w.t.clock.advance(25 * HOUR);
    return charge(run, trip, first, card, webhook, booking.total_price_cents + booking.deposit_cents);
  }
  // Declined, so the renter gets a second checkout; then the first card goes through after all.
  await charge(run, trip, first, SANDBOX_DECLINED_CARD, false, booking.total_price_cents + booking.deposit_cents);
  const second = await openCheckout(run, trip.id);
  if (!second) return;
  await charge(run, trip, second, card, webhook, booking.total_price_cents + booking.deposit_cents);
  await charge(run, trip, first, card, !webhook, booking.total_price_cents + booking.deposit_cents);
}

// ---- Cancelling: the quote first, then the change, which must do what the quote said ----

async function cancel(run: Run, trip: Trip, a: Extract<Action, { kind: 'cancel' }>): Promise<void> {
  const { t } = run.w;
  const booking = await bookingOf(run, trip.id);
  const headers = a.who === 'renter' ? run.headers.renter : a.who === 'admin' ? run.headers.admin : run.headers.hosts[trip.host]!;
  const amount = Math.floor((booking.total_price_cents * a.percent) / 100) / 100;
  const query = a.who === 'no_show' ? '?no_show=true' : a.who === 'admin' ? `?refund=${a.refund}${a.refund === 'amount' ? `&refund_amount=${amount}` : ''}` : '';
  const body =
    a.who === 'no_show'
      ? { no_show: true }
      : a.who === 'admin'
        ? { refund: a.refund, reason: 'Settled with both parties after a dispute.', ...(a.refund === 'amount' ? { refund_amount: amount } : {}) }
        : a.who === 'host'
          ? { reason: 'The car needs a repair.' }
          : {};
  const quoted = await t.app.inject({ method: 'GET', url: `/api/booking/${trip.id}/cancellation${query}`, headers });
  expectAllowed('quote', quoted);
  const quote = quoted.statusCode === 200 ? dataOf<CancellationQuote>(quoted) : null;
  const res = await t.app.inject({ method: 'PATCH', url: `/api/booking/${trip.id}/cancel`, headers, payload: { ...body, ...(quote?.can_cancel ? { expected_refund: quote.refund } : {}) } });
  expectAllowed('cancel', res);
  if (!quote) return;
  // The quote is the policy's whole outcome: what was paid is refunded, or kept as a fee that is shared.
  expect(cents(quote.paid)).toBe(booking.total_price_cents);
  expect(cents(quote.refund) + cents(quote.host_share) + cents(quote.platform_share), JSON.stringify(quote)).toBe(booking.total_price_cents);
  if (quote.can_cancel) {
    expect(res.statusCode, res.body).toBe(200);
    trip.quote = quote;
  } else {
    // Refused as the quote said (a finished or cancelled booking goes to the generic route, which may answer 403).
    expect([403, 409], res.body).toContain(res.statusCode);
  }
}

// ---- Payouts: the admin marks a final trip paid (the host's share, less penalties still owed) or reverses it ----

async function payout(run: Run, trip: Trip): Promise<{ expectedCents: number } | null> {
  const { t } = run.w;
  const owedBefore = (await modelOwed(run))[trip.host]!;
  const before = await bookingOf(run, trip.id);
  const res = await t.app.inject({
    method: 'PATCH',
    url: `/api/earnings/earning/updatePayout/${trip.id}`,
    headers: run.headers.admin,
    payload: { payout_status: 'paid', payout_reference: `EFT-${trip.id.slice(0, 8)}-${run.seen.size}` },
  });
  expectAllowed('payout', res);
  if (res.statusCode !== 200 || before.payout_status === 'paid') return null;
  // What marking it paid transfers: this booking's share, never more than the host is owed in all.
  const expectedCents = Math.max(0, Math.min(expectedShares(trip, before).hostCents, owedBefore));
  trip.paidOutCents += expectedCents;
  return { expectedCents };
}

async function reverse(run: Run, trip: Trip): Promise<{ expectedCents: number } | null> {
  const res = await run.w.t.app.inject({ method: 'POST', url: `/api/earnings/admin/payouts/${trip.id}/reverse`, headers: run.headers.admin, payload: { reason: 'The bank returned the transfer.' } });
  expectAllowed('reverse', res);
  if (res.statusCode !== 200) return null;
  const expectedCents = trip.paidOutCents;
  trip.paidOutCents = 0;
  return { expectedCents };
}

/** The clock moves to the end of the car's earliest trip under way (if it has not ended yet). */
async function waitForTripEnd(run: Run, car: CarRow): Promise<void> {
  const { t } = run.w;
  const active = await t.db.selectFrom('bookings').select(['end_date', 'end_time']).where('car_id', '=', car.id).where('status', '=', 'active').orderBy('start_date').executeTakeFirst();
  if (!active) return;
  const end = new Date(`${active.end_date}T${active.end_time.slice(0, 5)}:00+02:00`);
  if (end > t.clock.now()) t.clock.set(end);
}

// ---- Refunds at the provider ----

const runRefundJobs = (run: Run) => run.w.t.ctx.jobs.runDue('refunds.attempt');

/** Paystack refuses every refund until the job's last try: with its backoff doubling from a minute, the clock moves in doubling steps. */
async function refundsGiveUp(run: Run): Promise<void> {
  const { t, stub } = run.w;
  stub!.failRefund(503);
  for (let step = 1; step <= 10; step++) {
    t.clock.advance(2 ** step * MINUTE + MINUTE);
    await runRefundJobs(run);
  }
  stub!.failRefund(run.refundsRefused ? 503 : null);
}

/** Paystack pays out the refunds of this run it had queued; its webhook says so (after our job has checked, or before). */
async function paystackPaysOut(run: Run, jobFirst: boolean): Promise<void> {
  const { t, stub } = run.w;
  const references = await referencesOf(run);
  const queued = references.flatMap((ref) => (stub!.allRefunds.get(ref) ?? []).filter((refund) => (refund.status ?? 'pending') === 'pending').map((refund) => ({ ref, refund })));
  for (const { refund } of queued) refund.status = 'processed';
  if (jobFirst) {
    t.clock.advance(3 * HOUR);
    await runRefundJobs(run);
  }
  for (const { ref, refund } of queued) {
    const body = JSON.stringify({ event: 'refund.processed', data: { id: refund.id, transaction_reference: ref, amount: refund.amount, status: 'processed' } });
    const res = await t.app.inject({ method: 'POST', url: '/api/payments/paystack/webhook', headers: { 'content-type': 'application/json', 'x-paystack-signature': stub!.sign(body) }, payload: body });
    expect(res.statusCode, res.body).toBe(200);
  }
}

async function retryFailedRefund(run: Run, pick: number): Promise<void> {
  const { t } = run.w;
  const ids = new Set(run.trips.map((x) => x.id));
  const listed = await t.app.inject({ method: 'GET', url: '/api/payments/admin/refunds?state=failed', headers: run.headers.admin });
  expect(listed.statusCode, listed.body).toBe(200);
  const failed = dataOf<{ id: string; booking_id: string; retried: boolean }[]>(listed).filter((r) => ids.has(r.booking_id) && !r.retried);
  const refund = failed[pick % Math.max(1, failed.length)];
  if (!refund) return;
  const res = await t.app.inject({ method: 'POST', url: `/api/payments/admin/refunds/${refund.id}/retry`, headers: run.headers.admin });
  expect(res.statusCode, res.body).toBe(200);
}

// ---- One step ----

interface StepExpectation {
  payout?: { bookingId: string; expectedCents: number; kind: 'payout' | 'payout_reversal' } | undefined;
  /** Read admin Finance too (it sums the whole ledger, the slowest check): after steps that change what a host is owed, and the last step. */
  finance?: boolean;
  /** The transfer each host of the run must have been sent by this step (0: none). */
  transfers?: number[] | undefined;
  /** The sync job ran: each transfer's state is the bank's answer. */
  synced?: boolean;
}

async function step(run: Run, a: Action): Promise<StepExpectation> {
  const { t, stub } = run.w;
  switch (a.kind) {
    case 'book':
    case 'create': {
      const start = johannesburgDate(t.clock.now(), a.inDays);
      const [from, to] = a.pickup === PICKUP_AIRPORT.id ? ['07:00', '19:00'] : ['09:00', '17:00'];
      const dates = a.hourly ? { start_date: start, end_date: start, start_time: from, end_time: a.pickup === PICKUP_AIRPORT.id ? '11:00' : '13:00', is_hourly_booking: true } : { start_date: start, end_date: johannesburgDate(new Date(`${start}T00:00:00Z`), a.days), start_time: from, end_time: to };
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/booking/create',
        headers: run.headers.renter,
        payload: { car_username: run.cars[a.car]!.car_username, ...dates, pickup_option: a.pickup, insurance_option: a.insured ? INSURANCE_STANDARD.id : null },
      });
      expectAllowed('create', res);
      if (res.statusCode !== 201) return {};
      const x: Trip = { ...newTripModel(dataOf<{ id: string }>(res).id, a.car), declinesLater: 'declinesLater' in a && a.declinesLater === true };
      run.trips.push(x);
      if (a.kind === 'book') {
        expectAllowed('accept', await t.app.inject({ method: 'PATCH', url: `/api/booking/approve/${x.id}`, headers: run.headers.hosts[x.host]! }));
        await pay(run, x, a.how, a.webhook);
      }
      return {};
    }
    case 'accept': {
      const x = tripOf(run, a.trip);
      if (x) expectAllowed('accept', await t.app.inject({ method: 'PATCH', url: `/api/booking/approve/${x.id}`, headers: run.headers.hosts[x.host]! }));
      return {};
    }
    case 'pay': {
      const x = tripOf(run, a.trip);
      if (x) await pay(run, x, a.how, a.webhook);
      return {};
    }
    case 'wait':
      t.clock.advance(a.hours * HOUR);
      return {};
    case 'cancel': {
      const x = tripOf(run, a.trip);
      if (x) await cancel(run, x, a);
      return {};
    }
    case 'return':
      if (a.atTripEnd) await waitForTripEnd(run, run.cars[a.car]!);
      expectAllowed('return', await t.app.inject({ method: 'PATCH', url: `/api/car/returnCar/${run.cars[a.car]!.car_username}`, headers: run.headers.hosts[a.car]!, payload: {} }));
      return {};
    case 'refundJobs':
      t.clock.advance(a.minutes * MINUTE);
      await runRefundJobs(run);
      return {};
    case 'payout': {
      const x = a.over ? await tripOverOf(run, a.trip) : tripOf(run, a.trip);
      const paid = x ? await payout(run, x) : null;
      return { payout: paid && x ? { bookingId: x.id, expectedCents: paid.expectedCents, kind: 'payout' } : undefined };
    }
    case 'reverse': {
      const x = a.over ? await tripPaidOutOf(run, a.trip) : tripOf(run, a.trip);
      const reversed = x ? await reverse(run, x) : null;
      return { payout: reversed && x ? { bookingId: x.id, expectedCents: reversed.expectedCents, kind: 'payout_reversal' } : undefined };
    }
    case 'retry':
      await retryFailedRefund(run, a.pick);
      return {};
    case 'refundsRefused':
      run.refundsRefused = a.on;
      stub!.failRefund(a.on ? 503 : null);
      return {};
    case 'refundsQueued':
      stub!.newRefundStatus = a.on ? 'pending' : 'processed';
      return {};
    case 'paystackPaysOut':
      await paystackPaysOut(run, a.jobFirst);
      return {};
    case 'refundsGiveUp':
      await refundsGiveUp(run);
      return {};
  }
}

function expectAllowed(what: string, res: Reply) {
  expect(ALLOWED.has(res.statusCode), `${what}: ${res.statusCode} ${res.body}`).toBe(true);
}

// ---- Reading the books ----

const bookingOf = (run: Run, id: string) => run.w.t.db.selectFrom('bookings').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

async function bookingsOf(run: Run): Promise<Map<string, BookingRow>> {
  if (run.trips.length === 0) return new Map();
  const rows = await run.w.t.db.selectFrom('bookings').selectAll().where('id', 'in', run.trips.map((x) => x.id)).execute();
  return new Map(rows.map((r) => [r.id, r]));
}

async function paymentsOf(run: Run) {
  if (run.trips.length === 0) return [];
  return run.w.t.db.selectFrom('payments').select(['reference', 'booking_id', 'status', 'amount_cents']).where('booking_id', 'in', run.trips.map((x) => x.id)).execute();
}

async function referencesOf(run: Run): Promise<string[]> {
  return (await paymentsOf(run)).map((p) => p.reference);
}

async function ledgerRowsOf(run: Run): Promise<LedgerRow[]> {
  if (run.trips.length === 0) return [];
  return run.w.t.db
    .selectFrom('ledger_entries')
    .select(['id', 'seq', 'booking_id', 'renter_id', 'host_id', 'kind', 'code', 'amount_cents', 'state', 'moved_at', 'recorded_at', 'charge_reference', 'reason', 'actor_id'])
    .where('booking_id', 'in', run.trips.map((x) => x.id))
    .orderBy('seq')
    .execute();
}

/** The provider's own books of each charge of this run: what it took, and what it paid back. */
async function providerBooks(run: Run): Promise<Map<string, { charged: number; paidBack: number }>> {
  const { t, stub } = run.w;
  const payments = await paymentsOf(run);
  const books = new Map<string, { charged: number; paidBack: number }>();
  if (stub) {
    for (const p of payments) {
      const tx = stub.transactions.get(p.reference);
      const paidBack = (stub.allRefunds.get(p.reference) ?? []).filter((r) => r.status === 'processed').reduce((total, r) => total + r.amount, 0);
      books.set(p.reference, { charged: tx?.status === 'success' ? tx.amount : 0, paidBack });
    }
    return books;
  }
  const refunds = payments.length
    ? await t.db.selectFrom('sandbox_refunds').select(['reference', 'amount_cents']).where('reference', 'in', payments.map((p) => p.reference)).execute()
    : [];
  for (const p of payments) {
    const paidBack = refunds.filter((r) => r.reference === p.reference).reduce((sum, r) => sum + Number(r.amount_cents), 0);
    books.set(p.reference, { charged: p.status === 'success' ? p.amount_cents : 0, paidBack });
  }
  return books;
}

// ---- The model: what each booking's shares, penalty and payouts should be ----

function expectedShares(trip: Trip, b: BookingRow): { hostCents: number; platformCents: number; penaltyCents: number } {
  if (trip.quote) return { hostCents: cents(trip.quote.host_share), platformCents: cents(trip.quote.platform_share), penaltyCents: cents(trip.quote.host_penalty) };
  // Paid (the one charge kept on the booking): shared as its stored price says, at the moment of
  // payment; with what the host's trip charges added (claims are filed on completed trips only).
  if (b.paid_at !== null) {
    return { hostCents: b.car_owner_earnings_cents + trip.claimHostCents, platformCents: b.total_price_cents - b.car_owner_earnings_cents + trip.claimPlatformCents, penaltyCents: 0 };
  }
  return { hostCents: 0, platformCents: 0, penaltyCents: 0 };
}

function newTripModel(id: string, host: number): Trip {
  return { id, host, quote: null, paidOutCents: 0, declinesLater: false, claims: [], appliedCents: 0, claimCardCents: 0, claimHostCents: 0, claimPlatformCents: 0, depositReleased: false };
}

/** A booking's payouts as every "owed" figure counts them: paid or being paid (pending), less reversals. */
const netPaid = (own: LedgerRow[]) =>
  sum(own, (r) => r.kind === 'payout' && (r.state === 'succeeded' || r.state === 'pending')) - sum(own, (r) => r.kind === 'payout_reversal' && r.state === 'succeeded');

const FINAL = new Set(['completed', 'cancelled']);

/** What the model says each host of the run is owed: shares of final trips, less penalties, less what was paid out (net of reversals). */
async function modelOwed(run: Run): Promise<number[]> {
  const bookings = await bookingsOf(run);
  const owed = run.hosts.map(() => 0);
  for (const x of run.trips) {
    const b = bookings.get(x.id)!;
    const s = expectedShares(x, b);
    owed[x.host] = (owed[x.host] ?? 0) + (FINAL.has(b.status) ? s.hostCents : 0) - s.penaltyCents - x.paidOutCents;
  }
  return owed;
}

// ---- The invariants ----

const CLAIM_CHARGE_CODE = 'claim';
const sum = (rows: LedgerRow[], keep: (r: LedgerRow) => boolean) => rows.filter(keep).reduce((total, r) => total + Number(r.amount_cents), 0);

/**
 * A failed refund is still owed to the renter (the money never reached them), until an
 * administrator's Retry records it again as a new row (same booking, charge, code and amount,
 * later): from then on the retry carries the debt, and the failed row is only the record of what
 * happened.
 */
function isSuperseded(r: LedgerRow, rows: LedgerRow[]): boolean {
  return (
    r.kind === 'refund' &&
    r.state === 'failed' &&
    rows.some((n) => n.kind === 'refund' && n.booking_id === r.booking_id && n.code === r.code && n.amount_cents === r.amount_cents && n.charge_reference === r.charge_reference && BigInt(n.seq) > BigInt(r.seq))
  );
}

/** The steps after which a host may be owed something else: a trip ends (cancelled or returned), a payout is made or reversed. */
const CHANGES_WHAT_IS_OWED = new Set<Action['kind']>(['cancel', 'return', 'payout', 'reverse']);

async function checkInvariants(run: Run, expectation: StepExpectation, label: string): Promise<void> {
  const { t } = run.w;
  const rows = await ledgerRowsOf(run);
  const bookings = await bookingsOf(run);
  const payments = await paymentsOf(run);

  // 1. Per charge: the provider's books and the ledger agree on what was taken and what was paid
  //    back. A refund that is pending (recorded and not yet accepted, or accepted by Paystack and
  //    not yet paid out) or failed is money the provider still holds: neither side subtracts it. So
  //    charges − succeeded refunds = what the provider holds, for each charge and so in all.
  const books = await providerBooks(run);
  const references = new Set([...books.keys(), ...rows.flatMap((r) => (r.charge_reference ? [r.charge_reference] : []))]);
  for (const ref of references) {
    // A claim's charge to the saved card: the sandbox keeps no books of those (checkClaims compares them with the claim).
    if (rows.some((r) => r.charge_reference === ref && r.code === CLAIM_CHARGE_CODE)) continue;
    // A trip's card charge carries its deposit (decision 064): both kinds are what the card paid.
    const charged = sum(rows, (r) => (r.kind === 'charge' || r.kind === 'deposit') && r.state === 'succeeded' && r.charge_reference === ref);
    const paidBack = sum(rows, (r) => r.kind === 'refund' && r.state === 'succeeded' && r.charge_reference === ref);
    const provider = books.get(ref) ?? { charged: 0, paidBack: 0 };
    expect({ charged, paidBack, held: charged - paidBack }, `${label}: provider's books of ${ref}`).toEqual({ ...provider, held: provider.charged - provider.paidBack });
  }

  // 2. Per booking: charges = host share + platform share + refunds (pending, succeeded, and failed
  //    and not retried), and each part is what the booking's price and its cancellation quote say.
  for (const x of run.trips) {
    const b = bookings.get(x.id)!;
    const own = rows.filter((r) => r.booking_id === x.id);
    const charged = sum(own, (r) => r.kind === 'charge' && r.code !== CLAIM_CHARGE_CODE);
    const claimCharged = sum(own, (r) => r.kind === 'charge' && r.code === CLAIM_CHARGE_CODE);
    const host = sum(own, (r) => r.kind === 'host_earning');
    const platform = sum(own, (r) => r.kind === 'platform_fee');
    const isRelease = (r: LedgerRow) => r.kind === 'refund' && r.code === DEPOSIT_RELEASE_CODE;
    const refunds = sum(own, (r) => r.kind === 'refund' && !isRelease(r) && !isSuperseded(r, own));
    const applied = sum(own, (r) => r.kind === 'deposit_applied');
    expect(charged + claimCharged + applied, `${label}: booking ${b.booking_number} (${b.status}) balances`).toBe(host + platform + refunds);
    // The deposit: held = taken − released (asked for or paid back; a failed one not yet retried still
    // counts as released, being owed) − applied to claims; never negative; the ledger module agrees;
    // a cancelled trip holds none, one whose window closed with no claim open none, an uncancelled
    // paid one what the model's claims left of it.
    const deposit = sum(own, (r) => r.kind === 'deposit');
    const released = sum(own, (r) => isRelease(r) && !isSuperseded(r, own));
    const held = deposit - released - applied;
    expect(held, `${label}: booking ${b.booking_number} deposit held`).toBeGreaterThanOrEqual(0);
    expect(deposit, `${label}: booking ${b.booking_number} deposit taken`).toBe(b.paid_at !== null ? b.deposit_cents : 0);
    expect({ held, applied, claimCharged }, `${label}: booking ${b.booking_number} deposit held as the model says`).toEqual({
      held: b.status === 'cancelled' || x.depositReleased ? 0 : deposit - x.appliedCents,
      applied: x.appliedCents,
      claimCharged: x.claimCardCents,
    });
    expect(sumBookingMoney(own.filter((r) => !isSuperseded(r, own))).depositHeldCents, `${label}: booking ${b.booking_number} deposit held (ledger sums)`).toBe(held);
    expect(await depositHeldCents(t.db, x.id), `${label}: booking ${b.booking_number} deposit held (ledger module)`).toBe(held);
    const shares = expectedShares(x, b);
    const chargesIn = payments.filter((p) => p.booking_id === x.id).map((p) => ({ ref: p.reference, cents: books.get(p.reference)?.charged ?? 0 }));
    // Every charge but the one kept on the booking goes back whole; of the kept one, what the quote refunded.
    const refundsDue = chargesIn.filter((c) => c.ref !== b.payment_reference).reduce((total, c) => total + c.cents, 0) + (x.quote ? cents(x.quote.refund) : 0);
    expect(
      { charged, host, platform, refunds, penalty: sum(own, (r) => r.kind === 'host_penalty'), paidOut: netPaid(own) },
      `${label}: booking ${b.booking_number} (${b.status}) as the model says`,
    ).toEqual({
      charged: chargesIn.reduce((total, c) => total + c.cents, 0) - deposit,
      host: shares.hostCents,
      platform: shares.platformCents,
      refunds: refundsDue,
      penalty: shares.penaltyCents,
      paidOut: x.paidOutCents,
    });
    // Shares are kept only for the one charge that paid the trip.
    expect(own.filter((r) => (r.kind === 'host_earning' || r.kind === 'platform_fee') && r.charge_reference !== null && r.charge_reference !== b.payment_reference)).toEqual([]);
  }
  if (expectation.payout) {
    const { bookingId, expectedCents, kind } = expectation.payout;
    const fresh = rows.filter((r) => r.booking_id === bookingId && r.kind === kind && !run.seen.has(r.id));
    expect(sum(fresh, () => true), `${label}: the ${kind} written`).toBe(expectedCents);
  }

  // 3. Per host: owed = shares of final trips − penalties − payouts + reversals, from the rows, from
  //    the ledger module, on admin Finance (listed only when more than nothing is owed), and as modelled.
  const model = await modelOwed(run);
  const owedOnFinance = expectation.finance ? await financePayoutsOwed(run) : null;
  for (const [i, host] of run.hosts.entries()) {
    const mine = rows.filter((r) => r.host_id === host.id);
    const done = mine.filter((r) => r.state === 'succeeded');
    const fromRows = sum(done, (r) => r.kind === 'host_earning' && FINAL.has(bookings.get(r.booking_id)!.status)) - sum(done, (r) => r.kind === 'host_penalty') - netPaid(mine);
    expect({ fromRows, ledgerModule: await hostBalanceCents(t.db, host.id) }, `${label}: what host ${i} is owed`).toEqual({ fromRows: model[i], ledgerModule: model[i] });
    if (owedOnFinance) {
      const listed = owedOnFinance.find((p) => p.host_id === host.id);
      expect(listed ? cents(listed.amount_owed) : 0, `${label}: what host ${i} is owed on Finance`).toBe(Math.max(0, model[i]!));
    }
  }

  // 4. No row changed or disappeared; a pending row only settles, once (succeeded with the moment
  //    the money moved, or failed).
  const now = new Map(rows.map((r) => [r.id, r]));
  for (const [id, before] of run.seen) {
    const after = now.get(id);
    expect(after, `${label}: row ${id} (${before.kind}) still there`).toBeDefined();
    const { state: s0, moved_at: m0, ...fixed0 } = before;
    const { state: s1, moved_at: m1, ...fixed1 } = after!;
    expect(fixed1, `${label}: row ${id} unchanged`).toEqual(fixed0);
    if (s0 !== 'pending') expect({ state: s1, moved_at: m1 }, `${label}: settled row ${id} stays settled`).toEqual({ state: s0, moved_at: m0 });
  }
  for (const r of rows) {
    if (r.state === 'succeeded') expect(r.moved_at, `${label}: ${r.kind} ${r.id} has the moment it moved`).not.toBeNull();
    else expect(r.moved_at, `${label}: ${r.state} ${r.kind} ${r.id} has not moved`).toBeNull();
  }
  run.seen = now;
}

async function financePayoutsOwed(run: Run) {
  const finance = await run.w.t.app.inject({ method: 'GET', url: '/api/earnings/admin/finance', headers: run.headers.admin });
  expect(finance.statusCode, finance.body).toBe(200);
  return dataOf<{ payouts: { host_id: string; amount_owed: number }[] }>(finance).payouts;
}

// ---- Trip charges and payouts by themselves (issues 34 and 35) ----
//
// The money runs add, to the bookings, payments and cancellations above: trips checked in and out
// by their host (the fuel and the odometer read, the check-out sometimes recorded after the return),
// the host's trip charges (fuel and extra km computed from the records, cleaning and damage with an
// amount and a photo), the renter accepting, disputing (an administrator decides an amount, at most
// what was claimed) or not answering in time (the sweep job), claims beyond the deposit charged to
// the saved card (sometimes declined), the deposit's release by the sweep; hosts' bank accounts on
// the payout sandbox (paid; the first transfer failing; paid and reversed three days later), the
// payout job (sometimes on two instances at once), the sync job, and an administrator's Retry.
// After every step, besides the invariants above:
// 5. Each claim is what the model says (status; settled from the deposit first, the rest from the
//    card; a declined card leaves exactly the rest owed), and its ledger rows are from deposit + from
//    card, shared in full.
// 6. Each transfer is positive and its payout rows add up to it, in its state; the sandbox's books
//    of it agree (amount, recipient; after the sync job, its outcome); no booking is paid more than
//    its host's share or less than nothing; and each run of the payout job (two at once, too) sends
//    each host due exactly what the model works out from the raw rows: the unpaid shares of the
//    trips payable now (final for 72 h, no claim open), less what the host owes, never below zero.

const moneyTrip = fc.nat(7);
const moneyActions = [
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('book' as const), ...booking, ...payment, declinesLater: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('wait' as const), hours: fc.integer({ min: 1, max: 36 }) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('cancel' as const),
      trip,
      who: fc.constantFrom<Canceller>('renter', 'host', 'no_show', 'admin'),
      refund: fc.constantFrom('full' as const, 'policy' as const, 'amount' as const),
      percent: fc.integer({ min: 0, max: 105 }),
    }),
  },
  // The host checks the car's earliest trip under way in and out (fuel in eighths, km driven) and returns it;
  // sometimes the check-out is recorded hours after the return (allowed for 24 hours).
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('finish' as const),
      car: fc.nat(1),
      fuel: fc.integer({ min: 0, max: 8 }),
      km: fc.integer({ min: 0, max: 1800 }),
      recordAfterReturn: fc.constantFrom(0, 0, 0, 2, 20),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('return' as const), car: fc.nat(1), atTripEnd: fc.boolean() }) },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('claim' as const),
      trip: moneyTrip,
      fuel: fc.boolean(),
      extraKm: fc.boolean(),
      cleaning: fc.option(fc.integer({ min: 100, max: 900 }), { nil: null }),
      damage: fc.option(fc.integer({ min: 300, max: 4000 }), { nil: null }),
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('answer' as const), claim: fc.nat(3), dispute: fc.boolean() }) },
  // An administrator decides a disputed claim: a share of what was claimed (above 100 % is refused).
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('decide' as const), claim: fc.nat(3), percent: fc.constantFrom(0, 35, 80, 100, 104) }) },
  // Time passes and the trip-charges sweep runs: unanswered claims accepted and paid, deposits released.
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('sweep' as const), hours: fc.integer({ min: 0, max: 80 }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('account' as const), host: fc.nat(1), bank: fc.constantFrom('paid' as const, 'paid' as const, 'fails' as const, 'reversed' as const) }) },
  // Time passes and the payout job runs, on one instance or on two at once.
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('payoutRun' as const), hours: fc.integer({ min: 0, max: 72 }), twice: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('sync' as const), hours: fc.integer({ min: 0, max: 96 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('retryTransfer' as const), pick: fc.nat(3) }) },
];
const moneyAction = fc.oneof(...moneyActions);
type MoneyAction = typeof moneyAction extends fc.Arbitrary<infer A> ? A : never;
type AnyAction = Action | MoneyAction;

/** Evidence for the charges that need a photo, and the four photos of a trip record. */
let photo: Buffer | null = null;
async function evidencePhoto(): Promise<Buffer> {
  photo ??= await sharp({ create: { width: 320, height: 240, channels: 3, background: '#2e86c1' } }).jpeg().toBuffer();
  return photo;
}

async function tripRecord(run: Run, x: Trip, stage: 'check_in' | 'check_out', km: number, fuel: number): Promise<void> {
  const image = await evidencePhoto();
  const body = multipart([
    { name: 'stage', value: stage },
    { name: 'odometer_km', value: String(km) },
    { name: 'fuel_eighths', value: String(fuel) },
    ...['front', 'back', 'left', 'right'].map((slot) => ({ name: `photo_${slot}`, filename: `${slot}.jpg`, data: image, contentType: 'image/jpeg' })),
  ]);
  const res = await run.w.t.app.inject({ method: 'POST', url: `/api/booking/${x.id}/trip-records`, headers: { ...run.headers.hosts[x.host]!, ...body.headers }, payload: body.payload });
  expectAllowed(stage, res);
}

/** The host checks in at the pickup, checks out at the end (or after the return), and returns the car. */
async function finishTrip(run: Run, a: Extract<MoneyAction, { kind: 'finish' }>): Promise<void> {
  const { t } = run.w;
  // The named car's earliest paid trip under way, else the other car's.
  const activeOf = (car: CarRow) => t.db.selectFrom('bookings').selectAll().where('car_id', '=', car.id).where('status', '=', 'active').where('payment_status', '=', 'paid').orderBy('start_date').executeTakeFirst();
  const active = (await activeOf(run.cars[a.car]!)) ?? (await activeOf(run.cars[1 - a.car]!));
  const x = active && run.trips.find((y) => y.id === active.id);
  if (!active || !x) return;
  const pickup = localInstant(active.start_date, active.start_time.slice(0, 5));
  const end = localInstant(active.end_date, active.end_time.slice(0, 5));
  if (pickup > t.clock.now()) t.clock.set(pickup);
  await tripRecord(run, x, 'check_in', 10_000, 8);
  const out = new Date(end.getTime() - 10 * MINUTE);
  if (out > t.clock.now()) t.clock.set(out);
  if (a.recordAfterReturn === 0) await tripRecord(run, x, 'check_out', 10_000 + a.km, a.fuel);
  expectAllowed('return', await t.app.inject({ method: 'PATCH', url: `/api/car/returnCar/${run.cars[x.host]!.car_username}`, headers: run.headers.hosts[x.host]!, payload: {} }));
  if (a.recordAfterReturn > 0) {
    t.clock.advance(a.recordAfterReturn * HOUR);
    await tripRecord(run, x, 'check_out', 10_000 + a.km, a.fuel);
  }
}

/** A completed trip of the run, if any. */
async function completedTripOf(run: Run, n: number): Promise<Trip | undefined> {
  const bookings = await bookingsOf(run);
  const done = run.trips.filter((x) => bookings.get(x.id)!.status === 'completed');
  return done[n % Math.max(1, done.length)];
}

type ClaimReply = { id: string; claimed: number; answer_due_at: string; items: { kind: TripChargeKind; amount: number }[] };

async function fileClaim(run: Run, a: Extract<MoneyAction, { kind: 'claim' }>): Promise<void> {
  const x = await completedTripOf(run, a.trip);
  if (!x) return;
  const items = [
    ...(a.fuel ? [{ kind: 'fuel', note: '' }] : []),
    ...(a.extraKm ? [{ kind: 'extra_km', note: '' }] : []),
    ...(a.cleaning !== null ? [{ kind: 'cleaning', amount: a.cleaning, note: 'Sand in the boot' }] : []),
    ...(a.damage !== null ? [{ kind: 'damage', amount: a.damage, note: 'A dent in the rear door' }] : []),
  ];
  if (items.length === 0) return;
  const { t } = run.w;
  const headers = run.headers.hosts[x.host]!;
  const withPhoto = a.cleaning !== null || a.damage !== null;
  const body = withPhoto
    ? multipart([
        { name: 'claim', value: JSON.stringify({ items, statement: 'Photos and the quote attached.' }) },
        { name: 'evidence', filename: 'quote.jpg', data: await evidencePhoto(), contentType: 'image/jpeg' },
      ])
    : null;
  const res = body
    ? await t.app.inject({ method: 'POST', url: `/api/booking/${x.id}/claims`, headers: { ...headers, ...body.headers }, payload: body.payload })
    : await t.app.inject({ method: 'POST', url: `/api/booking/${x.id}/claims`, headers, payload: { items, statement: '' } });
  expectAllowed('claim', res);
  if (res.statusCode !== 201) return;
  const claim = dataOf<ClaimReply>(res);
  x.claims.push({
    id: claim.id,
    lines: claim.items.map((i) => ({ kind: i.kind, cents: cents(i.amount) })),
    claimedCents: cents(claim.claimed),
    answerDueAt: new Date(claim.answer_due_at),
    status: 'awaiting_renter',
    settled: null,
  });
}

/** The claims of the run in a status, oldest first, with their trip. */
function claimsIn(run: Run, status: ModelClaim['status']): { x: Trip; c: ModelClaim }[] {
  return run.trips.flatMap((x) => x.claims.filter((c) => c.status === status).map((c) => ({ x, c })));
}

/** When the trip's claim window opened: the host's check-out record, else the renter's, else the return (decision 065). */
async function checkedOutAt(run: Run, x: Trip): Promise<{ checkedOut: Date | null; returned: Date | null; record: Date | null }> {
  const { db } = run.w.t;
  const b = await bookingOf(run, x.id);
  const records = await db.selectFrom('trip_records').select(['party', 'created_at']).where('booking_id', '=', x.id).where('stage', '=', 'check_out').orderBy('created_at').execute();
  const found = records.find((r) => r.party === 'host') ?? records[0];
  const record = found ? new Date(found.created_at) : null;
  const returned = b.actual_return_date ?? b.completed_at;
  return { checkedOut: record ?? (returned ? new Date(returned) : null), returned: returned ? new Date(returned) : null, record };
}

interface MoneySettings {
  claimWindowHours: number;
  claimFeePercent: number;
  payableAfterHours: number;
}

async function moneySettings(run: Run): Promise<MoneySettings> {
  const s = await getSettings(run.w.t.ctx);
  return { claimWindowHours: s.trip_charges.claim_window_hours, claimFeePercent: s.trip_charges.claim_fee_percent, payableAfterHours: Math.max(s.payout_delay_hours, s.trip_charges.claim_window_hours) };
}

/**
 * What settling a claim must pay, in the model: the amount spread over its lines in order, from
 * what the model says is left of the deposit first, the rest from the card (nothing when the card
 * declines); each line's paid part shared as its kind says. Then, if the window has closed with
 * nothing else open, the rest of the deposit goes back.
 */
async function settleInModel(run: Run, x: Trip, c: ModelClaim, amountCents: number): Promise<void> {
  const s = await moneySettings(run);
  const b = await bookingOf(run, x.id);
  const held = x.depositReleased ? 0 : b.deposit_cents - x.appliedCents;
  const fromDeposit = Math.min(held, amountCents);
  const fromCard = amountCents - fromDeposit;
  const card = x.declinesLater ? 0 : fromCard;
  let left = amountCents;
  let depositLeft = fromDeposit;
  let cardLeft = card;
  for (const line of c.lines) {
    const part = Math.min(line.cents, left);
    left -= part;
    const d = Math.min(part, depositLeft);
    depositLeft -= d;
    const k = Math.min(part - d, cardLeft);
    cardLeft -= k;
    if (d + k === 0) continue;
    const split = claimSplit(line.kind, d + k, s.claimFeePercent);
    x.claimHostCents += split.hostCents;
    x.claimPlatformCents += split.platformCents;
  }
  x.appliedCents += fromDeposit;
  x.claimCardCents += card;
  c.status = 'settled';
  c.settled = { amountCents, fromDepositCents: fromDeposit, cardCents: card, owedCents: fromCard - card };
  const { checkedOut } = await checkedOutAt(run, x);
  if (checkedOut && checkedOut.getTime() + s.claimWindowHours * HOUR <= run.w.t.clock.now().getTime()) releaseInModel(x, b);
}

function releaseInModel(x: Trip, b: BookingRow): void {
  if (x.claims.some((c) => c.status !== 'settled')) return;
  if (b.deposit_cents - x.appliedCents > 0) x.depositReleased = true;
}

async function answerClaim(run: Run, a: Extract<MoneyAction, { kind: 'answer' }>): Promise<void> {
  const open = claimsIn(run, 'awaiting_renter');
  const pick = open[a.claim % Math.max(1, open.length)];
  if (!pick) return;
  const { t } = run.w;
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/claims/${pick.c.id}/answer`,
    headers: run.headers.renter,
    payload: a.dispute ? { answer: 'dispute', statement: 'The car was returned as it was collected.' } : { answer: 'accept', statement: '' },
  });
  expectAllowed('answer', res);
  const late = t.clock.now().getTime() > pick.c.answerDueAt.getTime();
  expect(res.statusCode, `answer ${late ? 'after' : 'within'} the 48 hours: ${res.body}`).toBe(late ? 409 : 200);
  if (late) return;
  if (a.dispute) pick.c.status = 'disputed';
  else await settleInModel(run, pick.x, pick.c, pick.c.claimedCents);
}

async function decideClaim(run: Run, a: Extract<MoneyAction, { kind: 'decide' }>): Promise<void> {
  const disputed = claimsIn(run, 'disputed');
  const pick = disputed[a.claim % Math.max(1, disputed.length)];
  if (!pick) return;
  const amountCents = Math.floor((pick.c.claimedCents * a.percent) / 100);
  const res = await run.w.t.app.inject({ method: 'PATCH', url: `/api/admin/claims/${pick.c.id}/decide`, headers: run.headers.admin, payload: { amount: amountCents / 100, reason: 'Both sides heard; this part is shown by the photos.' } });
  expectAllowed('decide', res);
  expect(res.statusCode, res.body).toBe(amountCents > pick.c.claimedCents ? 400 : 200);
  if (res.statusCode === 200) await settleInModel(run, pick.x, pick.c, amountCents);
}

/** The sweep job: claims unanswered past their 48 hours settled (oldest first), then deposits whose window closed released. */
async function sweep(run: Run, hours: number): Promise<void> {
  const { t } = run.w;
  t.clock.advance(hours * HOUR);
  const now = t.clock.now().getTime();
  const overdue = claimsIn(run, 'awaiting_renter')
    .filter(({ c }) => c.answerDueAt.getTime() < now)
    .sort((p, q) => p.c.answerDueAt.getTime() - q.c.answerDueAt.getTime());
  await settleOverdueClaims(t.ctx);
  for (const { x, c } of overdue) await settleInModel(run, x, c, c.claimedCents);
  await releaseDueDeposits(t.ctx);
  const s = await moneySettings(run);
  const bookings = await bookingsOf(run);
  for (const x of run.trips) {
    const b = bookings.get(x.id)!;
    if (b.status !== 'completed' || x.depositReleased) continue;
    const { checkedOut, returned } = await checkedOutAt(run, x);
    // The sweep looks at trips returned a window ago whose window (from check-out) has closed.
    if (checkedOut && returned && Math.max(checkedOut.getTime(), returned.getTime()) + s.claimWindowHours * HOUR <= now) releaseInModel(x, b);
  }
}

// ---- Payout accounts and transfers ----

let accountCounter = 0;
/** The sandbox's account numbers choose the bank's answer: …1111 the first transfer fails, …2222 paid then reversed after three days. */
const ACCOUNT_ENDINGS = { paid: '5678', fails: '1111', reversed: '2222' } as const;

async function addAccount(run: Run, a: Extract<MoneyAction, { kind: 'account' }>): Promise<void> {
  const { t } = run.w;
  accountCounter += 1;
  const accountNumber = `6${String(accountCounter + (Date.now() % 100_000) * 10).padStart(6, '0').slice(-6)}${ACCOUNT_ENDINGS[a.bank]}`;
  const headers = run.headers.hosts[a.host]!;
  const resolved = await t.app.inject({ method: 'POST', url: '/api/payouts/bank-account/resolve', headers, payload: { bank_code: '250655', account_number: accountNumber } });
  expect(resolved.statusCode, resolved.body).toBe(200);
  const name = dataOf<{ account_name: string }>(resolved).account_name;
  const saved = await t.app.inject({ method: 'PUT', url: '/api/payouts/bank-account', headers, payload: { bank_code: '250655', account_number: accountNumber, confirmed_account_name: name } });
  expect(saved.statusCode, saved.body).toBe(200);
  // Every business day ("each trip"), so that runs reach transfers.
  const schedule = await t.app.inject({ method: 'PUT', url: '/api/payouts/schedule', headers, payload: { schedule: 'trip' } });
  expect(schedule.statusCode, schedule.body).toBe(200);
}

/**
 * What a payout to each host of the run must send now, worked out from the raw rows: the unpaid
 * shares of final trips payable now (72 hours final, no claim open) less what the host owes (the
 * balance, the shares not yet payable set aside), never below zero; nothing when the host has no
 * account, is held (paused, cooling off, a failed or reversed transfer not retried) or, for the
 * job, when today is not their run day or today's run already made their transfer.
 */
async function expectedPayouts(run: Run, forJob: boolean): Promise<number[]> {
  const { t } = run.w;
  const now = t.clock.now();
  const today = todayIn(now);
  const s = await moneySettings(run);
  const rows = await ledgerRowsOf(run);
  const bookings = await bookingsOf(run);
  const openClaims = new Set(run.trips.length ? (await t.db.selectFrom('trip_claims').select('booking_id').where('booking_id', 'in', run.trips.map((x) => x.id)).where('status', 'in', ['awaiting_renter', 'disputed']).execute()).map((r) => r.booking_id) : []);
  const out: number[] = [];
  for (const host of run.hosts) {
    const account = await t.db.selectFrom('host_payout_accounts').selectAll().where('host_id', '=', host.id).executeTakeFirst();
    const transfers = await t.db.selectFrom('payout_transfers').select(['id', 'state', 'run_key', 'retry_of']).where('host_id', '=', host.id).execute();
    const unresolved = transfers.some((x) => (x.state === 'failed' || x.state === 'reversed') && !transfers.some((r) => r.retry_of === x.id));
    const held = !account || account.paused_at !== null || (account.hold_until !== null && account.hold_until.getTime() > now.getTime()) || (forJob && unresolved);
    const runDay = !forJob || (account !== undefined && nextRunDay({ schedule: account.schedule, weekday: account.weekday, month_day: account.month_day }, today) === today && !transfers.some((x) => x.run_key === `${host.id}:${today}`));
    if (held || !runDay) {
      out.push(0);
      continue;
    }
    const mine = rows.filter((r) => r.host_id === host.id);
    let payable = 0;
    let notYet = 0;
    for (const x of run.trips.filter((y) => run.hosts[y.host]!.id === host.id)) {
      const b = bookings.get(x.id)!;
      if (!FINAL.has(b.status)) continue;
      const own = mine.filter((r) => r.booking_id === x.id);
      const unpaid = sum(own, (r) => r.kind === 'host_earning') - netPaid(own);
      if (unpaid <= 0) continue;
      // Payable 72 hours after the later of the trip's end and its check-out record (the claim window's start).
      const { record } = await checkedOutAt(run, x);
      const from = Math.max(new Date(b.completed_at ?? b.cancelled_at ?? b.updated_at).getTime(), record?.getTime() ?? 0);
      if (from + s.payableAfterHours * HOUR <= now.getTime() && !openClaims.has(x.id)) payable += unpaid;
      else notYet += unpaid;
    }
    const done = mine.filter((r) => r.state === 'succeeded');
    const balance = sum(done, (r) => r.kind === 'host_earning' && FINAL.has(bookings.get(r.booking_id)!.status)) - sum(done, (r) => r.kind === 'host_penalty') - netPaid(mine);
    out.push(Math.max(0, Math.min(payable, balance - notYet)));
  }
  return out;
}

async function payoutRun(run: Run, a: Extract<MoneyAction, { kind: 'payoutRun' }>): Promise<StepExpectation> {
  const { t, other } = run.w;
  t.clock.advance(a.hours * HOUR);
  other?.clock.set(t.clock.now());
  const expected = await expectedPayouts(run, true);
  if (a.twice && other) await Promise.all([runPayouts(t.ctx), runPayouts(other.ctx)]);
  else await runPayouts(t.ctx);
  return { transfers: expected };
}

async function retryTransfer(run: Run, pick: number): Promise<StepExpectation> {
  const { t } = run.w;
  const hostIds = run.hosts.map((h) => h.id);
  const transfers = await t.db.selectFrom('payout_transfers').select(['id', 'host_id', 'state']).where('host_id', 'in', hostIds).orderBy('created_at').execute();
  const retried = new Set((await t.db.selectFrom('payout_transfers').select('retry_of').where('host_id', 'in', hostIds).execute()).map((r) => r.retry_of));
  const returned = transfers.filter((x) => (x.state === 'failed' || x.state === 'reversed') && !retried.has(x.id));
  const failed = returned[pick % Math.max(1, returned.length)];
  if (!failed) return {};
  // The administrator acts a minute later: the sandbox tells a recipient's first transfer by its
  // moment, and a retry at the very instant of the failed one would tie with it.
  t.clock.advance(MINUTE);
  const all = await expectedPayouts(run, false);
  const expected = run.hosts.map((h, i) => (h.id === failed.host_id ? all[i]! : 0));
  const res = await t.app.inject({ method: 'POST', url: `/api/admin/payouts/transfers/${failed.id}/retry`, headers: run.headers.admin });
  expectAllowed('retry transfer', res);
  expect(res.statusCode, res.body).toBe(expected.some((c) => c > 0) ? 200 : 409);
  return { transfers: expected };
}

async function syncAfter(run: Run, hours: number): Promise<StepExpectation> {
  const { t } = run.w;
  t.clock.advance(hours * HOUR);
  await syncTransfers(t.ctx);
  return { synced: true };
}

/** The model follows what was paid of each booking (the transfers' amounts are checked against expectedPayouts). */
async function followPayouts(run: Run): Promise<void> {
  const rows = await ledgerRowsOf(run);
  for (const x of run.trips) x.paidOutCents = netPaid(rows.filter((r) => r.booking_id === x.id));
}

async function moneyStep(run: Run, a: AnyAction): Promise<StepExpectation> {
  switch (a.kind) {
    case 'finish':
      await finishTrip(run, a);
      return {};
    case 'claim':
      await fileClaim(run, a);
      return {};
    case 'answer':
      await answerClaim(run, a);
      return {};
    case 'decide':
      await decideClaim(run, a);
      return {};
    case 'sweep':
      await sweep(run, a.hours);
      return {};
    case 'account':
      await addAccount(run, a);
      return {};
    case 'payoutRun':
      return payoutRun(run, a);
    case 'sync':
      return syncAfter(run, a.hours);
    case 'retryTransfer':
      return retryTransfer(run, a.pick);
    default:
      return step(run, a);
  }
}

// ---- The invariants of claims and payouts ----

async function checkClaims(run: Run, rows: LedgerRow[], label: string): Promise<void> {
  const ids = run.trips.flatMap((x) => x.claims.map((c) => c.id));
  if (ids.length === 0) return;
  const stored = new Map((await run.w.t.db.selectFrom('trip_claims').selectAll().where('id', 'in', ids).execute()).map((c) => [c.id, c]));
  for (const x of run.trips) {
    for (const c of x.claims) {
      const row = stored.get(c.id)!;
      const own = rows.filter((r) => r.reason === `claim ${c.id}`);
      const fromDeposit = sum(own, (r) => r.kind === 'deposit_applied');
      const fromCard = sum(own, (r) => r.kind === 'charge' && r.code === CLAIM_CHARGE_CODE);
      const shared = sum(own, (r) => r.kind === 'host_earning' || r.kind === 'platform_fee');
      const s = c.settled;
      expect(
        { status: row.status, settled: row.settled_cents, fromDeposit: row.from_deposit_cents, card: row.card_cents, owed: row.settled_cents === null ? 0 : row.settled_cents - row.from_deposit_cents - row.card_cents, declined: row.payment_state === 'card_declined' },
        `${label}: claim ${c.id} as the model says`,
      ).toEqual({ status: c.status, settled: s ? s.amountCents : null, fromDeposit: s?.fromDepositCents ?? 0, card: s?.cardCents ?? 0, owed: s?.owedCents ?? 0, declined: (s?.owedCents ?? 0) > 0 });
      // Its ledger rows: from the deposit + from the card (what the card actually paid), all of it shared.
      expect({ fromDeposit, fromCard, shared }, `${label}: claim ${c.id}'s ledger rows`).toEqual({ fromDeposit: row.from_deposit_cents, fromCard: row.card_cents, shared: row.from_deposit_cents + row.card_cents });
      // One charge of the card per claim (a row for each line it paid), under the claim's reference.
      expect([...new Set(own.filter((r) => r.kind === 'charge').map((r) => r.charge_reference))], `${label}: claim ${c.id}'s card charge`).toEqual(row.card_cents > 0 ? [row.card_reference] : []);
    }
  }
}

/** Each transfer of the run against its payout rows, the sandbox's books and (after the sync job) its outcome; each booking's payouts against its share. */
async function checkPayouts(run: Run, rows: LedgerRow[], expectation: StepExpectation, label: string): Promise<void> {
  const { t } = run.w;
  const hostIds = run.hosts.map((h) => h.id);
  const transfers = await t.db.selectFrom('payout_transfers').selectAll().where('host_id', 'in', hostIds).orderBy('created_at').execute();
  const payoutRows = run.trips.length
    ? await t.db.selectFrom('ledger_entries').select(['kind', 'state', 'amount_cents', 'provider_reference', 'booking_id']).where('booking_id', 'in', run.trips.map((x) => x.id)).where('kind', 'in', ['payout', 'payout_reversal']).where('code', 'in', ['transfer', 'transfer_reversed']).execute()
    : [];
  const books = transfers.length ? new Map((await t.db.selectFrom('sandbox_transfers').selectAll().where('reference', 'in', transfers.map((x) => x.reference)).execute()).map((r) => [r.reference, r])) : new Map();
  const now = t.clock.now().getTime();
  for (const x of transfers) {
    const mine = payoutRows.filter((r) => r.provider_reference === x.reference);
    const paid = mine.filter((r) => r.kind === 'payout');
    const reversed = mine.filter((r) => r.kind === 'payout_reversal');
    const states = [...new Set(paid.map((r) => r.state))];
    expect(x.amount_cents, `${label}: transfer ${x.reference} is positive`).toBeGreaterThan(0);
    expect(paid.reduce((total, r) => total + Number(r.amount_cents), 0), `${label}: transfer ${x.reference}'s payout rows`).toBe(x.amount_cents);
    expect({ states, reversed: reversed.reduce((total, r) => total + Number(r.amount_cents), 0) }, `${label}: transfer ${x.reference} (${x.state})'s rows`).toEqual({
      states: [x.state === 'success' || x.state === 'reversed' ? 'succeeded' : x.state === 'failed' ? 'failed' : 'pending'],
      reversed: x.state === 'reversed' ? x.amount_cents : 0,
    });
    // The provider's books: the transfer asked for is the one recorded, and (after the sync job,
    // within the days it keeps asking) what the bank did with it is what we recorded.
    const book = books.get(x.reference);
    if (x.state !== 'queued') expect(book && { amount: book.amount_cents, recipient: book.recipient_code }, `${label}: the sandbox's books of ${x.reference}`).toEqual({ amount: x.amount_cents, recipient: x.recipient_code });
    if (expectation.synced && x.state !== 'queued' && now - new Date(x.created_at).getTime() < 10 * 24 * HOUR) {
      const answer = await t.ctx.payouts.verifyTransfer(x.reference);
      const said = answer?.status === 'reversed' && x.state === 'failed' ? 'failed' : answer?.status;
      expect(x.state, `${label}: transfer ${x.reference} as the bank says after the sync`).toBe(said);
    }
  }
  // No booking paid more than its share, or less than nothing.
  for (const x of run.trips) {
    const own = rows.filter((r) => r.booking_id === x.id);
    const paid = netPaid(own);
    expect(paid, `${label}: booking ${x.id} paid out`).toBeGreaterThanOrEqual(0);
    expect(paid, `${label}: booking ${x.id} paid out at most its host's share`).toBeLessThanOrEqual(sum(own, (r) => r.kind === 'host_earning'));
  }
  // This step's transfers: exactly what the model worked out for each host, one at most (two job runs at once too).
  const fresh = transfers.filter((x) => !run.transfersSeen.has(x.id));
  if (expectation.transfers) {
    const made = run.hosts.map((h) => fresh.filter((x) => x.host_id === h.id).map((x) => x.amount_cents));
    expect(made, `${label}: the transfers made`).toEqual(expectation.transfers.map((c) => (c > 0 ? [c] : [])));
  } else {
    expect(fresh.map((x) => x.reference), `${label}: no transfer made`).toEqual([]);
  }
  run.transfersSeen = new Set(transfers.map((x) => x.id));
}

async function checkMoneyInvariants(run: Run, expectation: StepExpectation, label: string): Promise<void> {
  const rows = await ledgerRowsOf(run);
  await checkClaims(run, rows, label);
  await checkPayouts(run, rows, expectation, label);
  // In total, what is held of the run's deposits is what its bookings hold, and never negative.
  const held = sum(rows, (r) => r.kind === 'deposit') - sum(rows, (r) => r.kind === 'refund' && r.code === DEPOSIT_RELEASE_CODE && !isSuperseded(r, rows)) - sum(rows, (r) => r.kind === 'deposit_applied');
  const bookings = await bookingsOf(run);
  expect(held, `${label}: the run's deposits held`).toBe(run.trips.reduce((total, x) => total + (bookings.get(x.id)!.status === 'cancelled' || x.depositReleased ? 0 : (bookings.get(x.id)!.paid_at ? bookings.get(x.id)!.deposit_cents : 0) - x.appliedCents), 0));
  expect(held, `${label}: the run's deposits held`).toBeGreaterThanOrEqual(0);
}

/** A second app on the file's database, as a second instance (its own pool on PostgreSQL; PGlite's one session shared). */
async function secondInstance(t: TestApp): Promise<TestApp> {
  const handle = t.database;
  if (handle.kind === 'postgres') {
    const { rows } = await sql<{ schema: string }>`SELECT current_schema() AS schema`.execute(t.db);
    return createTestApp({ env: { BROWSE_CACHE_MS: '0' }, openDatabase: async () => connectServer({ url: handle.url!, schema: rows[0]!.schema, max: 4 }) });
  }
  return createTestApp({ env: { BROWSE_CACHE_MS: '0' }, openDatabase: async () => ({ ...handle, close: async () => {} }) });
}

// ---- The properties ----

async function createWorld(stub: PaystackStub | null): Promise<World> {
  const paystackEnv: Record<string, string> = stub ? { PAYSTACK_SECRET_KEY: stub.secret, PAYSTACK_PUBLIC_KEY: 'pk_test_karoo', PAYSTACK_BASE_URL: stub.url } : {};
  const t = await createTestApp({ env: { BROWSE_CACHE_MS: '0', ...paystackEnv } });
  t.clock.set(START);
  return {
    t,
    stub,
    admin: await createUser(t.ctx, { role: 'admin', verification_status: 'verified' }),
    renter: await createUser(t.ctx, { verification_status: 'verified' }),
  };
}

/**
 * 20 random runs of 3 to 16 steps per provider, after the known paths (about 8 s a provider on
 * PGlite on an idle 2-core machine): a fixed count, so a busy machine runs the same cases more
 * slowly instead of fewer of them (issue 33); the seed is recorded (below) and printed.
 */
const RUNS = 20;

/**
 * The seed `npm test` runs (decision 077), passed on PGlite and PostgreSQL when it was recorded;
 * FC_SEED=random explores others (seeds 1790472315, 1727448837, 340243458, 366000227 and, after
 * the sign-in fix, 704246189 passed too).
 */
const RECORDED_SEED = 1000003;

/** Each host's daily price in rand: odd amounts, so fees and shares round. */
const prices = fc.tuple(fc.integer({ min: 250, max: 1500 }), fc.integer({ min: 250, max: 1500 }));

function ledgerProperty(world: () => World, actions: fc.Arbitrary<Action>) {
  return fc.asyncProperty(prices, fc.array(actions, { minLength: 3, maxLength: 16 }), async (daily: [number, number], sequence: Action[]) => {
    const run = await newRun(world(), daily);
    for (const [i, a] of sequence.entries()) {
      await keepSignedIn(run);
      const expectation = await step(run, a);
      const finance = CHANGES_WHAT_IS_OWED.has(a.kind) || i === sequence.length - 1;
      await checkInvariants(run, { ...expectation, finance }, `step ${i + 1} ${JSON.stringify(a)}`);
    }
  });
}

/**
 * 30 runs (the known paths first) of 6 to 22 steps of the money actions (each moves more: trip
 * records with photos, claims, the jobs; about 15 s on PGlite and 10 s on PostgreSQL for 20 runs on
 * a busy 2-core machine), on one app with a second instance beside it.
 */
const MONEY_RUNS = 30;

/** The steps after which a host may be owed something else, in the money runs. */
const CHANGES_WHAT_IS_OWED_MONEY = new Set<AnyAction['kind']>(['cancel', 'return', 'finish', 'answer', 'decide', 'sweep', 'payoutRun', 'sync', 'retryTransfer']);

function moneyProperty(world: () => World) {
  return fc.asyncProperty(prices, fc.array(moneyAction, { minLength: 6, maxLength: 22 }), async (daily: [number, number], sequence: MoneyAction[]) => {
    const run = await newRun(world(), daily, CLAIM_CAR);
    for (const [i, a] of sequence.entries()) {
      await keepSignedIn(run);
      const expectation = await moneyStep(run, a);
      await followPayouts(run);
      const label = `step ${i + 1} ${JSON.stringify(a)}`;
      await checkInvariants(run, { ...expectation, finance: CHANGES_WHAT_IS_OWED_MONEY.has(a.kind) || i === sequence.length - 1 }, label);
      await checkMoneyInvariants(run, expectation, label);
    }
  });
}

/** A trip paid a few days ahead (the first of the run), as a known path starts. */
const PAID_TRIP: Action[] = [
  { kind: 'create', car: 0, inDays: 3, days: 3, hourly: false, pickup: PICKUP_AIRPORT.id, insured: true },
  { kind: 'accept', trip: 0 },
  { kind: 'pay', trip: 0, how: 'once', webhook: false },
];

/** The runs went somewhere: every kind of movement was written (the known paths above make sure of it). */
async function expectRowsOfEveryKind(w: World, expected: string[]) {
  const rows = await w.t.db.selectFrom('ledger_entries').select(['kind', 'state', 'code']).distinct().execute();
  const seen = new Set(rows.flatMap((r) => [`${r.kind}`, `${r.kind}:${r.state}`, `${r.kind}:${r.code}`]));
  expect(expected.filter((k) => !seen.has(k))).toEqual([]);
}
const SANDBOX_KINDS = ['charge', 'refund:already_paid', 'host_earning:cancellation_fee', 'platform_fee:cancellation_fee', 'host_penalty', 'payout', 'payout_reversal'];
const MONEY_KINDS = ['deposit_applied:claim_fuel', 'deposit_applied:claim_damage', 'charge:claim', 'platform_fee:claim_fee', 'refund:deposit_release', 'payout:succeeded', 'payout:failed', 'payout_reversal:transfer_reversed'];
const PAYSTACK_KINDS = ['charge', 'refund:already_paid', 'refund:failed', 'refund:succeeded', 'host_earning:cancellation_fee'];

describe('the ledger under random bookings, payments, cancellations, refunds and payouts', () => {
  describe('through the sandbox provider', () => {
    let w: World;
    beforeAll(async () => {
      w = await createWorld(null);
    });
    afterAll(async () => {
      await w?.t.close();
    });

    it('keeps every invariant after every step', async () => {
      await fc.assert(ledgerProperty(() => w, sandboxAction), {
        ...propertyRuns(RUNS, 'ledger invariants (sandbox)', RECORDED_SEED),
        examples: [
          // Paid, cancelled late by the renter (the host earns a share of the fee), paid out, reversed.
          [[450, 730], [...PAID_TRIP, { kind: 'wait', hours: 60 }, { kind: 'cancel', trip: 0, who: 'renter', refund: 'full', percent: 0 }, { kind: 'payout', trip: 0, over: false }, { kind: 'reverse', trip: 0, over: false }, { kind: 'payout', trip: 0, over: false }]],
          // Paid twice; the host cancels (a penalty) and then a completed trip is paid out less the penalty.
          [
            [500, 615],
            [
              { kind: 'create', car: 0, inDays: 1, days: 1, hourly: false, pickup: null, insured: false },
              { kind: 'accept', trip: 0 },
              { kind: 'pay', trip: 0, how: 'twice', webhook: false },
              { kind: 'create', car: 0, inDays: 4, days: 2, hourly: false, pickup: PICKUP_HOME.id, insured: true },
              { kind: 'accept', trip: 0 },
              { kind: 'pay', trip: 0, how: 'once', webhook: false },
              { kind: 'cancel', trip: 0, who: 'host', refund: 'full', percent: 0 },
              { kind: 'wait', hours: 26 },
              { kind: 'return', car: 0, atTripEnd: false },
              { kind: 'payout', trip: 1, over: false },
              { kind: 'cancel', trip: 0, who: 'admin', refund: 'amount', percent: 40 },
            ],
          ],
        ],
      });
      await expectRowsOfEveryKind(w, SANDBOX_KINDS);
    }, 300_000);
  });

  describe('through Paystack (local stub), whose refunds can be queued, refused and given up', () => {
    let w: World;
    beforeAll(async () => {
      w = await createWorld(await startPaystackStub());
    });
    afterAll(async () => {
      await w?.t.close();
      await w?.stub?.close();
    });

    it('keeps every invariant after every step', async () => {
      await fc.assert(ledgerProperty(() => w, paystackAction), {
        ...propertyRuns(RUNS, 'ledger invariants (Paystack)', RECORDED_SEED),
        examples: [
          // Refused until failed, retried by an administrator; then a queued refund paid out by webhook.
          [
            [450, 730],
            [
              ...PAID_TRIP,
              { kind: 'refundsRefused', on: true },
              { kind: 'cancel', trip: 0, who: 'admin', refund: 'policy', percent: 0 },
              { kind: 'refundsGiveUp' },
              { kind: 'refundsRefused', on: false },
              { kind: 'retry', pick: 0 },
              { kind: 'refundsQueued', on: true },
              { kind: 'create', car: 1, inDays: 2, days: 2, hourly: false, pickup: null, insured: false },
              { kind: 'accept', trip: 0 },
              { kind: 'pay', trip: 0, how: 'late', webhook: true },
              { kind: 'paystackPaysOut', jobFirst: false },
            ],
          ],
          // Paid twice through Paystack, a queued refund, the renter's no-show, paid out after the job checks.
          [
            [389, 1210],
            [
              { kind: 'create', car: 1, inDays: 1, days: 4, hourly: false, pickup: null, insured: true },
              { kind: 'accept', trip: 0 },
              { kind: 'refundsQueued', on: true },
              { kind: 'pay', trip: 0, how: 'twice', webhook: true },
              { kind: 'wait', hours: 30 },
              { kind: 'cancel', trip: 0, who: 'no_show', refund: 'full', percent: 0 },
              { kind: 'paystackPaysOut', jobFirst: true },
              { kind: 'payout', trip: 0, over: false },
            ],
          ],
        ],
      });
      await expectRowsOfEveryKind(w, PAYSTACK_KINDS);
    }, 300_000);
  });

  describe('with trip charges, deposits released, and payouts sent by the job (two instances at once), through the sandbox', () => {
    let w: World;
    beforeAll(async () => {
      w = await createWorld(null);
      w.other = await secondInstance(w.t);
    });
    afterAll(async () => {
      await w?.other?.close();
      await w?.t.close();
    });

    it('keeps every invariant after every step', async () => {
      await fc.assert(moneyProperty(() => w), {
        ...propertyRuns(MONEY_RUNS, 'ledger invariants (trip charges and payouts)', RECORDED_SEED),
        examples: [
          // A claim beyond the deposit paid by the card, accepted; the deposit's rest released; paid out by two runs at once.
          [
            [450, 730],
            [
              { kind: 'book', car: 0, inDays: 1, days: 2, hourly: false, pickup: null, insured: false, how: 'once', webhook: false, declinesLater: false },
              { kind: 'finish', car: 0, fuel: 5, km: 700, recordAfterReturn: 0 },
              { kind: 'claim', trip: 0, fuel: true, extraKm: true, cleaning: null, damage: 900 },
              { kind: 'answer', claim: 0, dispute: false },
              { kind: 'account', host: 0, bank: 'paid' },
              { kind: 'sweep', hours: 80 },
              { kind: 'payoutRun', hours: 30, twice: true },
              { kind: 'payoutRun', hours: 24, twice: true },
            ],
          ],
          // A disputed claim decided above the deposit on a card that declines: the rest owed. The first
          // transfer fails and is retried; another host's is reversed by the bank three days later.
          [
            [389, 1210],
            [
              { kind: 'book', car: 0, inDays: 1, days: 1, hourly: false, pickup: null, insured: true, how: 'once', webhook: false, declinesLater: true },
              { kind: 'book', car: 1, inDays: 2, days: 1, hourly: false, pickup: null, insured: false, how: 'once', webhook: false, declinesLater: false },
              { kind: 'finish', car: 0, fuel: 8, km: 100, recordAfterReturn: 2 },
              { kind: 'claim', trip: 0, fuel: false, extraKm: false, cleaning: 400, damage: 3500 },
              { kind: 'answer', claim: 0, dispute: true },
              { kind: 'decide', claim: 0, percent: 80 },
              { kind: 'finish', car: 1, fuel: 6, km: 0, recordAfterReturn: 0 },
              // The other trip's fuel, well inside its deposit: accepted, and the rest of the deposit released by the sweep.
              { kind: 'claim', trip: 1, fuel: true, extraKm: false, cleaning: null, damage: null },
              { kind: 'answer', claim: 0, dispute: false },
              { kind: 'account', host: 0, bank: 'fails' },
              { kind: 'account', host: 1, bank: 'reversed' },
              { kind: 'sweep', hours: 76 },
              { kind: 'payoutRun', hours: 26, twice: false },
              { kind: 'retryTransfer', pick: 0 },
              { kind: 'payoutRun', hours: 24, twice: true },
              { kind: 'sync', hours: 80 },
              { kind: 'retryTransfer', pick: 0 },
            ],
          ],
          // A disputed claim holds the trip's share past its 72 hours; decided, the share and the claim are paid together.
          [
            [720, 480],
            [
              { kind: 'book', car: 1, inDays: 0, days: 2, hourly: false, pickup: null, insured: false, how: 'twice', webhook: false, declinesLater: false },
              { kind: 'account', host: 1, bank: 'paid' },
              { kind: 'finish', car: 1, fuel: 2, km: 1200, recordAfterReturn: 0 },
              { kind: 'claim', trip: 0, fuel: true, extraKm: true, cleaning: null, damage: 1800 },
              { kind: 'answer', claim: 0, dispute: true },
              { kind: 'payoutRun', hours: 80, twice: true },
              { kind: 'sweep', hours: 30 },
              { kind: 'payoutRun', hours: 24, twice: false },
              { kind: 'decide', claim: 0, percent: 35 },
              { kind: 'payoutRun', hours: 24, twice: true },
              { kind: 'payoutRun', hours: 24, twice: false },
            ],
          ],
          // The check-out recorded 20 hours after the return: a claim is filed after the trip's share was
          // paid (the window runs from the check-out), is accepted unanswered, and what it adds is paid.
          [
            [500, 615],
            [
              { kind: 'book', car: 0, inDays: 1, days: 1, hourly: false, pickup: null, insured: false, how: 'once', webhook: false, declinesLater: false },
              { kind: 'account', host: 0, bank: 'paid' },
              { kind: 'finish', car: 0, fuel: 3, km: 300, recordAfterReturn: 20 },
              { kind: 'payoutRun', hours: 60, twice: false },
              { kind: 'claim', trip: 0, fuel: true, extraKm: false, cleaning: 500, damage: null },
              { kind: 'sweep', hours: 50 },
              { kind: 'payoutRun', hours: 30, twice: true },
              { kind: 'payoutRun', hours: 24, twice: false },
            ],
          ],
        ],
      });
      await expectRowsOfEveryKind(w, MONEY_KINDS);
    }, 400_000);
  });
});
