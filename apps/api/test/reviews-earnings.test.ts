// Reviews (the renter of a completed booking, once per booking; author or admin edits) and money:
// every booking's parts add up to its total, host earnings + app fee = total, and every earnings,
// summary, invoice and app-fee figure is a ledger sum that equals the sum of the figures stored on
// the paid bookings (each paid here with its ledger rows, as a payment writes them).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Booking, BookingStats, Earning, EarningsSummary, Invoice, ProfitPerCar, Review } from '@karoo/shared';
import type { BookingRow, CarRow } from '../src/db/schema';
import { revealDueReviews } from '../src/modules/reviews';
import { createSignedInUser, createTestApp, DAY, expectError, expectOk, type TestApp } from './helpers';
import { recordTestCharge } from './helpers/ledger';
import { createTestBooking, createTestCar, INSURANCE_STANDARD, PICKUP_AIRPORT } from './helpers/vehicles';

type Signed = Awaited<ReturnType<typeof createSignedInUser>>;
const NOW = '2030-03-10T08:00:00Z';

let t: TestApp;
let admin: Signed;
let host: Signed;
let otherHost: Signed;
let renter: Signed;
let stranger: Signed;
let car: CarRow;
let car2: CarRow;

beforeAll(async () => {
  t = await createTestApp({ env: { BROWSE_CACHE_MS: '0' } });
  t.clock.set(NOW);
  admin = await createSignedInUser(t.app, t.ctx, { role: 'admin', verification_status: 'verified' });
  host = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' });
  otherHost = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' });
  renter = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' });
  stranger = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' });
  car = await createTestCar(t.ctx, host.user, { pickup_options: [PICKUP_AIRPORT], insurance_options: [INSURANCE_STANDARD] });
  car2 = await createTestCar(t.ctx, host.user, { price: 455.5 });
});
afterAll(async () => {
  await t?.close();
});

const req = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, headers: Record<string, string>, payload?: Record<string, unknown>) =>
  t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

/** A completed trip, paid (its charge in the ledger) on the day it completed. */
async function completed(c: CarRow, start: string, who: Signed = renter): Promise<BookingRow> {
  const b = await createTestBooking(t.ctx, c, who.user, { start, days: 2, status: 'completed' });
  const at = new Date(`${start}T12:00:00Z`);
  const done = await t.db.updateTable('bookings').set({ completed_at: at, paid_at: at }).where('id', '=', b.id).returningAll().executeTakeFirstOrThrow();
  await recordTestCharge(t.ctx, done);
  return done;
}

// Reviews are written within 14 days of the trip and shown once both sides are in or the 14 days
// have passed (decision 043): each test writes on the day its trip completed, then reveals.
const onTheDay = (b: BookingRow) => t.clock.set(new Date(b.completed_at!).getTime() + 60 * 60 * 1000);
const hostReviews = (b: BookingRow, who: Signed = host) =>
  req('POST', '/api/review/renter', who.headers, { booking_id: b.id, rating: 5, comment: 'Good renter' });
async function afterTheWindow() {
  t.clock.advance(14 * DAY);
  await revealDueReviews(t.ctx);
}

