// Admin Finance (document 3, Admin panel "Finance"; decisions.md sections 5, 7 and 12): every
// figure is a sum of ledger rows by when the money moved (docs/decisions/039-one-ledger.md),
// checked here against sums computed independently from the ledger_entries table (and, while
// trips are only paid, against the figures stored on the bookings); the CSV adds up to the same
// totals; payouts are the hosts' balances; a closed period never changes; admins only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FINANCE_CSV_HEADER, type AdminFinance, type Earning, type FinanceTotals } from '@karoo/shared';
import type { BookingRow, CarRow, LedgerEntryRow } from '../src/db/schema';
import { sql } from 'kysely';
import * as ledger from '../src/modules/ledger';
import { createSignedInUser, createTestApp, expectError, expectOk, type TestApp } from './helpers';
import { cancelTestTrip, recordTestCharge } from './helpers/ledger';
import { createTestBooking, createTestCar } from './helpers/vehicles';

type Signed = Awaited<ReturnType<typeof createSignedInUser>>;
const NOW = '2030-03-10T08:00:00Z';

let t: TestApp;
let admin: Signed;
let host: Signed;
let host2: Signed;
let renter: Signed;
let car: CarRow;
let car2: CarRow;
let car3: CarRow;
const trips: BookingRow[] = [];

const get = (url: string, headers: Record<string, string>) => t.app.inject({ method: 'GET', url, headers });
const finance = async (qs = '') => expectOk<AdminFinance>(await get(`/api/earnings/admin/finance${qs}`, admin.headers));
const markPaid = (id: string, reference = 'EFT-123') =>
  t.app.inject({ method: 'PATCH', url: `/api/earnings/earning/updatePayout/${id}`, headers: admin.headers, payload: { payout_status: 'paid', payout_reference: reference } });

/** A trip of `c` paid at `at` (its charge and shares in the ledger then), completed then too unless active. */
async function earned(c: CarRow, start: string, at: string, status: 'completed' | 'active' = 'completed', who: Signed = renter): Promise<BookingRow> {
  const b = await createTestBooking(t.ctx, c, who.user, { start, days: 2, status });
  const set = status === 'completed' ? { completed_at: new Date(at), paid_at: new Date(at) } : { paid_at: new Date(at) };
  const paid = await t.db.updateTable('bookings').set(set).where('id', '=', b.id).returningAll().executeTakeFirstOrThrow();
  await recordTestCharge(t.ctx, paid, at);
  return paid;
}

beforeAll(async () => {
  t = await createTestApp({ env: { BROWSE_CACHE_MS: '0' } });
  t.clock.set(NOW);
  admin = await createSignedInUser(t.app, t.ctx, { role: 'admin', verification_status: 'verified' });
  host = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' });
  host2 = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' });
  renter = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' });
  car = await createTestCar(t.ctx, host.user, { price: 800 });
  car2 = await createTestCar(t.ctx, host.user, { price: 455.5 });
  car3 = await createTestCar(t.ctx, host2.user, { price: 1200 });
  // Paid (and completed) in January, February and March (Johannesburg), and one active and paid.
  trips.push(await earned(car, '2030-01-05', '2030-01-07T12:00:00Z'));
  trips.push(await earned(car2, '2030-02-01', '2030-02-03T12:00:00Z'));
  // 23:30 UTC on 28 February is already 1 March in Johannesburg.
  trips.push(await earned(car3, '2030-02-26', '2030-02-28T23:30:00Z'));
  trips.push(await earned(car, '2030-03-02', '2030-03-04T10:00:00Z'));
  trips.push(await earned(car3, '2030-03-08', '2030-03-08T09:00:00Z', 'active'));
  // No money moved: pending, confirmed unpaid, cancelled before paying.
  await createTestBooking(t.ctx, car2, renter.user, { start: '2030-03-20', days: 2, status: 'pending' });
  await createTestBooking(t.ctx, car, renter.user, { start: '2030-03-25', days: 2, status: 'confirmed' });
  await createTestBooking(t.ctx, car3, renter.user, { start: '2030-04-01', days: 2, status: 'cancelled' });
});
afterAll(async () => {
  await t?.close();
});

