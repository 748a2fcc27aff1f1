// GET /api/admin/cars, the admin Cars tab's own list (issue 19): admins only (401 for a guest, 403
// for a customer or a host); every car not deleted, whatever its status or verification; a search
// by make, model or city words or by plate however it is spaced; the status filter (rented: out on
// a rental right now), the pending-verification filter; newest listed first, or by car or price
// either way; paged with an exact total and no car on two pages; bad parameters refused with 400
// naming them. The public browse (GET /car/getCarList) is untouched: admin-cars-list.test.ts.
import { addDays, todayIn, type Car } from '@karoo/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignedInUser, createTestApp, createUser, expectError, type TestApp } from './helpers';
import { createTestBooking, createTestCar } from './helpers/vehicles';

type Signed = Awaited<ReturnType<typeof createSignedInUser>>;
type Page = { success: true; data: Car[]; meta: { total: number; page: number; limit: number } };

const NOW = '2030-03-10T08:00:00Z';
/** A word only this file's cars carry (their model), so other fixtures never count. */
const MODEL = 'Adminq';

let t: TestApp;
let admin: Signed;

beforeAll(async () => {
  t = await createTestApp({ env: { BROWSE_CACHE_MS: '0' } });
  t.clock.set(NOW);
  admin = await createSignedInUser(t.app, t.ctx, { role: 'admin', verification_status: 'verified' });
  const host = await createUser(t.ctx, { role: 'host', verification_status: 'verified' });
  const renter = await createUser(t.ctx, { verification_status: 'verified' });
  const listed = (daysAgo: number) => new Date(Date.parse(NOW) - daysAgo * 86_400_000);
  const car = (make: string, options: Parameters<typeof createTestCar>[2]) => createTestCar(t.ctx, host, { make, model: MODEL, ...options });

  await car('Volkswagen', { price: 450, created_at: listed(1), overrides: { car_plate_number: 'KR 42 GP' } });
  await car('Audi', { price: 900, created_at: listed(2), verification_status: 'pending_verification', overrides: { car_plate_number: 'kr42-mp' } });
  await car('Kia', { price: 300, created_at: listed(3), status: 'maintenance', overrides: { car_plate_number: 'CA 7 ZX' } });
  await car('Mazda', { price: 600, created_at: listed(4), verification_status: 'rejected', city: 'Durban', overrides: { car_plate_number: 'ND 55 KZ' } });
  const rented = await car('Toyota', { price: 700, created_at: listed(5), overrides: { car_plate_number: 'GP 9 RT' } });
  await car('Ford', { price: 500, created_at: listed(6), status: 'offline', verification_status: 'pending_verification', overrides: { car_plate_number: 'WC 3 OF' } });
  await car('Deleted', { created_at: listed(0), deleted: true, overrides: { car_plate_number: 'DL 1 XX' } });
  // Out on a rental right now: a paid booking whose first day has come.
  const today = todayIn(t.clock.now());
  await createTestBooking(t.ctx, rented, renter, { start: addDays(today, -1), days: 3, status: 'active' });
});
afterAll(async () => {
  await t?.close();
});

const get = (query: string, headers: Record<string, string> = admin.headers) => t.app.inject({ method: 'GET', url: `/api/admin/cars?${query}`, headers });

