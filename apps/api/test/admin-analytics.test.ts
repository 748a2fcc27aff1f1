// Admin Analytics (issue 10): every figure of GET /api/admin/analytics is checked against the same
// figure computed here, independently, from the rows of the tables; admins only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminAnalytics } from '@karoo/shared';
import type { BookingRow, CarRow } from '../src/db/schema';
import { createSignedInUser, createTestApp, expectError, expectOk, type TestApp } from './helpers';
import { recordTestCharge } from './helpers/ledger';
import { createTestBooking, createTestCar } from './helpers/vehicles';

type Signed = Awaited<ReturnType<typeof createSignedInUser>>;
const NOW = '2030-03-10T08:00:00Z';
const URL = '/api/admin/analytics';

let t: TestApp;
let admin: Signed;
let host: Signed;
let renter: Signed;
let capeTown: CarRow;
let durban: CarRow;
let joburg: CarRow;

const get = (url: string, headers: Record<string, string>) => t.app.inject({ method: 'GET', url, headers });

/** A booking created at `createdAt` (test clock), with `set` applied afterwards. */
async function booking(car: CarRow, createdAt: string, start: string, days: number, status: BookingRow['status'], set: Partial<Record<'completed_at' | 'paid_at', Date>> & { payment_status?: 'paid' | 'unpaid'; is_hourly_booking?: boolean } = {}) {
  t.clock.set(createdAt);
  const b = await createTestBooking(t.ctx, car, renter.user, { start, days, status });
  if (Object.keys(set).length > 0) await t.db.updateTable('bookings').set(set).where('id', '=', b.id).execute();
  // A paid trip's money is in the ledger from the moment it was paid.
  if (set.paid_at) await recordTestCharge(t.ctx, { ...b, ...set } as typeof b, set.paid_at);
}

async function review(car: CarRow, rating: number, createdAt: string) {
  await t.db.insertInto('reviews').values({ car_id: car.id, reviewer_id: renter.user.id, rating, comment: 'Test review', created_at: new Date(createdAt), updated_at: new Date(createdAt) }).execute();
}

beforeAll(async () => {
  t = await createTestApp({ env: { BROWSE_CACHE_MS: '0' } });
  t.clock.set(NOW);
  admin = await createSignedInUser(t.app, t.ctx, { role: 'admin', verification_status: 'verified' });
  host = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' });
  renter = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' });
  capeTown = await createTestCar(t.ctx, host.user, { price: 800, city: 'Cape Town' });
  durban = await createTestCar(t.ctx, host.user, { price: 455.5, city: 'Durban' });
  joburg = await createTestCar(t.ctx, host.user, { price: 1200, city: 'Johannesburg' });
  // Not listed (unverified): its bookings still count, it adds no capacity.
  const pretoria = await createTestCar(t.ctx, host.user, { price: 600, city: 'Pretoria', verification_status: 'pending_verification' });

  await booking(capeTown, '2029-11-01T10:00:00Z', '2029-11-05', 3, 'completed', { completed_at: new Date('2029-11-08T10:00:00Z'), paid_at: new Date('2029-11-02T10:00:00Z') });
  await booking(capeTown, '2030-01-06T10:00:00Z', '2030-01-08', 3, 'completed', { completed_at: new Date('2030-01-11T10:00:00Z'), paid_at: new Date('2030-01-07T10:00:00Z') });
  // 21:59 UTC on Sunday 3 February is still Sunday in Johannesburg; 22:30 UTC is Monday 4 February.
  await booking(durban, '2030-02-03T21:59:00Z', '2030-02-20', 2, 'pending');
  await booking(joburg, '2030-02-03T22:30:00Z', '2030-02-21', 2, 'cancelled');
  await booking(durban, '2030-02-12T09:00:00Z', '2030-02-25', 2, 'rejected');
  await booking(durban, '2030-02-15T09:00:00Z', '2030-02-20', 5, 'completed', { completed_at: new Date('2030-02-25T09:00:00Z'), paid_at: new Date('2030-02-16T09:00:00Z') });
  await booking(capeTown, '2030-02-16T09:00:00Z', '2030-02-26', 1, 'completed', { completed_at: new Date('2030-02-27T09:00:00Z'), paid_at: new Date('2030-02-17T09:00:00Z'), is_hourly_booking: true });
  await booking(joburg, '2030-03-01T12:00:00Z', '2030-03-05', 4, 'active', { paid_at: new Date('2030-03-01T13:00:00Z') });
  await booking(pretoria, '2030-03-02T12:00:00Z', '2030-03-20', 2, 'confirmed');
  await booking(joburg, '2030-03-03T12:00:00Z', '2030-03-25', 2, 'pending');
  t.clock.set(NOW);

  await review(capeTown, 2, '2029-11-10T10:00:00Z');
  await review(capeTown, 4, '2030-01-12T10:00:00Z');
  await review(durban, 5, '2030-02-26T10:00:00Z');
});
afterAll(async () => {
  await t?.close();
});

