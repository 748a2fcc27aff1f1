// Migration 0020 moves the money recorded before the ledger into it (issue 20; docs/decisions/
// 039-one-ledger.md). Data is written at migration 0019 in the shapes the old code wrote (paid and
// completed trips with their payments rows, a trip without one, refunded charges, payouts marked
// paid, reversed, and reversed then paid again, an invoice); every figure the old screens showed is
// computed with the old code's SQL (copied here from earnings.repository.ts before the ledger);
// after migrating to the latest version, each all-time figure the API answers from the ledger must
// be the same. The ledger must also balance, booking by booking.
import { Migrator, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FINANCE_CSV_HEADER, type AdminAnalytics, type AdminFinance, type Booking, type Earning, type EarningsSummary, type Invoice, type ProfitPerCar } from '@karoo/shared';
import { migrateToLatest } from '../src/db/migrate';
import { migrations } from '../src/db/migrations';
import type { BookingRow, CarRow } from '../src/db/schema';
import { createSignedInUser, createTestApp, expectOk, type TestApp } from './helpers';
import { createTestBooking, createTestCar, INSURANCE_STANDARD, PICKUP_AIRPORT } from './helpers/vehicles';

type Signed = Awaited<ReturnType<typeof createSignedInUser>>;
const NOW = '2030-03-10T08:00:00Z';

let t: TestApp;
let admin: Signed;
let hostA: Signed;
let hostB: Signed;
let renter: Signed;
const cars: CarRow[] = [];

const get = async <T>(url: string, who: Signed = admin) => expectOk<T>(await t.app.inject({ method: 'GET', url, headers: who.headers }));

async function migrateTo(name: string): Promise<void> {
  const { rows } = await sql<{ schema: string }>`SELECT current_schema() AS schema`.execute(t.db);
  const migrator = new Migrator({ db: t.db, provider: { getMigrations: async () => migrations }, migrationTableSchema: rows[0]!.schema });
  const { error } = await migrator.migrateTo(name);
  if (error) throw error instanceof Error ? error : new Error(String(error));
}

beforeAll(async () => {
  t = await createTestApp({ env: { BROWSE_CACHE_MS: '0' } });
  t.clock.set(NOW);
  admin = await createSignedInUser(t.app, t.ctx, { role: 'admin', verification_status: 'verified' });
  hostA = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' });
  hostB = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' });
  renter = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' });
  cars.push(await createTestCar(t.ctx, hostA.user, { price: 800 }));
  cars.push(await createTestCar(t.ctx, hostA.user, { price: 455.5 }));
  cars.push(await createTestCar(t.ctx, hostB.user, { price: 1200, pickup_options: [PICKUP_AIRPORT], insurance_options: [INSURANCE_STANDARD] }));
});
afterAll(async () => {
  await t?.close();
});

const at = (iso: string) => new Date(iso);

/** A booking with its old money columns set as the old code left them. */
async function oldBooking(car: CarRow, start: string, status: BookingRow['status'], set: Record<string, unknown> = {}): Promise<BookingRow> {
  const b = await createTestBooking(t.ctx, car, renter.user, { start, days: 2, status });
  if (Object.keys(set).length === 0) return b;
  return t.db.updateTable('bookings').set(set).where('id', '=', b.id).returningAll().executeTakeFirstOrThrow();
}

/** A payments row as the old code wrote it (a refund in its columns). */
async function oldPayment(b: BookingRow, reference: string, refund?: { status: 'pending' | 'refunded'; at: string; code: string }): Promise<void> {
  await sql`
    INSERT INTO payments (reference, booking_id, provider, amount_cents, currency, status, refund_status, refund_amount_cents, refund_reason,
      refund_reason_code, refund_requested_at, refunded_at, created_at, updated_at)
    VALUES (${reference}, ${b.id}, 'sandbox', ${b.total_price_cents}, 'ZAR', 'success', ${refund?.status ?? null}, ${refund ? b.total_price_cents : null},
      ${refund ? 'This booking was already paid with another payment.' : null}, ${refund?.code ?? null}, ${refund ? at(refund.at) : null},
      ${refund?.status === 'refunded' ? at(refund.at) : null}, ${b.paid_at ?? b.created_at}, ${b.paid_at ?? b.created_at})`.execute(t.db);
}