describe('reviews', () => {
  afterEach(() => t.clock.set(NOW));

  it('the renter of a completed booking reviews it once; the rating follows once shown; the host is told', async () => {
    const b = await completed(car, '2030-01-05');
    onTheDay(b);
    const res = await req('POST', '/api/review/create', renter.headers, { car_username: car.car_username, user_username: renter.user.username, rating: 4, comment: '  Lovely car  ' });
    const review = expectOk<Review>(res, 201);
    expect(res.json().message).toBe('Review Submitted');
    expect(review).toMatchObject({ rating: 4, comment: 'Lovely car', car_username: car.car_username, user_username: renter.user.username, booking_id: b.id });
    const hidden = await t.db.selectFrom('cars').select(['rating', 'total_reviews']).where('id', '=', car.id).executeTakeFirstOrThrow();
    expect(hidden.total_reviews).toBe(0);
    const note = await t.db.selectFrom('notifications').selectAll().where('user_id', '=', host.user.id).where('type', '=', 'review_received').executeTakeFirst();
    expect(note).toMatchObject({ title: 'You can review now' });
    expectOk(await hostReviews(b), 201);
    const row = await t.db.selectFrom('cars').select(['rating', 'total_reviews']).where('id', '=', car.id).executeTakeFirstOrThrow();
    expect(Number(row.rating)).toBe(4);
    expect(row.total_reviews).toBe(1);

    expectError(await req('POST', '/api/review/create', renter.headers, { car_username: car.car_username, rating: 5, comment: 'Again' }), 409, 'You have already reviewed this booking.');
    expectError(await req('POST', '/api/review/create', renter.headers, { car_username: car.car_username, rating: 5, comment: 'Again', booking_id: b.booking_number }), 409);
    expect(expectOk<Review>(await req('GET', `/api/review/${review.id}`, {}))).toMatchObject({ id: review.id });
  });

  it('without a completed booking of that car: 403 (active, pending or none)', async () => {
    expectError(await req('POST', '/api/review/create', stranger.headers, { car_username: car.car_username, rating: 5, comment: 'Nice' }), 403, 'You can review a car only after a completed trip in it.');
    await recordTestCharge(t.ctx, await createTestBooking(t.ctx, car2, stranger.user, { start: '2030-03-09', days: 2, status: 'active' }));
    expectError(await req('POST', '/api/review/create', stranger.headers, { car_username: car2.car_username, rating: 5, comment: 'Nice' }), 403);
    expectError(await req('POST', '/api/review/create', {}, { car_username: car.car_username, rating: 5, comment: 'Nice' }), 401);
  });

  it('validates rating and comment with the document\u2019s messages', async () => {
    onTheDay(await completed(car2, '2030-01-10'));
    const post = (payload: Record<string, unknown>) => req('POST', '/api/review/create', renter.headers, { car_username: car2.car_username, ...payload });
    expectError(await post({ rating: 5, comment: '   ' }), 400, 'Comment is required');
    expectError(await post({ rating: 5 }), 400, 'Comment is required');
    expectError(await post({ rating: 5, comment: 'x'.repeat(501) }), 400, 'Comment must be at most 500 characters');
    expectError(await post({ rating: 6, comment: 'ok' }), 400, 'Rating must be a whole number from 1 to 5');
    expectError(await post({ rating: 2.5, comment: 'ok' }), 400);
    expect(expectOk<Review>(await post({ comment: 'x'.repeat(500) }), 201).rating).toBe(5);
  });

  it('two completed trips, two reviews; at once on one booking, only one lands', async () => {
    const c = await createTestCar(t.ctx, host.user);
    await completed(c, '2029-11-01', stranger);
    onTheDay(await completed(c, '2029-11-05', stranger));
    const post = () => req('POST', '/api/review/create', stranger.headers, { car_username: c.car_username, rating: 3, comment: 'Fine' });
    const [a, b] = await Promise.all([post(), post()]);
    const statuses = [a.statusCode, b.statusCode].sort();
    // Either both bookings got their review, or the race on one booking was refused by the database.
    expect(statuses[0]).toBe(201);
    expect([201, 409]).toContain(statuses[1]);
    const count = (await t.db.selectFrom('reviews').select('id').where('car_id', '=', c.id).execute()).length;
    expect(count).toBe(statuses[1] === 201 ? 2 : 1);
    if (count === 1) expect(expectOk<Review>(await post(), 201).rating).toBe(3);
    expectError(await post(), 409);
  });

  it('author or admin edits and deletes; the rating follows; lists are paged', async () => {
    const c = await createTestCar(t.ctx, host.user);
    onTheDay(await completed(c, '2029-10-01'));
    const review = expectOk<Review>(await req('POST', '/api/review/create', renter.headers, { car_username: c.car_username, rating: 2, comment: 'Meh' }), 201);
    // Not yet shown: nobody but its author (and admins) finds it.
    expectError(await req('PUT', `/api/review/${review.id}`, stranger.headers, { rating: 5 }), 404);
    expectError(await req('PUT', `/api/review/${review.id}`, host.headers, { rating: 5 }), 404);
    expect(expectOk<Review>(await req('PUT', `/api/review/${review.id}`, renter.headers, { rating: 5, comment: 'Better than I said' }))).toMatchObject({ rating: 5, comment: 'Better than I said' });
    expectError(await req('PUT', `/api/review/${review.id}`, renter.headers, { comment: '' }), 400, 'Comment is required');
    await afterTheWindow();
    expectError(await req('PUT', `/api/review/${review.id}`, host.headers, { rating: 5 }), 403);
    expect(Number((await t.db.selectFrom('cars').select('rating').where('id', '=', c.id).executeTakeFirstOrThrow()).rating)).toBe(5);
    expect(expectOk<Review>(await req('PUT', `/api/review/${review.id}`, admin.headers, { rating: 4 })).rating).toBe(4);

    const page = await req('GET', '/api/review/getList?page=1&limit=2', {});
    expect(expectOk<Review[]>(page)).toHaveLength(2);
    expect(page.json().meta).toMatchObject({ page: 1, limit: 2 });
    expect(page.json().meta.total).toBeGreaterThanOrEqual(3);

    expectError(await req('DELETE', `/api/review/${review.id}`, stranger.headers), 403);
    expectOk(await req('DELETE', `/api/review/${review.id}`, renter.headers));
    expectError(await req('GET', `/api/review/${review.id}`, {}), 404, 'Review not found');
    const row = await t.db.selectFrom('cars').select(['rating', 'total_reviews']).where('id', '=', c.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ rating: null, total_reviews: 0 });
    expectError(await req('GET', '/api/review/not-a-uuid', {}), 404);
  });
  it('the host\'s rating follows every review of their cars on create, edit and delete (same transaction)', async () => {
    const rated = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' });
    const first = await createTestCar(t.ctx, rated.user);
    const second = await createTestCar(t.ctx, rated.user);
    const hostRating = async () => {
      const row = await t.db.selectFrom('users').select('rating').where('id', '=', rated.user.id).executeTakeFirstOrThrow();
      return row.rating === null ? null : Number(row.rating);
    };
    const owner = async () => expectOk<{ rating: number | null }>(await req('GET', `/api/car/owner/${rated.user.username}`, {}));
    expect(await hostRating()).toBeNull();

    const tripA = await completed(first, '2029-06-01');
    const tripB = await completed(second, '2029-06-10', stranger);
    onTheDay(tripB);
    const a = expectOk<Review>(await req('POST', '/api/review/create', renter.headers, { car_username: first.car_username, rating: 5, comment: 'Spotless' }), 201);
    expect(await hostRating()).toBeNull();
    expectOk(await hostReviews(tripA, rated), 201);
    expect(await hostRating()).toBe(5);
    const b = expectOk<Review>(await req('POST', '/api/review/create', stranger.headers, { car_username: second.car_username, rating: 2, comment: 'Late handover' }), 201);
    expectOk(await hostReviews(tripB, rated), 201);
    expect(await hostRating()).toBe(3.5);
    expect((await owner()).rating).toBe(3.5);

    // Both shown: the author can no longer change theirs; an admin can.
    expectError(await req('PUT', `/api/review/${b.id}`, stranger.headers, { rating: 4 }), 409);
    expectOk(await req('PUT', `/api/review/${b.id}`, admin.headers, { rating: 4 }));
    expect(await hostRating()).toBe(4.5);
    expectOk(await req('DELETE', `/api/review/${a.id}`, renter.headers));
    expect(await hostRating()).toBe(4);
    expectOk(await req('DELETE', `/api/review/${b.id}`, admin.headers));
    expect(await hostRating()).toBeNull();
  });
});