const local = (d: Date | string) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Johannesburg' }).format(new Date(d));
const isShare = (r: LedgerEntryRow) => r.kind === 'host_earning' || r.kind === 'platform_fee';

/** The period's figures, summed here from the ledger rows whose money moved on those Johannesburg dates. */
async function expected(from?: string, to?: string) {
  const all = await t.db.selectFrom('ledger_entries').selectAll().where('state', '=', 'succeeded').execute();
  const rows = all.filter((r) => (!from || local(r.moved_at!) >= from) && (!to || local(r.moved_at!) <= to));
  const cents = (pick: (r: LedgerEntryRow) => boolean) => rows.filter(pick).reduce((acc, r) => acc + Number(r.amount_cents), 0);
  const host = cents((r) => r.kind === 'host_earning');
  const platform = cents((r) => r.kind === 'platform_fee');
  const service = cents((r) => r.kind === 'platform_fee' && r.code.startsWith('service_fee'));
  const insurance = cents((r) => r.kind === 'platform_fee' && r.code.startsWith('insurance'));
  const sharedIds = new Set(rows.filter(isShare).map((r) => r.booking_id));
  const shared = (await t.db.selectFrom('bookings').selectAll().execute()).filter((b) => sharedIds.has(b.id));
  const rates = (pick: (b: BookingRow) => number) => [...new Set(shared.map((b) => Number(pick(b))))].sort((a, b) => a - b);
  const totals: FinanceTotals = {
    gross: (host + platform) / 100,
    host_earnings: host / 100,
    platform_revenue: platform / 100,
    service_fees: service / 100,
    insurance: insurance / 100,
    host_fees: (platform - service - insurance) / 100,
    host_fee_rates: rates((b) => b.commission_rate),
    service_fee_rates: rates((b) => b.service_fee_rate),
    bookings: new Set(rows.filter((r) => isShare(r) && Number(r.amount_cents) > 0 && r.code !== 'cancellation_fee').map((r) => r.booking_id)).size,
    charged: cents((r) => r.kind === 'charge') / 100,
    refunds: cents((r) => r.kind === 'refund') / 100,
    cancellation_fees: cents((r) => isShare(r) && r.code === 'cancellation_fee') / 100,
    penalties: cents((r) => r.kind === 'host_penalty') / 100,
    paid_out: (cents((r) => r.kind === 'payout') - cents((r) => r.kind === 'payout_reversal')) / 100,
  };
  return { rows, sharedIds, totals };
}

function parseCsv(text: string): string[][] {
  return text.trimEnd().split('\r\n').map((line) => line.split(','));
}