async function oldReversal(b: BookingRow, paidAt: string, reversedAt: string, reference: string, reason: string): Promise<void> {
  await t.db
    .insertInto('payout_reversals')
    .values({
      booking_id: b.id,
      amount_cents: b.car_owner_earnings_cents,
      payout_reference: reference,
      paid_at: at(paidAt),
      reason,
      reversed_by: admin.user.id,
      reversed_by_username: admin.user.username.toLowerCase(),
      reversed_at: at(reversedAt),
    })
    .execute();
}

// ---- The old screens' SQL (earnings.repository.ts before the ledger), verbatim in meaning ----

const EARNING = sql`(b.status = 'completed' OR b.payment_status = 'paid')`;

async function oldTotals() {
  const { rows } = await sql<Record<string, string | null>>`
    SELECT coalesce(sum(b.total_price_cents), 0) AS gross, coalesce(sum(b.car_owner_earnings_cents), 0) AS host_earnings,
      coalesce(sum(b.app_fee_cents), 0) AS app_fee, coalesce(sum(b.service_fee_cents), 0) AS service_fees,
      coalesce(sum(b.insurance_fee_cents), 0) AS insurance, coalesce(sum(b.pickup_fee_cents), 0) AS pickup_fees,
      coalesce(sum(b.subtotal_cents), 0) AS rental,
      string_agg(DISTINCT b.commission_rate::text, ',') AS host_fee_rates, string_agg(DISTINCT b.service_fee_rate::text, ',') AS service_fee_rates,
      count(*) AS bookings
    FROM bookings b WHERE ${EARNING}`.execute(t.db);
  const r = rows[0]!;
  const n = (k: string) => Number(r[k]);
  const rates = (k: string) => [...new Set((r[k] ?? '').split(',').filter(Boolean).map(Number))].sort((a, b) => a - b);
  return {
    gross: n('gross') / 100,
    host_earnings: n('host_earnings') / 100,
    platform_revenue: n('app_fee') / 100,
    service_fees: n('service_fees') / 100,
    insurance: n('insurance') / 100,
    host_fees: (n('rental') + n('pickup_fees') - n('host_earnings')) / 100,
    host_fee_rates: rates('host_fee_rates'),
    service_fee_rates: rates('service_fee_rates'),
    bookings: n('bookings'),
  };
}

async function oldTopCars() {
  const { rows } = await sql<{ car_username: string; gross: string; host_earnings: string; app_fee: string; bookings: string }>`
    SELECT c.car_username, sum(b.total_price_cents) AS gross, sum(b.car_owner_earnings_cents) AS host_earnings, sum(b.app_fee_cents) AS app_fee, count(*) AS bookings
    FROM bookings b JOIN cars c ON c.id = b.car_id WHERE ${EARNING}
    GROUP BY c.id, c.car_username ORDER BY sum(b.app_fee_cents) DESC, sum(b.total_price_cents) DESC, c.car_username LIMIT 5`.execute(t.db);
  return rows.map((r) => ({ car_username: r.car_username, gross: Number(r.gross) / 100, car_owner_earnings: Number(r.host_earnings) / 100, app_fee: Number(r.app_fee) / 100, bookings: Number(r.bookings) }));
}

async function oldPayoutsOwed() {
  const { rows } = await sql<{ host_id: string; amount_owed: string; booking_ids: string }>`
    SELECT h.id AS host_id, sum(b.car_owner_earnings_cents) AS amount_owed, string_agg(b.id::text, ',' ORDER BY b.id) AS booking_ids
    FROM bookings b JOIN users h ON h.id = b.owner_id
    WHERE ${EARNING} AND b.status = 'completed' AND b.payout_status != 'paid'
    GROUP BY h.id`.execute(t.db);
  return rows.map((r) => ({ host_id: r.host_id, amount_owed: Number(r.amount_owed) / 100, booking_ids: r.booking_ids.split(',') })).sort((a, b) => a.host_id.localeCompare(b.host_id));
}