describe('money', () => {
  let earner: Signed;
  let ecar: CarRow;
  let ecar2: CarRow;
  const ids: string[] = [];

  beforeAll(async () => {
    earner = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' });
    ecar = await createTestCar(t.ctx, earner.user, { pickup_options: [PICKUP_AIRPORT], insurance_options: [INSURANCE_STANDARD] });
    ecar2 = await createTestCar(t.ctx, earner.user, { price: 455.5 });
    // Through the API, so the stored breakdown has a pickup fee and insurance: then completed.
    const made = expectOk<Booking>(
      await req('POST', '/api/booking/create', renter.headers, {
        car_username: ecar.car_username,
        start_date: '2030-03-20',
        end_date: '2030-03-23',
        pickup_option: PICKUP_AIRPORT.id,
        insurance_option: INSURANCE_STANDARD.id,
      }),
      201,
    );
    const paidMade = await t.db
      .updateTable('bookings')
      .set({ status: 'completed', payment_status: 'paid', paid_at: new Date('2030-03-09T10:00:00Z'), completed_at: new Date('2030-03-23T15:00:00Z') })
      .where('id', '=', made.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordTestCharge(t.ctx, paidMade);
    ids.push(made.id);
    ids.push((await completed(ecar2, '2030-01-10')).id);
    ids.push((await completed(ecar2, '2030-02-10', stranger)).id);
    const active = await createTestBooking(t.ctx, ecar, stranger.user, { start: '2030-04-01', status: 'active' });
    await recordTestCharge(t.ctx, await t.db.updateTable('bookings').set({ paid_at: new Date('2030-03-05T10:00:00Z') }).where('id', '=', active.id).returningAll().executeTakeFirstOrThrow());
    ids.push(active.id);
    // Not revenue: pending, confirmed unpaid, cancelled.
    await createTestBooking(t.ctx, ecar, renter.user, { start: '2030-05-01', status: 'pending' });
    await createTestBooking(t.ctx, ecar2, renter.user, { start: '2030-05-01', status: 'confirmed' });
    await createTestBooking(t.ctx, ecar2, renter.user, { start: '2030-06-01', status: 'cancelled' });
  });

  async function earningRows() {
    return t.db.selectFrom('bookings').selectAll().where('id', 'in', ids).execute();
  }
  const sum = (rows: BookingRow[], key: keyof BookingRow) => rows.reduce((acc, r) => acc + Number(r[key]), 0) / 100;

  it('each booking\u2019s parts add up to its total, and host earnings + app fee = total', async () => {
    const rows = await t.db.selectFrom('bookings').selectAll().execute();
    expect(rows.length).toBeGreaterThan(5);
    for (const r of rows) {
      expect(r.subtotal_cents + r.service_fee_cents + r.insurance_fee_cents + r.pickup_fee_cents).toBe(r.total_price_cents);
      expect(r.car_owner_earnings_cents + r.app_fee_cents).toBe(r.total_price_cents);
    }
    const withExtras = rows.find((r) => r.id === ids[0])!;
    expect(withExtras.pickup_fee_cents).toBeGreaterThan(0);
    expect(withExtras.insurance_fee_cents).toBeGreaterThan(0);
  });

  it('getCarOwnerProfit: one entry per paid booking, its ledger sums equal to the stored figures (that host or admin)', async () => {
    const list = expectOk<Earning[]>(await req('GET', `/api/earnings/earning/getCarOwnerProfit/${earner.user.username}`, earner.headers));
    expect(list.map((e) => e.id).sort()).toEqual([...ids].sort());
    const rows = await earningRows();
    for (const e of list) {
      const r = rows.find((x) => x.id === e.id)!;
      expect(e).toMatchObject({
        booking_id: r.booking_number,
        gross: r.total_price_cents / 100,
        subtotal: r.subtotal_cents / 100,
        pickup_fee: r.pickup_fee_cents / 100,
        car_owner_earnings: r.car_owner_earnings_cents / 100,
        app_fee: r.app_fee_cents / 100,
        total_price: r.total_price_cents / 100,
        refunded: 0,
        cancellation_fee: 0,
        penalty: 0,
        commission_rate: 25,
        payout_status: 'pending',
      });
    }
    expect(expectOk<Earning[]>(await req('GET', `/api/earnings/earning/getCarOwnerProfit/${earner.user.id}`, admin.headers))).toHaveLength(ids.length);
    expectError(await req('GET', `/api/earnings/earning/getCarOwnerProfit/${earner.user.id}`, otherHost.headers), 403);
  });

  it('getProfitPerCar and getSummary equal the sums of the stored figures', async () => {
    const rows = await earningRows();
    const forCar = rows.filter((r) => r.car_id === ecar2.id);
    const perCar = expectOk<ProfitPerCar>(await req('GET', `/api/earnings/earning/getProfitPerCar/${ecar2.car_username}`, earner.headers));
    expect(perCar).toMatchObject({ car_username: ecar2.car_username, gross: sum(forCar, 'total_price_cents'), car_owner_earnings: sum(forCar, 'car_owner_earnings_cents'), app_fee: sum(forCar, 'app_fee_cents'), bookings: 2 });
    expectError(await req('GET', `/api/earnings/earning/getProfitPerCar/${ecar2.id}`, otherHost.headers), 403);
    expectOk(await req('GET', `/api/earnings/earning/getProfitPerCar/${ecar2.id}`, admin.headers));

    const summary = expectOk<EarningsSummary>(await req('GET', '/api/earnings/earning/getSummary', earner.headers));
    expect(summary).toMatchObject({ total_revenue: sum(rows, 'total_price_cents'), total_earnings: sum(rows, 'car_owner_earnings_cents'), app_fee: sum(rows, 'app_fee_cents'), bookings: 4, penalties: 0 });
    // The host's own part: rental and pickup fees, less the host fee, is what they earn.
    expect(summary.rental_income).toBeCloseTo(sum(rows, 'subtotal_cents') + sum(rows, 'pickup_fee_cents'), 2);
    expect(summary.rental_income - summary.host_fee).toBeCloseTo(summary.total_earnings, 2);
    expect(summary.total_earnings + summary.app_fee).toBeCloseTo(summary.total_revenue, 2);
    expect(summary.by_car.reduce((a, c) => a + c.gross, 0)).toBeCloseTo(summary.total_revenue, 2);
    // By the month the money moved: each of these trips was paid in the month it completed.
    expect(summary.by_month.map((m) => m.month)).toEqual(['2030-01', '2030-02', '2030-03']);
    expect(summary.by_month.reduce((a, m) => a + m.revenue, 0)).toBeCloseTo(summary.total_revenue, 2);
    expect(summary.by_month.reduce((a, m) => a + m.bookings, 0)).toBe(4);

    const all = expectOk<EarningsSummary>(await req('GET', '/api/earnings/earning/getSummary', admin.headers));
    const everything = await t.db.selectFrom('bookings').selectAll().where((eb) => eb.or([eb('status', '=', 'completed'), eb('payment_status', '=', 'paid')])).execute();
    expect(all.total_revenue).toBeCloseTo(sum(everything, 'total_price_cents'), 2);
    const fee = expectOk<{ platform_fee: number; platformCommission: number; total_app_fee: number }>(await req('GET', '/api/earnings/earning/getAppFee', admin.headers));
    expect(fee).toMatchObject({ platform_fee: 25, platformCommission: 10 });
    expect(fee.total_app_fee).toBeCloseTo(sum(everything, 'app_fee_cents'), 2);
    expectError(await req('GET', '/api/earnings/earning/getAppFee', earner.headers), 403);
  });

  it('months without trips are shown as zero, from the first earning to this month', async () => {
    const gappy = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' });
    const c = await createTestCar(t.ctx, gappy.user);
    await completed(c, '2029-11-10');
    await completed(c, '2030-01-20');
    const summary = expectOk<EarningsSummary>(await req('GET', '/api/earnings/earning/getSummary', gappy.headers));
    // The clock stands in March 2030.
    expect(summary.by_month.map((m) => [m.month, m.bookings])).toEqual([
      ['2029-11', 1],
      ['2029-12', 0],
      ['2030-01', 1],
      ['2030-02', 0],
      ['2030-03', 0],
    ]);
    expect(summary.by_month.find((m) => m.month === '2029-12')).toMatchObject({ revenue: 0, earnings: 0, app_fee: 0 });
  });

  it('every screen\'s money figure (stats, summary, earnings list, app fee) equals the sum over the bookings table, by one definition', async () => {
    // Independently of the app: the bookings that earn are the completed or paid ones.
    const table = await t.db.selectFrom('bookings').selectAll().execute();
    const earning = table.filter((b) => b.status === 'completed' || b.payment_status === 'paid');
    const mineAsOwner = earning.filter((b) => b.owner_id === earner.user.id);
    const spentBy = (id: string) => earning.filter((b) => b.renter_id === id);

    const summary = expectOk<EarningsSummary>(await req('GET', '/api/earnings/earning/getSummary', earner.headers));
    const ownerStats = expectOk<BookingStats>(await req('GET', '/api/booking/getStats?as=owner', earner.headers));
    const stats = expectOk<BookingStats>(await req('GET', '/api/booking/getStats', earner.headers));
    const list = expectOk<Earning[]>(await req('GET', `/api/earnings/earning/getCarOwnerProfit/${earner.user.username}`, earner.headers));
    for (const figure of [summary.total_revenue, ownerStats.total_revenue, stats.total_revenue, list.reduce((a, e) => a + e.gross, 0)]) {
      expect(figure).toBeCloseTo(sum(mineAsOwner, 'total_price_cents'), 2);
    }
    for (const figure of [summary.total_earnings, ownerStats.total_earnings, stats.total_earnings, list.reduce((a, e) => a + e.car_owner_earnings, 0)]) {
      expect(figure).toBeCloseTo(sum(mineAsOwner, 'car_owner_earnings_cents'), 2);
    }
    // as=owner counts only the bookings of their cars; a renter's spending is theirs alone.
    expect(ownerStats.total).toBe(table.filter((b) => b.owner_id === earner.user.id).length);
    expect(ownerStats.total_spent).toBe(0);
    const renterStats = expectOk<BookingStats>(await req('GET', '/api/booking/getStats?as=renter', renter.headers));
    expect(renterStats.total_spent).toBeCloseTo(sum(spentBy(renter.user.id), 'total_price_cents'), 2);
    expect(renterStats.total).toBe(table.filter((b) => b.renter_id === renter.user.id).length);

    // Admin: the platform (default) and their own page (scope=mine, where they have no bookings).
    const platform = expectOk<BookingStats>(await req('GET', '/api/booking/getStats', admin.headers));
    expect(platform.total).toBe(table.length);
    expect(platform.total_app_fee).toBeCloseTo(sum(earning, 'app_fee_cents'), 2);
    const fee = expectOk<{ total_app_fee: number }>(await req('GET', '/api/earnings/earning/getAppFee', admin.headers));
    expect(fee.total_app_fee).toBeCloseTo(platform.total_app_fee, 2);
    const own = expectOk<BookingStats>(await req('GET', '/api/booking/getStats?scope=mine', admin.headers));
    expect(own.total).toBe(0);
    expect(expectOk<Booking[]>(await req('GET', '/api/booking/getAll?scope=mine', admin.headers))).toEqual([]);
    expect(expectOk<Booking[]>(await req('GET', '/api/booking/getAll', admin.headers)).length).toBe(Math.min(table.length, 500));
    expectError(await req('GET', '/api/booking/getStats?as=nobody', earner.headers), 400);
  });

  it('invoices: completed bookings only, one per booking, lines from the stored breakdown, amounts from the ledger', async () => {
    const res = await req('POST', `/api/earnings/earning/createInvoicePerCar/${ids[0]}`, earner.headers);
    const invoice = expectOk<Invoice>(res, 201);
    const r = (await earningRows()).find((x) => x.id === ids[0])!;
    expect(invoice.invoice_number).toMatch(/^INV-2030-\d{6}$/);
    expect(invoice).toMatchObject({ invoice_car_username: ecar.car_username, booking_id: r.booking_number, total_amount: r.total_price_cents / 100, car_owner_earnings: r.car_owner_earnings_cents / 100, app_fee: r.app_fee_cents / 100 });
    expect(invoice.line_items.reduce((a, l) => a + l.amount, 0)).toBeCloseTo(invoice.total_amount, 2);
    const again = expectOk<Invoice>(await req('POST', `/api/earnings/earning/createInvoicePerCar/${ids[0]}`, admin.headers), 200);
    expect(again.id).toBe(invoice.id);
    expectError(await req('POST', `/api/earnings/earning/createInvoicePerCar/${ids[3]}`, earner.headers), 409, 'Only completed bookings can be invoiced.');
    expectError(await req('POST', `/api/earnings/earning/createInvoicePerCar/${ids[1]}`, renter.headers), 403);
    expectError(await req('POST', `/api/earnings/earning/createInvoicePerCar/${ids[1]}`, otherHost.headers), 404);

    expect(expectOk<Invoice[]>(await req('GET', '/api/earnings/earning/getInvoiceList', earner.headers)).map((i) => i.id)).toEqual([invoice.id]);
    expect(expectOk<Invoice[]>(await req('GET', '/api/earnings/earning/getInvoiceList', otherHost.headers))).toEqual([]);
    expect(expectOk<Invoice[]>(await req('GET', '/api/earnings/earning/getInvoiceList', admin.headers)).map((i) => i.id)).toContain(invoice.id);
  });

  it('an invoice names the car (year, make, model, colour, plate), the renter and the host, and its host fee at the booking\u2019s own rate', async () => {
    const invoice = expectOk<Invoice>(await req('POST', `/api/earnings/earning/createInvoicePerCar/${ids[0]}`, earner.headers), 200);
    const r = (await earningRows()).find((x) => x.id === ids[0])!;
    expect(invoice).toMatchObject({
      car_name: `${ecar.car_year} ${ecar.car_make} ${ecar.car_model}`,
      car: { make: ecar.car_make, model: ecar.car_model, year: ecar.car_year, color: ecar.car_color, plate_number: ecar.car_plate_number },
      renter: { username: renter.user.username, full_name: renter.user.full_name },
      host: { username: earner.user.username, full_name: earner.user.full_name },
      start_date: r.start_date,
      end_date: r.end_date,
      rental_income: (r.subtotal_cents + r.pickup_fee_cents) / 100,
      pickup_fee: r.pickup_fee_cents / 100,
      host_fee: (r.subtotal_cents + r.pickup_fee_cents - r.car_owner_earnings_cents) / 100,
      host_fee_rate: 25,
    });
    // The host fee is 25% of rental and pickup; what Karoo keeps in all (app_fee) adds the renter's
    // service fee and insurance, so it is never shown as the host's fee.
    // (Earnings are rounded to whole rand, so the fee is within 50 cents of the exact 25%.)
    expect(Math.abs(invoice.host_fee - invoice.rental_income * 0.25)).toBeLessThanOrEqual(0.5);
    expect(invoice.app_fee).toBeCloseTo(invoice.host_fee + (r.service_fee_cents + r.insurance_fee_cents) / 100, 2);
    expect(invoice.host_fee + invoice.car_owner_earnings).toBeCloseTo(invoice.rental_income, 2);

    // A later change of the setting leaves the rate this fee was taken at.
    expectOk(await req('PUT', '/api/settings', admin.headers, { platform_fee: 20 }));
    try {
      const listed = expectOk<Invoice[]>(await req('GET', '/api/earnings/earning/getInvoiceList', earner.headers)).find((i) => i.id === invoice.id)!;
      expect(listed).toMatchObject({ host_fee_rate: 25, host_fee: invoice.host_fee });
    } finally {
      expectOk(await req('PUT', '/api/settings', admin.headers, { platform_fee: 25 }));
    }
  });

  it('getSummary tells two cars of the same make and model apart by year, colour and plate', async () => {
    const twin = await createTestCar(t.ctx, earner.user, { price: 455.5 });
    await completed(twin, '2030-02-20');
    const summary = expectOk<EarningsSummary>(await req('GET', '/api/earnings/earning/getSummary', earner.headers));
    for (const c of [ecar2, twin]) {
      expect(summary.by_car.find((row) => row.car_username === c.car_username)).toMatchObject({
        car_name: `${c.car_make} ${c.car_model}`,
        car_year: c.car_year,
        car_color: c.car_color,
        car_plate_number: c.car_plate_number,
      });
    }
    expect(new Set(summary.by_car.map((row) => row.car_plate_number)).size).toBe(summary.by_car.length);
    const perCar = expectOk<ProfitPerCar>(await req('GET', `/api/earnings/earning/getProfitPerCar/${twin.car_username}`, earner.headers));
    expect(perCar).toMatchObject({ car_plate_number: twin.car_plate_number, car_year: twin.car_year, car_color: twin.car_color });
  });

  it('updatePayout (admin): pending -> processing -> paid with a reference', async () => {
    const id = ids[1]!;
    expectError(await req('PATCH', `/api/earnings/earning/updatePayout/${id}`, earner.headers, { payout_status: 'paid' }), 403);
    expectError(await req('PATCH', `/api/earnings/earning/updatePayout/${id}`, admin.headers, { payout_status: 'sent' }), 400);
    expect(expectOk<Earning>(await req('PATCH', `/api/earnings/earning/updatePayout/${id}`, admin.headers, { payout_status: 'processing' })).payout_status).toBe('processing');
    const paid = expectOk<Earning>(await req('PATCH', `/api/earnings/earning/updatePayout/${id}`, admin.headers, { payout_status: 'paid', payout_reference: 'EFT-2030-0042' }));
    expect(paid).toMatchObject({ payout_status: 'paid', payout_reference: 'EFT-2030-0042', payout_at: new Date(NOW).toISOString() });
    // The ledger has the payout: the host's share of the trip, with its reference and the administrator.
    const row = (await earningRows()).find((x) => x.id === id)!;
    const payouts = await t.db.selectFrom('ledger_entries').selectAll().where('booking_id', '=', id).where('kind', '=', 'payout').execute();
    expect(payouts.map((p) => ({ amount: Number(p.amount_cents), reference: p.provider_reference, actor: p.actor_id, at: p.moved_at }))).toEqual([
      { amount: row.car_owner_earnings_cents, reference: 'EFT-2030-0042', actor: admin.user.id, at: new Date(NOW) },
    ]);
    const pending = await createTestBooking(t.ctx, ecar, renter.user, { start: '2030-07-01', status: 'pending' });
    expectError(await req('PATCH', `/api/earnings/earning/updatePayout/${pending.id}`, admin.headers, { payout_status: 'paid' }), 409);
    expectError(await req('PATCH', '/api/earnings/earning/updatePayout/nothing-here', admin.headers, { payout_status: 'paid' }), 404);
  });
});
