// GET /api/car/getCarList for an admin with includeUnverified=true, as api.md promises other
// clients (the admin Cars tab reads GET /api/admin/cars since issue 19: admin-cars.test.ts).
// Issue 18: a search finds a car by its plate whatever the spaces, hyphens and case ("KR 42" finds
// "KR 42 GP" and "kr42-mp"), for admins and owners only (the public browse never searches plates);
// and the pending-verification filter (verification_status) lists exactly the cars waiting for
// review, with the status filter and the search, its total counted on the server.
import type { Car } from '@karoo/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignedInUser, createTestApp, expectError, type TestApp } from './helpers';
import { createTestCar } from './helpers/vehicles';

type Signed = Awaited<ReturnType<typeof createSignedInUser>>;
type Page = { success: true; data: Car[]; meta: { total: number; page: number; limit: number } };

let t: TestApp;
let admin: Signed;
let host: Signed;
let renter: Signed;

beforeAll(async () => {
  t = await createTestApp({ env: { BROWSE_CACHE_MS: '0' } });
  t.clock.set('2030-03-10T08:00:00Z');
  admin = await createSignedInUser(t.app, t.ctx, { role: 'admin', verification_status: 'verified' });
  host = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' });
  renter = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' });
});
afterAll(async () => {
  await t?.close();
});

async function list(query: string, headers: Record<string, string>): Promise<Page> {
  const res = await t.app.inject({ method: 'GET', url: `/api/car/getCarList?${query}`, headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Page>();
}
const plates = (page: Page) => page.data.map((car) => car.car_plate_number).sort();
const adminList = (query: string) => list(`includeUnverified=true&limit=48&${query}`, admin.headers);

describe('plate search', () => {
  beforeAll(async () => {
    await createTestCar(t.ctx, host.user, { make: 'Volkswagen', model: 'Polo', overrides: { car_plate_number: 'KR 42 GP' } });
    await createTestCar(t.ctx, host.user, { make: 'Toyota', model: 'Hilux', verification_status: 'pending_verification', overrides: { car_plate_number: 'kr42-mp' } });
    await createTestCar(t.ctx, host.user, { make: 'Kia', model: 'Rio', overrides: { car_plate_number: 'KR 4 ZX' } });
    await createTestCar(t.ctx, host.user, { make: 'Mazda', model: 'CX-5', overrides: { car_plate_number: 'CA 142 GP' } });
  });

  it('finds a plate whatever its spaces, hyphens and case', async () => {
    for (const search of ['KR 42', 'kr42', 'Kr 4 2', 'KR-42', ' kr 42 ']) {
      const page = await adminList(`search=${encodeURIComponent(search)}`);
      expect(plates(page), search).toEqual(['KR 42 GP', 'kr42-mp']);
      expect(page.meta.total, search).toBe(2);
    }
    expect(plates(await adminList('search=42gp'))).toEqual(['CA 142 GP', 'KR 42 GP']);
    expect(plates(await adminList(`search=${encodeURIComponent('KR42GP')}`))).toEqual(['KR 42 GP']);
  });

  it('still finds make, model and city words, and a search matching neither finds nothing', async () => {
    expect(plates(await adminList('search=polo'))).toEqual(['KR 42 GP']);
    expect(plates(await adminList('search=hilux'))).toEqual(['kr42-mp']);
    expect((await adminList('search=KR43')).data).toEqual([]);
  });

  it('works for an owner on their own cars, but the public browse never searches plates', async () => {
    expect(plates(await list(`owner=${host.user.username}&search=KR+42&limit=48`, host.headers))).toEqual(['KR 42 GP', 'kr42-mp']);
    expect((await list('search=KR42GP', {})).data).toEqual([]);
    expect((await list('search=KR42GP&includeUnverified=true', renter.headers)).data).toEqual([]);
  });
});

describe('pending-verification filter', () => {
  it('lists only the cars waiting for review, with the status filter and the search', async () => {
    const owner = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' });
    const model = 'Pendq';
    await createTestCar(t.ctx, owner.user, { make: 'Listed', model });
    await createTestCar(t.ctx, owner.user, { make: 'Waiting', model, verification_status: 'pending_verification' });
    await createTestCar(t.ctx, owner.user, { make: 'WaitingOffline', model, status: 'maintenance', verification_status: 'pending_verification' });
    await createTestCar(t.ctx, owner.user, { make: 'Refused', model, verification_status: 'rejected' });
    await createTestCar(t.ctx, owner.user, { make: 'GoneWaiting', model, verification_status: 'pending_verification', deleted: true });

    const pending = await adminList(`search=${model}&verification_status=pending_verification`);
    expect(pending.data.map((car) => car.car_make).sort()).toEqual(['Waiting', 'WaitingOffline']);
    expect(pending.meta.total).toBe(2);
    expect(pending.data.every((car) => car.verification_status === 'pending_verification')).toBe(true);
    const inMaintenance = await adminList(`search=${model}&verification_status=pending_verification&status=maintenance`);
    expect(inMaintenance.data.map((car) => car.car_make)).toEqual(['WaitingOffline']);
    // "all" and an empty value mean no filter, as the tab's select sends them.
    expect((await adminList(`search=${model}&verification_status=all`)).meta.total).toBe(4);
    expect((await adminList(`search=${model}&verification_status=`)).meta.total).toBe(4);
  });

  it('refuses an unknown verification status with 400, and shows a non-admin no pending car', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/car/getCarList?includeUnverified=true&verification_status=waiting', headers: admin.headers });
    expectError(res, 400);
    expect(res.json<{ message: string }>().message).toMatch(/verification_status/i);
    expect((await list('includeUnverified=true&verification_status=pending_verification', renter.headers)).data).toEqual([]);
  });
});