const local = (d: Date | string) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Johannesburg' }).format(new Date(d));
const dayMs = 86_400_000;
const utcDay = (date: string) => Date.parse(`${date}T00:00:00Z`);
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const monday = (date: string) => isoDay(utcDay(date) - ((new Date(utcDay(date)).getUTCDay() + 6) % 7) * dayMs);
const mean = (values: number[]) => (values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length);

/** Every figure, computed here from the rows of the tables. */
async function expected(from: string, to: string) {
  const inPeriod = (d: Date | string | null) => d != null && local(d) >= from && local(d) <= to;
  const bookings = await t.db.selectFrom('bookings').selectAll().execute();
  const cars = await t.db.selectFrom('cars').selectAll().execute();
  const reviews = await t.db.selectFrom('reviews').selectAll().execute();
  const created = bookings.filter((b) => inPeriod(b.created_at));
  // Revenue: the platform's shares, by the week their money moved (the ledger's rows).
  const fees = (await t.db.selectFrom('ledger_entries').selectAll().where('kind', '=', 'platform_fee').execute()).filter((r) => inPeriod(r.moved_at));

  const weeks: AdminAnalytics['weeks'] = [];
  for (let week = monday(from); week <= to; week = isoDay(utcDay(week) + 7 * dayMs)) {
    const cents = fees.filter((r) => monday(local(r.moved_at!)) === week).reduce((a, r) => a + Number(r.amount_cents), 0);
    weeks.push({ week_start: week, bookings: created.filter((b) => monday(local(b.created_at)) === week).length, revenue: cents / 100 });
  }
  const share = (pick: (b: BookingRow) => boolean) => (created.length === 0 ? 0 : created.filter(pick).length / created.length);

  const cityOf = new Map(cars.map((c) => [c.id, c.pickup_location]));
  const counts = new Map<string, number>();
  for (const b of created) counts.set(cityOf.get(b.car_id)!, (counts.get(cityOf.get(b.car_id)!) ?? 0) + 1);
  const busiest = [...counts].map(([city, n]) => ({ city, bookings: n })).sort((a, b) => b.bookings - a.bookings || (a.city < b.city ? -1 : 1)).slice(0, 5);

  let bookedDays = 0;
  for (const b of bookings.filter((x) => x.status === 'active' || x.status === 'completed')) {
    // A booking holds its car from its start date to its end date, both included (modules/availability).
    for (let d = utcDay(b.start_date); d <= utcDay(b.end_date); d += dayMs) if (isoDay(d) >= from && isoDay(d) <= to) bookedDays += 1;
  }
  const listed = cars.filter((c) => c.verification_status === 'verified' && c.deleted_at === null).length;
  const days = (utcDay(to) - utcDay(from)) / dayMs + 1;

  return {
    weeks,
    average_trip_days: mean(bookings.filter((b) => b.status === 'completed' && !b.is_hourly_booking && inPeriod(b.completed_at)).map((b) => b.duration_days)),
    average_rating: mean(reviews.filter((r) => inPeriod(r.created_at)).map((r) => r.rating)),
    conversion: share((b) => b.payment_status === 'paid'),
    cancellation_rate: share((b) => b.status === 'cancelled'),
    rejection_rate: share((b) => b.status === 'rejected'),
    bookings: created.length,
    busiest_cities: busiest,
    utilisation: listed === 0 ? 0 : Math.min(1, bookedDays / (listed * days)),
  };
}