describe('GET /api/earnings/admin/finance', () => {
  it('every figure equals the sums of the ledger rows; while trips are only paid, the sums of the stored booking figures too; platform revenue equals getAppFee', async () => {
    const f = await finance();
    const want = await expected();
    expect(want.totals.bookings).toBe(5);
    expect(f.totals).toEqual(want.totals);
    // The ledger agrees with the figures stored on the paid bookings.
    const stored = (pick: (b: BookingRow) => number) => trips.reduce((acc, b) => acc + pick(b), 0) / 100;
    expect(f.totals).toMatchObject({
      gross: stored((b) => b.total_price_cents),
      charged: stored((b) => b.total_price_cents),
      host_earnings: stored((b) => b.car_owner_earnings_cents),
      platform_revenue: stored((b) => b.app_fee_cents),
      service_fees: stored((b) => b.service_fee_cents),
      host_fees: stored((b) => b.subtotal_cents + b.pickup_fee_cents - b.car_owner_earnings_cents),
      refunds: 0,
      cancellation_fees: 0,
      penalties: 0,
      paid_out: 0,
    });
    expect(f.totals.gross).toBeCloseTo(f.totals.host_earnings + f.totals.platform_revenue, 2);

    const appFee = expectOk<{ total_app_fee: number; platform_fee: number; platformCommission: number }>(await get('/api/earnings/earning/getAppFee', admin.headers));
    expect(f.totals.platform_revenue).toBe(appFee.total_app_fee);
    expect(f.fee_structure).toEqual({ platform_fee: appFee.platform_fee, platformCommission: appFee.platformCommission });

    // Top cars: per car sums, ordered by platform revenue; their bookings add up to the total.
    const byCar = new Map<string, number>();
    for (const b of trips) byCar.set(b.car_id, (byCar.get(b.car_id) ?? 0) + b.app_fee_cents);
    expect(f.top_cars).toHaveLength(3);
    expect(f.top_cars.reduce((a, c) => a + c.bookings, 0)).toBe(5);
    const appFees = f.top_cars.map((c) => c.app_fee);
    expect(appFees).toEqual([...appFees].sort((a, b) => b - a));
    expect(f.top_cars.find((c) => c.car_username === car3.car_username)!.app_fee).toBe(byCar.get(car3.id)! / 100);

    // Recent transactions: a line per booking and day its money moved, newest first; they add up.
    expect(f.recent_transactions).toHaveLength(5);
    expect(f.recent_transactions[0]).toMatchObject({ car_username: car3.car_username, status: 'active', renter_username: renter.user.username, host_username: host2.user.username, day: '2030-03-08' });
    expect(f.recent_transactions.reduce((a, r) => a + Math.round(r.app_fee * 100), 0) / 100).toBe(want.totals.platform_revenue);
    expect(f.recent_transactions.reduce((a, r) => a + Math.round(r.charged * 100), 0) / 100).toBe(want.totals.charged);

    // Month over month, Johannesburg months: March has the 1 March (23:30 UTC 28 Feb), 4 and 8 March ones.
    expect(f.month_over_month).toMatchObject({ this_month: '2030-03', last_month: '2030-02' });
    expect(f.month_over_month.current).toEqual((await expected('2030-03-01', '2030-03-31')).totals);
    expect(f.month_over_month.previous).toEqual((await expected('2030-02-01', '2030-02-28')).totals);
    expect(f.month_over_month.current.bookings).toBe(3);
    expect(f.month_over_month.previous.bookings).toBe(1);

    // Payouts owed: per host, their balance (the earnings of completed trips, nothing paid or
    // charged yet) with those booking ids; a trip under way is not payable yet.
    const owed = (hostId: string) => trips.filter((b) => b.owner_id === hostId && b.status === 'completed');
    for (const h of [host, host2]) {
      const row = f.payouts.find((p) => p.host_id === h.user.id)!;
      expect(row.amount_owed).toBe(owed(h.user.id).reduce((a, b) => a + b.car_owner_earnings_cents, 0) / 100);
      expect([...row.booking_ids].sort()).toEqual(owed(h.user.id).map((b) => b.id).sort());
    }
  });

  it('the period filter counts the money that moved on those Johannesburg dates', async () => {
    for (const [from, to] of [['2030-02-01', '2030-02-28'], ['2030-03-01', '2030-03-05'], ['2030-01-01', '2030-01-31'], ['2031-01-01', '2031-12-31']] as const) {
      const f = await finance(`?from=${from}&to=${to}`);
      const want = await expected(from, to);
      expect(f.totals).toEqual(want.totals);
      expect(f.period).toEqual({ from, to });
      expect(f.recent_transactions.map((r) => r.booking_id).sort()).toEqual([...want.sharedIds].sort());
    }
    expect((await expected('2030-03-01', '2030-03-05')).totals.bookings).toBe(2);
    expectError(await get('/api/earnings/admin/finance?from=2030-03-05&to=2030-03-01', admin.headers), 400);
    expectError(await get('/api/earnings/admin/finance?from=2030-02-30', admin.headers), 400);
    expectError(await get('/api/earnings/admin/finance?from=yesterday', admin.headers), 400);
  });

  it('marking a payout paid writes the payout to the ledger and takes it off what is owed; the period it was paid in counts it as paid out', async () => {
    const before = await finance();
    const row = before.payouts.find((p) => p.host_id === host2.user.id)!;
    for (const id of row.booking_ids) expectOk(await markPaid(id));
    const after = await finance();
    expect(after.payouts.find((p) => p.host_id === host2.user.id)).toBeUndefined();
    expect(after.totals).toEqual({ ...before.totals, paid_out: before.totals.paid_out + row.amount_owed });
    expect(after.totals).toEqual((await expected()).totals);
    const payouts = await t.db.selectFrom('ledger_entries').selectAll().where('kind', '=', 'payout').where('host_id', '=', host2.user.id).execute();
    expect(payouts.map((p) => [p.booking_id, Number(p.amount_cents), p.provider_reference, p.actor_id])).toEqual(
      row.booking_ids.map((id) => [id, trips.find((b) => b.id === id)!.car_owner_earnings_cents, 'EFT-123', admin.user.id]),
    );
    expect(after.paid_payouts.filter((p) => p.host_id === host2.user.id).map((p) => p.amount)).toEqual([row.amount_owed]);
    // Paid today (10 March): this month's money, not the month the trip was paid in.
    expect((await finance('?from=2030-03-10&to=2030-03-10')).totals.paid_out).toBe(row.amount_owed);
    expect((await finance('?from=2030-03-01&to=2030-03-01')).totals.paid_out).toBe(0);
  });

  it('fees keep the rate they were taken at: after the host fee goes to 20%, the totals name both rates, a period of old bookings only 25%', async () => {
    expectOk(await t.app.inject({ method: 'PUT', url: '/api/settings', headers: admin.headers, payload: { platform_fee: 20 } }));
    try {
      const made = expectOk<{ id: string; commission_rate: number }>(
        await t.app.inject({ method: 'POST', url: '/api/booking/create', headers: renter.headers, payload: { car_username: car2.car_username, start_date: '2030-04-10', end_date: '2030-04-12' } }),
        201,
      );
      expect(made.commission_rate).toBe(20);
      const paid = await t.db
        .updateTable('bookings')
        .set({ status: 'completed', payment_status: 'paid', paid_at: new Date('2030-03-09T10:00:00Z'), completed_at: new Date('2030-03-09T10:00:00Z') })
        .where('id', '=', made.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      await recordTestCharge(t.ctx, paid);

      const all = await finance();
      expect(all.totals.host_fee_rates).toEqual([20, 25]);
      expect(all.totals.service_fee_rates).toEqual([10]);
      expect(all.fee_structure.platform_fee).toBe(20);
      // The bookings of February were all taken at 25%, whatever the setting says today.
      const february = await finance('?from=2030-02-01&to=2030-02-28');
      expect(february.totals.host_fee_rates).toEqual([25]);
      expect(february.totals).toEqual((await expected('2030-02-01', '2030-02-28')).totals);
      // A period with no money took no fee at any rate.
      const none = await finance('?from=2031-01-01&to=2031-01-31');
      expect(none.totals).toMatchObject({ host_fee_rates: [], service_fee_rates: [], bookings: 0, charged: 0 });
    } finally {
      expectOk(await t.app.inject({ method: 'PUT', url: '/api/settings', headers: admin.headers, payload: { platform_fee: 25 } }));
    }
  });

  it('admins only: 403 for hosts and customers, 401 for guests', async () => {
    for (const url of ['/api/earnings/admin/finance', '/api/earnings/admin/transactions.csv']) {
      expectError(await get(url, host.headers), 403);
      expectError(await get(url, renter.headers), 403);
      expectError(await get(url, {}), 401);
    }
  });
});

/** Every money column of the CSV, summed (rand with 2 decimals each, negative when money went back). */
function csvSums(rows: string[][]) {
  const col = (name: (typeof FINANCE_CSV_HEADER)[number]) => {
    const i = FINANCE_CSV_HEADER.indexOf(name);
    for (const r of rows) expect(r[i]).toMatch(/^-?\d+\.\d{2}$/);
    return rows.reduce((a, r) => a + Math.round(Number(r[i]) * 100), 0) / 100;
  };
  return {
    charged: col('charged'),
    refunds: col('refunded'),
    service_fees: col('service fee'),
    insurance: col('insurance'),
    host_fees: col('host fee'),
    cancellation_fees: col('cancellation fee'),
    host_earnings: col('host earnings'),
    platform_revenue: col('platform revenue'),
    penalties: col('host penalty'),
    paid_out: col('paid out'),
  };
}

describe('GET /api/earnings/admin/transactions.csv', () => {
  it('a header row, a row per booking and day its money moved, rand with 2 decimals; the rows add up to the totals', async () => {
    for (const [from, to] of [[undefined, undefined], ['2030-03-01', '2030-03-31']] as const) {
      const qs = from ? `?from=${from}&to=${to}` : '';
      const res = await get(`/api/earnings/admin/transactions.csv${qs}`, admin.headers);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/csv/);
      expect(res.headers['content-disposition']).toBe(`attachment; filename="karoo-transactions-${from ?? 'all'}-${to ?? '2030-03-10'}.csv"`);
      const [header, ...rows] = parseCsv(res.body);
      expect(header).toEqual([...FINANCE_CSV_HEADER]);
      const f = await finance(qs);
      const days = new Set((await expected(from, to)).rows.map((r) => `${r.booking_id}:${local(r.moved_at!)}`));
      expect(rows).toHaveLength(days.size);
      expect(csvSums(rows)).toEqual({
        charged: f.totals.charged,
        refunds: f.totals.refunds,
        service_fees: f.totals.service_fees,
        insurance: f.totals.insurance,
        host_fees: f.totals.host_fees,
        cancellation_fees: f.totals.cancellation_fees,
        host_earnings: f.totals.host_earnings,
        platform_revenue: f.totals.platform_revenue,
        penalties: f.totals.penalties,
        paid_out: f.totals.paid_out,
      });
      for (const r of rows) expect(r[FINANCE_CSV_HEADER.indexOf('date')]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
  });
});

describe('cancellations, refunds and penalties (issue 20)', () => {
  it('a late cancellation: the shares go back on its day and the fee is shared; the refund counts when it moved; the host sees their share of the fee and is owed it', async () => {
    const h = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' });
    const c = await createTestCar(t.ctx, h.user, { price: 800 });
    const trip = await earned(c, '2030-03-12', '2030-03-05T10:00:00Z', 'active');
    // The renter cancels late on 9 March: a fee of R 800, R 600 of it the host's; the rest comes back on 10 March.
    await cancelTestTrip(t.ctx, trip, { at: '2030-03-09T12:00:00Z', cause: 'renter', feeHostCents: 60_000, feePlatformCents: 20_000, refundedAt: '2030-03-10T07:00:00Z' });

    const paidDay = await finance('?from=2030-03-05&to=2030-03-05');
    expect(paidDay.totals).toMatchObject({ gross: trip.total_price_cents / 100, bookings: 1, refunds: 0, cancellation_fees: 0 });
    const cancelDay = await finance('?from=2030-03-09&to=2030-03-09');
    const cancelWant = await expected('2030-03-09', '2030-03-09');
    expect(cancelDay.totals).toEqual(cancelWant.totals);
    const tripLine = cancelDay.recent_transactions.find((r) => r.booking_id === trip.id)!;
    expect(tripLine).toMatchObject({
      day: '2030-03-09',
      gross: (80_000 - trip.total_price_cents) / 100,
      host_earnings: (60_000 - trip.car_owner_earnings_cents) / 100,
      cancellation_fee: 800,
      refunded: 0,
      charged: 0,
      status: 'cancelled',
    });
    const refundDay = await finance('?from=2030-03-10&to=2030-03-10');
    expect(refundDay.recent_transactions.find((r) => r.booking_id === trip.id)).toMatchObject({ refunded: (trip.total_price_cents - 80_000) / 100, gross: 0 });
    // All time: the renter paid the total, got all but the fee back; the fee is all that is kept.
    const everything = await finance();
    expect(everything.totals).toEqual((await expected()).totals);
    expect(everything.totals.charged - everything.totals.refunds).toBeCloseTo(everything.totals.gross, 2);

    // The host's earnings list shows the cancelled trip with their share of the fee.
    const list = expectOk<Earning[]>(await get(`/api/earnings/earning/getCarOwnerProfit/${h.user.username}`, h.headers));
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ id: trip.id, status: 'cancelled', gross: 800, car_owner_earnings: 600, app_fee: 200, cancellation_fee: 800, refunded: (trip.total_price_cents - 80_000) / 100, penalty: 0 });

    // A cancelled trip that kept a fee is final: its host is owed their share, and paid it.
    const owed = everything.payouts.find((p) => p.host_id === h.user.id)!;
    expect(owed).toMatchObject({ amount_owed: 600, booking_ids: [trip.id] });
    expect(expectOk<Earning>(await markPaid(trip.id, 'EFT-FEE')).payout_status).toBe('paid');
    expect((await finance()).payouts.find((p) => p.host_id === h.user.id)).toBeUndefined();
    const paid = await t.db.selectFrom('ledger_entries').select(['amount_cents']).where('booking_id', '=', trip.id).where('kind', '=', 'payout').execute();
    expect(paid.map((p) => Number(p.amount_cents))).toEqual([60_000]);
  });

  it('a host\'s penalty is taken from their next payout; a payout never goes below nothing, and what is left of a penalty waits for the next', async () => {
    const h = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' });
    const c = await createTestCar(t.ctx, h.user, { price: 800 });
    const small = await createTestCar(t.ctx, h.user, { price: 100 });
    const done = await earned(c, '2030-02-10', '2030-02-10T10:00:00Z');
    const cancelled = await earned(c, '2030-03-20', '2030-03-01T10:00:00Z', 'active');
    await cancelTestTrip(t.ctx, cancelled, { at: '2030-03-02T10:00:00Z', cause: 'host', penaltyCents: 25_000 });

    let f = await finance();
    const owed = f.payouts.find((p) => p.host_id === h.user.id)!;
    // The host-cancelled trip earned nothing, so it is not among the bookings to pay.
    expect(owed).toMatchObject({ amount_owed: (done.car_owner_earnings_cents - 25_000) / 100, booking_ids: [done.id], bookings: 1 });
    expect((await finance('?from=2030-03-02&to=2030-03-02')).totals).toMatchObject({ penalties: 250, refunds: cancelled.total_price_cents / 100, cancellation_fees: 0 });
    const list = expectOk<Earning[]>(await get(`/api/earnings/earning/getCarOwnerProfit/${h.user.id}`, admin.headers));
    expect(list.find((e) => e.id === cancelled.id)).toMatchObject({ car_owner_earnings: 0, gross: 0, penalty: 250, refunded: cancelled.total_price_cents / 100 });

    expectOk(await markPaid(done.id, 'EFT-LESS-PENALTY'));
    const ledgerPayouts = async (id: string) =>
      (await t.db.selectFrom('ledger_entries').select('amount_cents').where('booking_id', '=', id).where('kind', '=', 'payout').execute()).map((p) => Number(p.amount_cents));
    expect(await ledgerPayouts(done.id)).toEqual([done.car_owner_earnings_cents - 25_000]);
    f = await finance();
    expect(f.payouts.find((p) => p.host_id === h.user.id)).toBeUndefined();
    expect(f.paid_payouts.find((p) => p.booking_id === done.id)).toMatchObject({ amount: (done.car_owner_earnings_cents - 25_000) / 100, payout_reference: 'EFT-LESS-PENALTY' });

    // A second penalty larger than the next trip's share: that payout transfers nothing, and the
    // rest of the penalty comes off the trip after it.
    const again = await earned(c, '2030-03-25', '2030-03-03T10:00:00Z', 'active');
    await cancelTestTrip(t.ctx, again, { at: '2030-03-04T10:00:00Z', cause: 'host', penaltyCents: 25_000 });
    const cheap = await earned(small, '2030-02-20', '2030-02-20T10:00:00Z');
    expect(cheap.car_owner_earnings_cents).toBeLessThan(25_000);
    expect((await finance()).payouts.find((p) => p.host_id === h.user.id)).toBeUndefined();
    expectOk(await markPaid(cheap.id, 'EFT-NOTHING'));
    expect(await ledgerPayouts(cheap.id)).toEqual([]);
    const next = await earned(c, '2030-01-20', '2030-01-20T10:00:00Z');
    const left = 25_000 - cheap.car_owner_earnings_cents;
    expect((await finance()).payouts.find((p) => p.host_id === h.user.id)).toMatchObject({ amount_owed: (next.car_owner_earnings_cents - left) / 100, booking_ids: [next.id] });
    expectOk(await markPaid(next.id, 'EFT-NEXT'));
    expect(await ledgerPayouts(next.id)).toEqual([next.car_owner_earnings_cents - left]);
    // Owed = shares of final trips - penalties - payouts: nothing left either way.
    const rows = await t.db.selectFrom('ledger_entries').selectAll().where('host_id', '=', h.user.id).execute();
    const sum = (kind: string) => rows.filter((r) => r.kind === kind).reduce((a, r) => a + Number(r.amount_cents), 0);
    expect(sum('host_earning') - sum('host_penalty') - sum('payout') + sum('payout_reversal')).toBe(0);
  });

  it('a closed period never changes: 24 November\'s figures and CSV stay the same when its trip is returned and paid out later (issue 20)', async () => {
    const h = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' });
    const c = await createTestCar(t.ctx, h.user, { price: 950 });
    const other = await createTestCar(t.ctx, h.user, { price: 600 });
    const period = '?from=2029-11-24&to=2029-11-24';
    const figures = (f: AdminFinance) => ({
      totals: f.totals,
      top_cars: f.top_cars,
      lines: f.recent_transactions.map(({ status: _s, payout_status: _p, ...money }) => money),
    });
    const csv = async () => (await get(`/api/earnings/admin/transactions.csv${period}`, admin.headers)).body;
    try {
      t.clock.set('2029-11-24T08:00:00Z');
      const trip = await earned(c, '2029-11-24', '2029-11-24T08:00:00Z', 'active');
      await earned(other, '2029-11-20', '2029-11-24T09:00:00Z');
      const closed = figures(await finance(period));
      const closedCsv = await csv();
      expect(closed.totals.bookings).toBe(2);
      expect(closed.lines.map((l) => l.booking_id)).toContain(trip.id);

      // Returned on 28 November, paid out on 29 November.
      t.clock.set('2029-11-28T10:00:00Z');
      expectOk(await t.app.inject({ method: 'PATCH', url: `/api/car/returnCar/${c.car_username}`, headers: h.headers, payload: { condition_notes: 'Clean' } }));
      expect((await t.db.selectFrom('bookings').select('status').where('id', '=', trip.id).executeTakeFirstOrThrow()).status).toBe('completed');
      t.clock.set('2029-11-29T10:00:00Z');
      expectOk(await markPaid(trip.id, 'EFT-NOV'));

      expect(figures(await finance(period))).toEqual(closed);
      expect(await csv()).toBe(closedCsv);
      // The payout is the money of the day it moved.
      expect((await finance('?from=2029-11-29&to=2029-11-29')).totals).toMatchObject({ paid_out: trip.car_owner_earnings_cents / 100, gross: 0, bookings: 0 });
    } finally {
      t.clock.set(NOW);
    }
  });
});