async function oldPaidPayouts() {
  const { rows } = await sql<{ booking_id: string; car_owner_earnings_cents: number; payout_reference: string | null; payout_at: Date | null }>`
    SELECT b.id AS booking_id, b.car_owner_earnings_cents, b.payout_reference, b.payout_at FROM bookings b
    WHERE b.payout_status = 'paid' ORDER BY b.payout_at DESC NULLS LAST, b.id DESC LIMIT 20`.execute(t.db);
  return rows.map((r) => ({ booking_id: r.booking_id, amount: Number(r.car_owner_earnings_cents) / 100, payout_reference: r.payout_reference, paid_at: r.payout_at ? new Date(r.payout_at).toISOString() : null }));
}

async function oldReversals() {
  const { rows } = await sql<{ booking_id: string; amount_cents: number; payout_reference: string | null; paid_at: Date | null; reason: string; reversed_by_username: string; reversed_at: Date }>`
    SELECT r.booking_id, r.amount_cents, r.payout_reference, r.paid_at, r.reason, r.reversed_by_username, r.reversed_at
    FROM payout_reversals r ORDER BY r.reversed_at DESC, r.id DESC LIMIT 10`.execute(t.db);
  return rows.map((r) => ({
    booking_id: r.booking_id,
    amount: Number(r.amount_cents) / 100,
    payout_reference: r.payout_reference,
    paid_at: r.paid_at ? new Date(r.paid_at).toISOString() : null,
    reason: r.reason,
    reversed_by: r.reversed_by_username,
    reversed_at: new Date(r.reversed_at).toISOString(),
  }));
}

/** The old earnings list of a host (or everyone): the earning bookings with their stored figures, and the old summary's sums. */
async function oldEarnings(hostId?: string) {
  const { rows } = await sql<{ id: string; car_username: string; total_price_cents: number; subtotal_cents: number; pickup_fee_cents: number; car_owner_earnings_cents: number; app_fee_cents: number }>`
    SELECT b.id, c.car_username, b.total_price_cents, b.subtotal_cents, b.pickup_fee_cents, b.car_owner_earnings_cents, b.app_fee_cents
    FROM bookings b JOIN cars c ON c.id = b.car_id WHERE ${EARNING} ${hostId ? sql`AND b.owner_id = ${hostId}` : sql``}`.execute(t.db);
  const sum = (list: typeof rows, pick: (r: (typeof rows)[number]) => number) => list.reduce((a, r) => a + Number(pick(r)), 0) / 100;
  const rental = sum(rows, (r) => r.subtotal_cents + r.pickup_fee_cents);
  const earnings = sum(rows, (r) => r.car_owner_earnings_cents);
  const byCar = new Map<string, typeof rows>();
  for (const r of rows) byCar.set(r.car_username, [...(byCar.get(r.car_username) ?? []), r]);
  return {
    list: rows.map((r) => ({ id: r.id, gross: r.total_price_cents / 100, car_owner_earnings: r.car_owner_earnings_cents / 100, app_fee: r.app_fee_cents / 100 })).sort((a, b) => a.id.localeCompare(b.id)),
    summary: {
      total_revenue: sum(rows, (r) => r.total_price_cents),
      rental_income: rental,
      host_fee: Math.round((rental - earnings) * 100) / 100,
      total_earnings: earnings,
      app_fee: sum(rows, (r) => r.app_fee_cents),
      bookings: rows.length,
    },
    byCar: new Map(
      [...byCar].map(([car, list]) => [car, { gross: sum(list, (r) => r.total_price_cents), car_owner_earnings: sum(list, (r) => r.car_owner_earnings_cents), app_fee: sum(list, (r) => r.app_fee_cents), bookings: list.length }]),
    ),
  };
}

async function oldInvoices() {
  const { rows } = await sql<{ id: string; total_amount_cents: number; car_owner_earnings_cents: number; app_fee_cents: number; subtotal_cents: number; pickup_fee_cents: number }>`
    SELECT i.id, i.total_amount_cents, i.car_owner_earnings_cents, i.app_fee_cents, b.subtotal_cents, b.pickup_fee_cents
    FROM invoices i JOIN bookings b ON b.id = i.booking_id`.execute(t.db);
  return rows
    .map((r) => ({
      id: r.id,
      total_amount: r.total_amount_cents / 100,
      rental_income: (r.subtotal_cents + r.pickup_fee_cents) / 100,
      host_fee: (r.subtotal_cents + r.pickup_fee_cents - r.car_owner_earnings_cents) / 100,
      car_owner_earnings: r.car_owner_earnings_cents / 100,
      app_fee: r.app_fee_cents / 100,
    }))
    .sort((a, b) => a.id.localeCompare(b.id));
}