function expectFigures(actual: AdminAnalytics, want: Awaited<ReturnType<typeof expected>>) {
  expect(actual.weeks).toEqual(want.weeks);
  for (const key of ['average_trip_days', 'average_rating'] as const) {
    if (want[key] === null) expect(actual[key]).toBeNull();
    else expect(actual[key]).toBeCloseTo(want[key]!, 9);
  }
  for (const key of ['conversion', 'cancellation_rate', 'rejection_rate', 'utilisation'] as const) expect(actual[key]).toBeCloseTo(want[key], 9);
  expect(actual.bookings).toBe(want.bookings);
  expect(actual.busiest_cities).toEqual(want.busiest_cities);
}

describe('GET /api/admin/analytics', () => {
  it('defaults to the last 12 weeks ending today (Johannesburg) and matches the tables', async () => {
    const data = expectOk<AdminAnalytics>(await get(URL, admin.headers));
    expect(data.period).toEqual({ from: '2029-12-17', to: '2030-03-10' });
    expect(data.weeks[0]!.week_start).toBe('2029-12-17');
    expect(data.weeks.at(-1)!.week_start).toBe('2030-03-04');
    expect(data.weeks).toHaveLength(12);
    const want = await expected('2029-12-17', '2030-03-10');
    expectFigures(data, want);
    // Sanity: the data set exercises every figure (not only zeros).
    expect(data.bookings).toBe(9);
    expect(data.average_rating).toBeCloseTo(4.5, 9);
    expect(data.cancellation_rate).toBeGreaterThan(0);
    expect(data.rejection_rate).toBeGreaterThan(0);
    expect(data.utilisation).toBeGreaterThan(0);
    expect(data.weeks.some((w) => w.bookings === 0 && w.revenue === 0)).toBe(true);
    expect(data.weeks.filter((w) => w.revenue > 0).length).toBeGreaterThan(1);
    expect(data.busiest_cities[0]).toEqual({ city: 'Durban', bookings: 3 });
    const settings = expectOk<{ platform_fee: number }>(await get('/api/settings', {}));
    expect(data.platform_fee).toBe(settings.platform_fee);
  });

  it('a chosen period: week boundaries on Johannesburg days, zero weeks included', async () => {
    for (const [from, to] of [['2030-02-01', '2030-02-28'], ['2030-02-04', '2030-02-04'], ['2029-11-01', '2030-01-31'], ['2031-01-01', '2031-01-14']] as const) {
      const data = expectOk<AdminAnalytics>(await get(`${URL}?from=${from}&to=${to}`, admin.headers));
      expect(data.period).toEqual({ from, to });
      expectFigures(data, await expected(from, to));
    }
    const feb = expectOk<AdminAnalytics>(await get(`${URL}?from=2030-02-01&to=2030-02-28`, admin.headers));
    // The booking at 21:59 UTC on Sunday 3 February belongs to the week of 28 January, the one at 22:30 UTC to 4 February.
    expect(feb.weeks.find((w) => w.week_start === '2030-01-28')!.bookings).toBe(1);
    expect(feb.weeks.find((w) => w.week_start === '2030-02-04')!.bookings).toBe(1);
    expect(feb.average_trip_days).toBe(5); // the hourly booking is left out
    const empty = expectOk<AdminAnalytics>(await get(`${URL}?from=2031-01-01&to=2031-01-14`, admin.headers));
    expect(empty.average_rating).toBeNull();
    expect(empty.average_trip_days).toBeNull();
    expect(empty.conversion).toBe(0);
    expect(empty.busiest_cities).toEqual([]);
  });

  it('400 on bad dates or from after to', async () => {
    expectError(await get(`${URL}?from=2030-03-05&to=2030-03-01`, admin.headers), 400);
    expectError(await get(`${URL}?from=2030-02-30`, admin.headers), 400);
    expectError(await get(`${URL}?to=yesterday`, admin.headers), 400);
    expectError(await get(`${URL}?from=2020-01-01&to=2030-01-01`, admin.headers), 400);
  });

  it('admins only: 403 for hosts and customers, 401 for guests', async () => {
    expectError(await get(URL, host.headers), 403);
    expectError(await get(URL, renter.headers), 403);
    expectError(await get(URL, {}), 401);
  });
});