describe('at scale (issue 32): each part reads what it returns, and answers as before', () => {
  it('the lines of money, read a page at a time after the last line (as the CSV reads them), are the lines of the old grouping in its order, none missed or repeated, ties of one moment broken by booking', async () => {
    // Three trips paid at one and the same moment (to the microsecond, which a JS Date cannot hold), on one day.
    const same = [];
    for (const start of ['2030-05-01', '2030-05-05', '2030-05-09']) same.push(await createTestBooking(t.ctx, car2, renter.user, { start, days: 2, status: 'confirmed' }));
    for (const b of same) {
      await sql`INSERT INTO ledger_entries (booking_id, renter_id, host_id, kind, code, amount_cents, moved_at, recorded_at)
        VALUES (${b.id}, ${b.renter_id}, ${b.owner_id}, 'charge', 'trip', 12345, '2030-03-09T10:00:00.123456Z', '2030-03-09T10:00:00.123456Z')`.execute(t.db);
    }
    // The old query: every line grouped, sorted, and paged by offset.
    const { rows: old } = await sql<{ booking_id: string; day: string }>`
      SELECT l.booking_id, to_char(l.moved_at AT TIME ZONE 'Africa/Johannesburg', 'YYYY-MM-DD') AS day
      FROM ledger_entries l WHERE l.state = 'succeeded'
      GROUP BY l.booking_id, to_char(l.moved_at AT TIME ZONE 'Africa/Johannesburg', 'YYYY-MM-DD')
      ORDER BY min(l.moved_at) DESC, l.booking_id DESC`.execute(t.db);
    expect(old.length).toBeGreaterThanOrEqual(8);
    const pages: string[] = [];
    let after: ledger.BookingDayCursor | undefined;
    for (let n = 0; n < 100; n++) {
      const page = await ledger.sumMoneyByBookingDay(t.db, {}, { limit: 2, ...(after ? { after } : {}) });
      pages.push(...page.map((l) => `${l.bookingId}:${l.day}`));
      if (page.length < 2) break;
      after = page.at(-1)!.cursor;
    }
    expect(pages).toEqual(old.map((r) => `${r.booking_id}:${r.day}`));
    // The recent transactions are the first ten of them.
    expect((await finance()).recent_transactions.map((r) => r.id)).toEqual(pages.slice(0, 10));
  });

  it('the payouts owed name the final trips not paid out that carry a host share, as the sums of each trip\'s own rows say', async () => {
    const f = await finance();
    const owed = await ledger.hostBalancesOwed(t.db);
    expect(f.payouts.map((p) => p.host_id).sort()).toEqual(owed.map((o) => o.hostId).sort());
    for (const p of f.payouts) {
      const unpaid = await t.db.selectFrom('bookings').select('id').where('owner_id', '=', p.host_id).where('status', 'in', ['completed', 'cancelled']).where('payout_status', '!=', 'paid').orderBy('id').execute();
      const money = await ledger.moneyOfBookings(t.db, unpaid.map((u) => u.id));
      expect(p.booking_ids).toEqual(unpaid.map((u) => u.id).filter((id) => (money.get(id)?.hostShareCents ?? 0) > 0));
    }
    expect(f.payouts.some((p) => p.booking_ids.length > 0)).toBe(true);
  });
});
