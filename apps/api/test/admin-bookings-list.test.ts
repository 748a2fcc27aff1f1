// GET /api/booking/getList as the admin Bookings tab reads it: searched (booking number, car
// username/make/model, renter username/full name; case-insensitive, LIKE wildcards literally),
// filtered by status and paged on the server, newest first with a stable tie-break, the filtered
// total in meta. Visibility as getAll: admins the platform, everyone else their own bookings.
import type { Booking, BookingListMeta } from '@karoo/shared';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CarRow } from '../src/db/schema';
import { createSignedInUser, createTestApp, createUser, expectError, uniqueName, type TestApp } from './helpers';
import { createTestBooking, createTestCar } from './helpers/vehicles';

let t: TestApp;
let admin: Awaited<ReturnType<typeof createSignedInUser>>;
let customer: Awaited<ReturnType<typeof createSignedInUser>>;
let host: Awaited<ReturnType<typeof createSignedInUser>>;
let nextStart = 0;

/** A date window of its own, so no two bookings of a car overlap. */
function freshStart(): string {
  nextStart += 3;
  return new Date(Date.UTC(2031, 0, 1 + nextStart)).toISOString().slice(0, 10);
}

beforeAll(async () => {
  t = await createTestApp({ env: { BROWSE_CACHE_MS: '0' } });
  t.clock.set('2030-06-01T08:00:00Z');
  admin = await createSignedInUser(t.app, t.ctx, { role: 'admin', verification_status: 'verified' });
  customer = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' });
  host = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' });
});
afterAll(async () => {
  await t?.close();
});

async function getList(query: string, headers = admin.headers) {
  const res = await t.app.inject({ method: 'GET', url: `/api/booking/getList?${query}`, headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { success: true; data: Booking[]; meta: BookingListMeta };
}

async function book(car: CarRow, renter: { id: string }, status: Booking['status'] = 'pending', createdAt?: Date) {
  const row = await createTestBooking(t.ctx, car, renter, { start: freshStart(), days: 2, status });
  // created_at is never updated by the app (the column type forbids it); set it for the ordering.
  if (createdAt) await sql`UPDATE bookings SET created_at = ${createdAt.toISOString()} WHERE id = ${row.id}`.execute(t.db);
  return row;
}

describe('GET /api/booking/getList (paged)', () => {
  it('pages newest first with a stable order, and reports the filtered total', async () => {
    const tag = uniqueName('bk');
    const renter = await createUser(t.ctx, { full_name: `Pager ${tag}`, verification_status: 'verified' });
    const car = await createTestCar(t.ctx, host.user);
    const same = new Date('2030-05-01T10:00:00Z');
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await book(car, renter, 'pending', same));
    const newer = await book(car, renter, 'confirmed', new Date('2030-05-02T10:00:00Z'));
    const newest = await book(car, renter, 'completed', new Date('2030-05-03T10:00:00Z'));

    const pages = [1, 2, 3].map((page) => getList(`search=${tag}&page=${page}&limit=3`));
    const [first, second, third] = await Promise.all(pages);
    expect(first!.meta).toEqual({ total: 7, page: 1, limit: 3 });
    expect(third!.meta.total).toBe(7);
    expect(first!.data.slice(0, 2).map((b) => b.id)).toEqual([newest.id, newer.id]);
    const ids = [...first!.data, ...second!.data, ...third!.data].map((b) => b.id);
    expect(new Set(ids).size).toBe(7);
    expect(ids.slice(2)).toEqual(made.map((b) => b.id).sort().reverse());
    // The same page twice gives the same order; a page past the end is empty.
    expect((await getList(`search=${tag}&page=2&limit=3`)).data.map((b) => b.id)).toEqual(second!.data.map((b) => b.id));
    expect((await getList(`search=${tag}&page=9&limit=3`)).data).toEqual([]);
    // The status filter narrows the rows and the total.
    const pending = await getList(`search=${tag}&status=pending`);
    expect(pending.meta.total).toBe(5);
    expect(pending.data.every((b) => b.status === 'pending')).toBe(true);
    expect((await getList(`search=${tag}&status=Completed`)).data.map((b) => b.id)).toEqual([newest.id]);
  });

  it('defaults to page 1 of 25 and refuses bad paging or status (400)', async () => {
    const { meta } = await getList('');
    expect(meta).toMatchObject({ page: 1, limit: 25 });
    for (const bad of ['page=0', 'limit=0', 'limit=101', 'page=x', 'status=bogus']) {
      expectError(await t.app.inject({ method: 'GET', url: `/api/booking/getList?${bad}`, headers: admin.headers }), 400);
    }
  });

  it('searches booking number, car and renter case-insensitively, LIKE wildcards literally', async () => {
    const tag = uniqueName('sq');
    const byName = await createUser(t.ctx, { full_name: `Sipho ${tag.toUpperCase()}`, verification_status: 'verified' });
    const byUsername = await createUser(t.ctx, { username: `${tag}_r`, verification_status: 'verified' });
    const other = await createUser(t.ctx, { verification_status: 'verified' });
    const plainCar = await createTestCar(t.ctx, host.user);
    const makeCar = await createTestCar(t.ctx, host.user, { make: `Make${tag}`, model: 'Polo' });
    const modelCar = await createTestCar(t.ctx, host.user, { make: 'VW', model: `Mdl100%_${tag}` });

    const a = await book(plainCar, byName);
    const b = await book(plainCar, byUsername);
    const c = await book(makeCar, other);
    const d = await book(modelCar, other);
    const e = await book(plainCar, other);
    const ids = async (query: string) => (await getList(query)).data.map((x) => x.id).sort();

    expect(await ids(`search=${tag.toUpperCase()}`)).toEqual([a.id, b.id, c.id, d.id].sort());
    expect(await ids(`search=${encodeURIComponent('100%_')}`)).toEqual([d.id]);
    expect(await ids(`search=${e.booking_number.toLowerCase()}`)).toEqual([e.id]);
    expect(await ids(`search=${makeCar.car_username.toUpperCase()}`)).toEqual([c.id]);
    expect((await getList(`search=${tag}&car_username=${plainCar.car_username}`)).meta.total).toBe(2);
  });

  it('a customer sees only their own bookings, and the totals follow', async () => {
    const car = await createTestCar(t.ctx, host.user);
    const stranger = await createUser(t.ctx, { verification_status: 'verified' });
    const mine = await book(car, customer.user);
    const theirs = await book(car, stranger);

    const own = await getList('limit=100', customer.headers);
    const ownIds = own.data.map((x) => x.id);
    expect(ownIds).toContain(mine.id);
    expect(ownIds).not.toContain(theirs.id);
    expect(own.data.every((x) => x.user_id === customer.user.id)).toBe(true);
    expect(own.meta.total).toBe(own.data.length);
    // Searching for someone else's booking number finds nothing.
    expect((await getList(`search=${theirs.booking_number}`, customer.headers)).meta.total).toBe(0);
    // Admins see it; with scope=mine only their own (none).
    expect((await getList(`search=${theirs.booking_number}`)).data.map((x) => x.id)).toEqual([theirs.id]);
    expect((await getList(`search=${theirs.booking_number}&scope=mine`)).meta.total).toBe(0);
    // Without a session: 401.
    expectError(await t.app.inject({ method: 'GET', url: '/api/booking/getList' }), 401);
  });
});
