// Admin Finance (document 3, Admin panel "Finance"; decisions.md sections 5 and 7): every figure is
// a sum of the figures stored on the bookings that earn, checked here against sums computed
// independently from the bookings table; the CSV adds up to the same totals; admins only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FINANCE_CSV_HEADER, type AdminFinance } from '@karoo/shared';
import type { BookingRow, CarRow } from '../src/db/schema';
import { createSignedInUser, createTestApp, expectError, expectOk, type TestApp } from './helpers';
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

const get = (url: string, headers: Record<string, string>) => t.app.inject({ method: 'GET', url, headers });

async function earned(c: CarRow, start: string, at: string, status: 'completed' | 'active' = 'completed'): Promise<BookingRow> {
  const b = await createTestBooking(t.ctx, c, renter.user, { start, days: 2, status });
  const set = status === 'completed' ? { completed_at: new Date(at), paid_at: new Date(at) } : { paid_at: new Date(at) };
  return t.db.updateTable('bookings').set(set).where('id', '=', b.id).returningAll().executeTakeFirstOrThrow();
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
  // Earning: completed in January, February and March (Johannesburg), and one active and paid.
  await earned(car, '2030-01-05', '2030-01-07T12:00:00Z');
  await earned(car2, '2030-02-01', '2030-02-03T12:00:00Z');
  // 23:30 UTC on 28 February is already 1 March in Johannesburg.
  await earned(car3, '2030-02-26', '2030-02-28T23:30:00Z');
  await earned(car, '2030-03-02', '2030-03-04T10:00:00Z');
  await earned(car3, '2030-03-08', '2030-03-08T09:00:00Z', 'active');
  // Not earning: pending, confirmed unpaid, cancelled.
  await createTestBooking(t.ctx, car2, renter.user, { start: '2030-03-20', days: 2, status: 'pending' });
  await createTestBooking(t.ctx, car, renter.user, { start: '2030-03-25', days: 2, status: 'confirmed' });
  await createTestBooking(t.ctx, car3, renter.user, { start: '2030-04-01', days: 2, status: 'cancelled' });
});
afterAll(async () => {
  await t?.close();
});