async function list(query: string): Promise<Page> {
  const res = await get(`search=${MODEL}&${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Page>();
}
const makes = (page: Page) => page.data.map((car) => car.car_make);

describe('GET /api/admin/cars', () => {
  it('refuses a guest with 401, and a customer and a host with 403', async () => {
    expectError(await get('', {}), 401, 'Authentication required. Please sign in.');
    const customer = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' });
    expectError(await get('', customer.headers), 403, 'Administrator access is required.');
    const host = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' });
    expectError(await get('', host.headers), 403, 'Administrator access is required.');
  });

  it('lists every car not deleted, whatever its status or verification, newest listed first, with its private fields', async () => {
    const page = await list('');
    expect(makes(page)).toEqual(['Volkswagen', 'Audi', 'Kia', 'Mazda', 'Toyota', 'Ford']);
    expect(page.meta).toEqual({ total: 6, page: 1, limit: 20 });
    const toyota = page.data.find((car) => car.car_make === 'Toyota')!;
    expect(toyota).toMatchObject({ status: 'rented', isRented: true });
    // What only owners and admins see of a car, as on its own page.
    expect(page.data.every((car) => 'car_plate_number' in car && 'registration_document' in car)).toBe(true);
  });

  it('finds a car by its plate however it is typed, and by make or city words', async () => {
    for (const search of ['KR 42', 'kr42', 'Kr-4 2']) {
      const res = await get(`search=${encodeURIComponent(search)}`);
      expect(res.statusCode).toBe(200);
      expect(res.json<Page>().data.map((car) => car.car_plate_number).sort(), search).toEqual(['KR 42 GP', 'kr42-mp']);
    }
    const res = await get(`search=${encodeURIComponent(`audi ${MODEL}`)}`);
    expect(res.json<Page>().data.map((car) => car.car_make)).toEqual(['Audi']);
    expect(makes((await get(`search=${encodeURIComponent(`durban ${MODEL}`)}`)).json<Page>())).toEqual(['Mazda']);
  });

  it('filters by status (rented: out on a rental now; available: available and not out) and by verification', async () => {
    expect(makes(await list('status=rented'))).toEqual(['Toyota']);
    expect(makes(await list('status=available'))).toEqual(['Volkswagen', 'Audi', 'Mazda']);
    expect(makes(await list('status=maintenance'))).toEqual(['Kia']);
    expect(makes(await list('status=offline'))).toEqual(['Ford']);
    expect(makes(await list('verification_status=pending_verification'))).toEqual(['Audi', 'Ford']);
    const both = await list('verification_status=pending_verification&status=offline');
    expect(makes(both)).toEqual(['Ford']);
    expect(both.meta.total).toBe(1);
  });

  it('sorts by car or by price, either way, and by listing date oldest first', async () => {
    expect(makes(await list('sort=car'))).toEqual(['Audi', 'Ford', 'Kia', 'Mazda', 'Toyota', 'Volkswagen']);
    expect(makes(await list('sort=car&order=desc'))).toEqual(['Volkswagen', 'Toyota', 'Mazda', 'Kia', 'Ford', 'Audi']);
    expect((await list('sort=price')).data.map((car) => car.car_rent_price)).toEqual([300, 450, 500, 600, 700, 900]);
    expect((await list('sort=price&order=desc')).data.map((car) => car.car_rent_price)).toEqual([900, 700, 600, 500, 450, 300]);
    expect(makes(await list('sort=listed&order=asc'))).toEqual(['Ford', 'Toyota', 'Mazda', 'Kia', 'Audi', 'Volkswagen']);
  });

  it('pages with an exact total, every car on exactly one page', async () => {
    const pages = [await list('limit=4&page=1'), await list('limit=4&page=2'), await list('limit=4&page=3')];
    expect(pages.map((page) => page.meta)).toEqual([
      { total: 6, page: 1, limit: 4 },
      { total: 6, page: 2, limit: 4 },
      { total: 6, page: 3, limit: 4 },
    ]);
    expect(pages.map(makes)).toEqual([['Volkswagen', 'Audi', 'Kia', 'Mazda'], ['Toyota', 'Ford'], []]);
    expect(makes(await list('limit=2&page=2&sort=price&order=desc'))).toEqual(['Mazda', 'Ford']);
  });

  it('refuses unknown filters, sorts and pages with 400 naming the parameter', async () => {
    for (const [query, parameter] of [
      ['status=parked', 'status'],
      ['status=', 'status'],
      ['verification_status=waiting', 'verification_status'],
      ['sort=rating', 'sort'],
      ['order=up', 'order'],
      ['page=0', 'page'],
      ['limit=101', 'limit'],
      ['search=%00', 'Search'],
    ] as const) {
      const res = await get(query);
      expectError(res, 400);
      expect(res.body, query).toContain(parameter);
    }
  });
});