/** The old analytics revenue of a period: the app fee of the bookings earned in it (by completion, else payment). */
async function oldRevenue(from: string, to: string) {
  const { rows } = await sql<{ cents: string }>`
    SELECT coalesce(sum(b.app_fee_cents), 0) AS cents FROM bookings b
    WHERE ${EARNING} AND (coalesce(b.completed_at, b.paid_at, b.created_at) AT TIME ZONE 'Africa/Johannesburg')::date BETWEEN ${from}::date AND ${to}::date`.execute(t.db);
  return Number(rows[0]!.cents) / 100;
}

async function oldFigures() {
  return {
    totals: await oldTotals(),
    topCars: await oldTopCars(),
    owed: await oldPayoutsOwed(),
    paid: await oldPaidPayouts(),
    reversals: await oldReversals(),
    all: await oldEarnings(),
    hostA: await oldEarnings(hostA.user.id),
    hostB: await oldEarnings(hostB.user.id),
    invoices: await oldInvoices(),
    revenue: await oldRevenue('2029-12-01', '2030-03-31'),
  };
}

describe('0020: the money before the ledger, moved into it', () => {
  it('every figure of the old screens equals the ledger\'s after the migration, and every booking balances', async () => {
    const [carA1, carA2, carB] = cars as [CarRow, CarRow, CarRow];
    // With pickup and insurance (through the API, as renters book, a week before), paid out, reversed, paid again.
    // Booked on the latest schema (today's code writes its columns), then carried down to 0019 with
    // the other rows: the code of 0019 would have stored the same figures.
    t.clock.set('2030-02-18T08:00:00Z');
    const made = expectOk<Booking>(
      await t.app.inject({ method: 'POST', url: '/api/booking/create', headers: renter.headers, payload: { car_username: carB.car_username, start_date: '2030-02-25', end_date: '2030-02-28', pickup_option: PICKUP_AIRPORT.id, insurance_option: INSURANCE_STANDARD.id } }),
      201,
    );
    t.clock.set(NOW);
    await migrateTo('0019-sign-in-links');

    // Completed, paid with a payments row, payout owed.
    const owedTrip = await oldBooking(carA1, '2030-01-05', 'completed', { paid_at: at('2030-01-04T10:00:00Z'), completed_at: at('2030-01-07T12:00:00Z'), payment_reference: 'OLD-1' });
    await oldPayment(owedTrip, 'OLD-1');
    // Completed and paid out.
    const paidOut = await oldBooking(carA1, '2030-02-01', 'completed', {
      paid_at: at('2030-01-30T10:00:00Z'), completed_at: at('2030-02-03T12:00:00Z'), payment_reference: 'OLD-2',
      payout_status: 'paid', payout_reference: 'EFT-A', payout_at: at('2030-02-05T09:00:00Z'),
    });
    await oldPayment(paidOut, 'OLD-2');
    // Paid out, then reversed: owed again.
    const reversed = await oldBooking(carA2, '2030-02-10', 'completed', { paid_at: at('2030-02-09T10:00:00Z'), completed_at: at('2030-02-12T12:00:00Z'), payment_reference: 'OLD-3' });
    await oldPayment(reversed, 'OLD-3');
    await oldReversal(reversed, '2030-02-14T09:00:00Z', '2030-02-15T09:00:00Z', 'EFT-WRONG', 'Paid to the wrong account');
    const repaid = await t.db
      .updateTable('bookings')
      .set({
        status: 'completed', payment_status: 'paid', paid_at: at('2030-02-20T10:00:00Z'), completed_at: at('2030-02-28T15:00:00Z'), payment_reference: 'OLD-4',
        payout_status: 'paid', payout_reference: 'EFT-B2', payout_at: at('2030-03-05T09:00:00Z'), expires_at: null,
      })
      .where('id', '=', made.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    expect(repaid.pickup_fee_cents).toBeGreaterThan(0);
    expect(repaid.insurance_fee_cents).toBeGreaterThan(0);
    await oldPayment(repaid, 'OLD-4');
    await oldReversal(repaid, '2030-03-01T09:00:00Z', '2030-03-02T09:00:00Z', 'EFT-B1', 'Duplicate transfer');
    // Active and paid, and a second charge of it refunded.
    const active = await oldBooking(carB, '2030-03-09', 'active', { paid_at: at('2030-03-08T10:00:00Z'), payment_reference: 'OLD-5' });
    await oldPayment(active, 'OLD-5');
    await oldPayment(active, 'OLD-5-SECOND', { status: 'refunded', at: '2030-03-08T11:00:00Z', code: 'already_paid' });
    // Completed with no payments row (demo data, older imports).
    const noPayment = await oldBooking(carB, '2030-01-10', 'completed', { paid_at: at('2030-01-09T10:00:00Z'), completed_at: at('2030-01-12T12:00:00Z') });
    // Charges no booking kept: one refunded, one refund still pending.
    const late = await oldBooking(carA2, '2030-03-20', 'cancelled');
    await oldPayment(late, 'OLD-LATE', { status: 'refunded', at: '2030-03-06T10:00:00Z', code: 'booking_cancelled' });
    const expired = await oldBooking(carA1, '2030-03-25', 'cancelled');
    await oldPayment(expired, 'OLD-EXPIRED', { status: 'pending', at: '2030-03-07T10:00:00Z', code: 'booking_expired' });
    // No money: pending and confirmed.
    await oldBooking(carA2, '2030-04-01', 'pending');
    await oldBooking(carB, '2030-04-10', 'confirmed');
    // An invoice issued by the old code, from the booking's stored figures.
    await t.db
      .insertInto('invoices')
      .values({
        invoice_number: 'INV-2030-000901', booking_id: repaid.id, car_id: repaid.car_id, owner_id: repaid.owner_id,
        total_amount_cents: repaid.total_price_cents, car_owner_earnings_cents: repaid.car_owner_earnings_cents, app_fee_cents: repaid.app_fee_cents,
        line_items: JSON.stringify([{ description: 'Rental (3 days)', amount_cents: repaid.subtotal_cents }]), issued_at: at('2030-03-01T10:00:00Z'),
      })
      .execute();

    const old = await oldFigures();
    expect(old.totals.bookings).toBe(6);
    expect(old.owed.map((o) => o.booking_ids.length).reduce((a, b) => a + b, 0)).toBe(3);

    await migrateToLatest(t.db);

    // Admin Finance, all time.
    const finance = await get<AdminFinance>('/api/earnings/admin/finance');
    expect(finance.totals).toMatchObject(old.totals);
    expect(finance.top_cars.map(({ car_username, gross, car_owner_earnings, app_fee, bookings }) => ({ car_username, gross, car_owner_earnings, app_fee, bookings }))).toEqual(old.topCars);
    expect(finance.payouts.map((p) => ({ host_id: p.host_id, amount_owed: p.amount_owed, booking_ids: [...p.booking_ids].sort() })).sort((a, b) => a.host_id.localeCompare(b.host_id))).toEqual(old.owed);
    expect(finance.paid_payouts.map(({ booking_id, amount, payout_reference, paid_at }) => ({ booking_id, amount, payout_reference, paid_at }))).toEqual(old.paid);
    expect(finance.payout_reversals.map(({ booking_id, amount, payout_reference, paid_at, reason, reversed_by, reversed_at }) => ({ booking_id, amount, payout_reference, paid_at, reason, reversed_by, reversed_at }))).toEqual(old.reversals);
    const appFee = await get<{ total_app_fee: number }>('/api/earnings/earning/getAppFee');
    expect(appFee.total_app_fee).toBe(old.totals.platform_revenue);

    // The CSV adds up to the old one's columns.
    const csv = (await t.app.inject({ method: 'GET', url: '/api/earnings/admin/transactions.csv', headers: admin.headers })).body.trimEnd().split('\r\n').slice(1).map((l) => l.split(','));
    const column = (name: (typeof FINANCE_CSV_HEADER)[number]) => csv.reduce((a, r) => a + Math.round(Number(r[FINANCE_CSV_HEADER.indexOf(name)]) * 100), 0);
    expect(column('host earnings') / 100).toBe(old.totals.host_earnings);
    expect(column('platform revenue') / 100).toBe(old.totals.platform_revenue);
    expect((column('host earnings') + column('platform revenue')) / 100).toBe(old.totals.gross);

    // Hosts' earnings, summaries and cars.
    for (const [who, want] of [[hostA, old.hostA], [hostB, old.hostB]] as const) {
      const list = await get<Earning[]>(`/api/earnings/earning/getCarOwnerProfit/${who.user.id}`, who);
      expect(list.map(({ id, gross, car_owner_earnings, app_fee }) => ({ id, gross, car_owner_earnings, app_fee })).sort((a, b) => a.id.localeCompare(b.id))).toEqual(want.list);
      const summary = await get<EarningsSummary>('/api/earnings/earning/getSummary', who);
      expect(summary).toMatchObject(want.summary);
      for (const [carUsername, figures] of want.byCar) {
        expect(summary.by_car.find((c) => c.car_username === carUsername)).toMatchObject(figures);
        expect(await get<ProfitPerCar>(`/api/earnings/earning/getProfitPerCar/${carUsername}`, who)).toMatchObject(figures);
      }
      expect(summary.by_month.reduce((a, m) => a + Math.round(m.revenue * 100), 0) / 100).toBe(want.summary.total_revenue);
    }
    expect(await get<EarningsSummary>('/api/earnings/earning/getSummary')).toMatchObject(old.all.summary);

    // Invoices.
    const invoices = await get<Invoice[]>('/api/earnings/earning/getInvoiceList');
    expect(invoices.map(({ id, total_amount, rental_income, host_fee, car_owner_earnings, app_fee }) => ({ id, total_amount, rental_income, host_fee, car_owner_earnings, app_fee })).sort((a, b) => a.id.localeCompare(b.id))).toEqual(old.invoices);

    // Analytics: the revenue of a period holding every trip (each week's may differ: it now counts
    // a trip in the week it was paid, where the old screen used the week it completed).
    const analytics = await get<AdminAnalytics>('/api/admin/analytics?from=2029-12-01&to=2030-03-31');
    expect(analytics.weeks.reduce((a, w) => a + Math.round(w.revenue * 100), 0) / 100).toBe(old.revenue);

    // Every booking balances: charged = refunds (settled or not) + host share + platform share; the
    // provider holds the charges less the refunds it made.
    const entries = await t.db.selectFrom('ledger_entries').selectAll().execute();
    const byBooking = new Map<string, typeof entries>();
    for (const e of entries) byBooking.set(e.booking_id, [...(byBooking.get(e.booking_id) ?? []), e]);
    const cents = (list: typeof entries, kinds: string[]) => list.filter((e) => kinds.includes(e.kind)).reduce((a, e) => a + Number(e.amount_cents), 0);
    for (const [id, list] of byBooking) {
      expect(cents(list, ['charge']), id).toBe(cents(list, ['refund', 'host_earning', 'platform_fee']));
    }
    for (const b of [owedTrip, paidOut, reversed, repaid, active, noPayment, late, expired]) expect(byBooking.has(b.id)).toBe(true);
    const payments = await t.db.selectFrom('payments').selectAll().where('status', '=', 'success').execute();
    const refundedByProvider = payments.filter((p) => p.refund_status === 'refunded').reduce((a, p) => a + (p.refund_amount_cents ?? p.amount_cents), 0);
    const charges = entries.filter((e) => e.kind === 'charge' && e.charge_reference);
    const settled = entries.filter((e) => e.kind === 'refund' && e.state === 'succeeded');
    expect(cents(charges, ['charge']) - cents(settled, ['refund'])).toBe(payments.reduce((a, p) => a + p.amount_cents, 0) - refundedByProvider);
    expect(entries.filter((e) => e.kind === 'refund' && e.state === 'pending').map((e) => e.charge_reference)).toEqual(['OLD-EXPIRED']);
  });
});