/** The bookings that earn, read straight from the table and summed here. */
async function expected(from?: string, to?: string) {
  const rows = await t.db.selectFrom('bookings').selectAll().execute();
  const local = (d: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Johannesburg' }).format(d);
  const earning = rows.filter((b) => b.status === 'completed' || b.payment_status === 'paid').filter((b) => {
    const day = local(new Date(b.completed_at ?? b.paid_at ?? b.created_at));
    return (!from || day >= from) && (!to || day <= to);
  });
  const sum = (pick: (b: BookingRow) => number) => earning.reduce((acc, b) => acc + pick(b), 0) / 100;
  const rates = (pick: (b: BookingRow) => number) => [...new Set(earning.map((b) => Number(pick(b))))].sort((a, b) => a - b);
  return {
    rows: earning,
    totals: {
      gross: sum((b) => b.total_price_cents),
      host_earnings: sum((b) => b.car_owner_earnings_cents),
      platform_revenue: sum((b) => b.app_fee_cents),
      service_fees: sum((b) => b.service_fee_cents),
      insurance: sum((b) => b.insurance_fee_cents),
      pickup_fees: sum((b) => b.pickup_fee_cents),
      host_fees: sum((b) => b.subtotal_cents + b.pickup_fee_cents - b.car_owner_earnings_cents),
      host_fee_rates: rates((b) => b.commission_rate),
      service_fee_rates: rates((b) => b.service_fee_rate),
      bookings: earning.length,
    },
  };
}

function parseCsv(text: string): string[][] {
  return text.trimEnd().split('\r\n').map((line) => line.split(','));
}

describe('GET /api/earnings/admin/finance', () => {
  it('every figure equals the sums of the stored booking figures; platform revenue equals getAppFee', async () => {
    const finance = expectOk<AdminFinance>(await get('/api/earnings/admin/finance', admin.headers));
    const want = await expected();
    expect(want.totals.bookings).toBe(5);
    expect(finance.totals).toEqual(want.totals);
    expect(finance.totals.gross).toBeCloseTo(finance.totals.host_earnings + finance.totals.platform_revenue, 2);

    const appFee = expectOk<{ total_app_fee: number; platform_fee: number; platformCommission: number }>(await get('/api/earnings/earning/getAppFee', admin.headers));
    expect(finance.totals.platform_revenue).toBe(appFee.total_app_fee);
    expect(finance.fee_structure).toEqual({ platform_fee: appFee.platform_fee, platformCommission: appFee.platformCommission });

    // Top cars: per car sums, ordered by app fee; their bookings add up to the total.
    const byCar = new Map<string, number>();
    for (const b of want.rows) byCar.set(b.car_id, (byCar.get(b.car_id) ?? 0) + b.app_fee_cents);
    expect(finance.top_cars).toHaveLength(3);
    expect(finance.top_cars.reduce((a, c) => a + c.bookings, 0)).toBe(5);
    const appFees = finance.top_cars.map((c) => c.app_fee);
    expect(appFees).toEqual([...appFees].sort((a, b) => b - a));
    const car3Row = finance.top_cars.find((c) => c.car_username === car3.car_username)!;
    expect(car3Row.app_fee).toBe(byCar.get(car3.id)! / 100);

    // Recent transactions: newest first, at most 10, the rows' app fees add up (all 5 fit).
    expect(finance.recent_transactions).toHaveLength(5);
    expect(finance.recent_transactions[0]).toMatchObject({ car_username: car3.car_username, status: 'active', renter_username: renter.user.username, host_username: host2.user.username });
    expect(finance.recent_transactions.reduce((a, r) => a + Math.round(r.app_fee * 100), 0) / 100).toBe(want.totals.platform_revenue);

    // Month over month, Johannesburg months: March has the 1 March (23:30 UTC 28 Feb), 4 and 8 March ones.
    expect(finance.month_over_month).toMatchObject({ this_month: '2030-03', last_month: '2030-02' });
    expect(finance.month_over_month.current).toEqual((await expected('2030-03-01', '2030-03-31')).totals);
    expect(finance.month_over_month.previous).toEqual((await expected('2030-02-01', '2030-02-28')).totals);
    expect(finance.month_over_month.current.bookings).toBe(3);
    expect(finance.month_over_month.previous.bookings).toBe(1);

    // Payouts owed: per host, the unpaid earnings of completed trips with their booking ids (a trip
    // under way is not payable yet).
    const owed = (hostId: string) => want.rows.filter((b) => b.owner_id === hostId && b.status === 'completed' && b.payout_status !== 'paid');
    for (const h of [host, host2]) {
      const row = finance.payouts.find((p) => p.host_id === h.user.id)!;
      expect(row.amount_owed).toBe(owed(h.user.id).reduce((a, b) => a + b.car_owner_earnings_cents, 0) / 100);
      expect([...row.booking_ids].sort()).toEqual(owed(h.user.id).map((b) => b.id).sort());
    }
  });

  it('the period filter counts the bookings earned on those Johannesburg dates', async () => {
    for (const [from, to] of [['2030-02-01', '2030-02-28'], ['2030-03-01', '2030-03-05'], ['2030-01-01', '2030-01-31'], ['2031-01-01', '2031-12-31']] as const) {
      const finance = expectOk<AdminFinance>(await get(`/api/earnings/admin/finance?from=${from}&to=${to}`, admin.headers));
      const want = await expected(from, to);
      expect(finance.totals).toEqual(want.totals);
      expect(finance.period).toEqual({ from, to });
      expect(finance.recent_transactions.map((r) => r.id).sort()).toEqual(want.rows.map((b) => b.id).sort());
    }
    expect((await expected('2030-03-01', '2030-03-05')).totals.bookings).toBe(2);
    expectError(await get('/api/earnings/admin/finance?from=2030-03-05&to=2030-03-01', admin.headers), 400);
    expectError(await get('/api/earnings/admin/finance?from=2030-02-30', admin.headers), 400);
    expectError(await get('/api/earnings/admin/finance?from=yesterday', admin.headers), 400);
  });

  it('marking a payout paid takes it off what is owed', async () => {
    const before = expectOk<AdminFinance>(await get('/api/earnings/admin/finance', admin.headers));
    const row = before.payouts.find((p) => p.host_id === host2.user.id)!;
    for (const id of row.booking_ids) {
      expectOk(await t.app.inject({ method: 'PATCH', url: `/api/earnings/earning/updatePayout/${id}`, headers: admin.headers, payload: { payout_status: 'paid', payout_reference: 'EFT-123' } }));
    }
    const after = expectOk<AdminFinance>(await get('/api/earnings/admin/finance', admin.headers));
    expect(after.payouts.find((p) => p.host_id === host2.user.id)).toBeUndefined();
    expect(after.totals).toEqual(before.totals);
  });

  it('fees keep the rate they were taken at: after the host fee goes to 20%, the totals name both rates, a period of old bookings only 25%', async () => {
    expectOk(await t.app.inject({ method: 'PUT', url: '/api/settings', headers: admin.headers, payload: { platform_fee: 20 } }));
    try {
      const made = expectOk<{ id: string; commission_rate: number }>(
        await t.app.inject({ method: 'POST', url: '/api/booking/create', headers: renter.headers, payload: { car_username: car2.car_username, start_date: '2030-04-10', end_date: '2030-04-12' } }),
        201,
      );
      expect(made.commission_rate).toBe(20);
      await t.db.updateTable('bookings').set({ status: 'completed', payment_status: 'paid', paid_at: new Date('2030-03-09T10:00:00Z'), completed_at: new Date('2030-03-09T10:00:00Z') }).where('id', '=', made.id).execute();

      const all = expectOk<AdminFinance>(await get('/api/earnings/admin/finance', admin.headers));
      expect(all.totals.host_fee_rates).toEqual([20, 25]);
      expect(all.totals.service_fee_rates).toEqual([10]);
      expect(all.fee_structure.platform_fee).toBe(20);
      // The bookings of February were all taken at 25%, whatever the setting says today.
      const february = expectOk<AdminFinance>(await get('/api/earnings/admin/finance?from=2030-02-01&to=2030-02-28', admin.headers));
      expect(february.totals.host_fee_rates).toEqual([25]);
      expect(february.totals).toEqual((await expected('2030-02-01', '2030-02-28')).totals);
      // A period with no earning booking took no fee at any rate.
      const none = expectOk<AdminFinance>(await get('/api/earnings/admin/finance?from=2031-01-01&to=2031-01-31', admin.headers));
      expect(none.totals).toMatchObject({ host_fee_rates: [], service_fee_rates: [], bookings: 0 });
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

describe('GET /api/earnings/admin/transactions.csv', () => {
  it('a header row, one row per earning booking, rand with 2 decimals; the rows add up to the totals', async () => {
    for (const [from, to] of [[undefined, undefined], ['2030-03-01', '2030-03-31']] as const) {
      const qs = from ? `?from=${from}&to=${to}` : '';
      const res = await get(`/api/earnings/admin/transactions.csv${qs}`, admin.headers);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/csv/);
      expect(res.headers['content-disposition']).toBe(`attachment; filename="karoo-transactions-${from ?? 'all'}-${to ?? '2030-03-10'}.csv"`);
      const [header, ...rows] = parseCsv(res.body);
      expect(header).toEqual([...FINANCE_CSV_HEADER]);
      const finance = expectOk<AdminFinance>(await get(`/api/earnings/admin/finance${qs}`, admin.headers));
      expect(rows).toHaveLength(finance.totals.bookings);
      const col = (name: (typeof FINANCE_CSV_HEADER)[number]) => {
        const i = FINANCE_CSV_HEADER.indexOf(name);
        for (const r of rows) expect(r[i]).toMatch(/^\d+\.\d{2}$/);
        return rows.reduce((a, r) => a + Math.round(Number(r[i]) * 100), 0) / 100;
      };
      expect(col('total')).toBe(finance.totals.gross);
      expect(col('service fee')).toBe(finance.totals.service_fees);
      expect(col('insurance')).toBe(finance.totals.insurance);
      expect(col('pickup fee')).toBe(finance.totals.pickup_fees);
      expect(col('host earnings')).toBe(finance.totals.host_earnings);
      expect(col('platform revenue')).toBe(finance.totals.platform_revenue);
    }
  });
});
