// The demo data keeps to what an admin can approve (issue 18; docs/decisions/033): every verified
// person has the required documents on file and every verified car has what verifying it needs
// (an approved registration document, a photo, a listing the rules accept), judged by the same
// shared rule the server and the admin panel use; and the demo's admin queue behaves as the rule
// says: naledi (documents in) can be verified, the pending cars only once their registration
// document is approved.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { carVerificationGaps, missingRequiredDocuments, todayIn, type Car, type UserWithDocuments } from '@karoo/shared';
import { DEMO_PASSWORD, seedDemo } from '../src/db/seed';
import { getSettings } from '../src/modules/settings/settings.service';
import { authHeader, createTestApp, expectError, expectOk, login, type TestApp } from './helpers';

let t: TestApp;
let admin: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp({ env: { BROWSE_CACHE_MS: '0' } });
  t.clock.set('2030-03-10T08:00:00Z');
  await seedDemo(t.ctx, t.db);
  admin = authHeader(await login(t.app, 'admin', DEMO_PASSWORD));
}, 120_000);
afterAll(async () => {
  await t?.close();
});

async function allCars(): Promise<Car[]> {
  const cars: Car[] = [];
  for (let page = 1; ; page++) {
    const batch = expectOk<Car[]>(await t.app.inject({ method: 'GET', url: `/api/car/getCarList?includeUnverified=true&limit=48&page=${page}`, headers: admin }));
    cars.push(...batch);
    if (batch.length < 48) return cars;
  }
}

describe('the demo seed and what an admin can approve', () => {
  it('every verified user but the administrators has the required documents', async () => {
    const users = expectOk<UserWithDocuments[]>(await t.app.inject({ method: 'GET', url: '/api/user/getList?limit=100', headers: admin }));
    const verified = users.filter((u) => u.verification_status === 'verified' && u.role !== 'admin');
    expect(verified.length).toBeGreaterThanOrEqual(10);
    expect(verified.filter((u) => missingRequiredDocuments(u.documents).length > 0).map((u) => u.username)).toEqual([]);
  });

  it('every verified car has an approved registration document, a photo and a valid listing', async () => {
    const cars = await allCars();
    const settings = await getSettings(t.ctx);
    const options = { minCarValue: settings.minCarValue, currentYear: Number(todayIn(t.clock.now()).slice(0, 4)) };
    const verified = cars.filter((c) => c.verification_status === 'verified');
    expect(verified.length).toBeGreaterThanOrEqual(50);
    const gaps = verified.map((car) => ({ car: car.car_username, gaps: carVerificationGaps(car, options) })).filter((c) => c.gaps.length);
    expect(gaps).toEqual([]);
  });

  it("naledi, pending with her documents in, can be verified", async () => {
    const res = await t.app.inject({ method: 'PUT', url: '/api/user/naledi/verification', headers: admin, payload: { verification_status: 'verified' } });
    expect(expectOk<UserWithDocuments>(res).verification_status).toBe('verified');
  });

  it('a pending demo car is refused until its registration document is approved, then verified', async () => {
    const pending = (await allCars()).filter((c) => c.verification_status === 'pending_verification');
    expect(pending.length).toBeGreaterThanOrEqual(2);
    for (const car of pending) {
      expect(car.images.length).toBeGreaterThan(0);
      const refused = expectError(await t.app.inject({ method: 'PATCH', url: `/api/car/verifyCar/${car.id}`, headers: admin, payload: { verification_status: 'verified' } }), 409);
      expect(refused.message).toMatch(/registration document is (not uploaded|awaiting review)/);
    }
    // The seed is deterministic: one of the queue's cars has its registration document awaiting review.
    const withDocument = pending.find((c) => c.registration_document);
    expect(withDocument?.registration_document?.verified).toBeNull();
    expectOk(await t.app.inject({ method: 'PATCH', url: `/api/car/verifyRegistrationDocument/${withDocument!.car_username}`, headers: admin, payload: { verified: true } }));
    const verified = expectOk<Car>(await t.app.inject({ method: 'PATCH', url: `/api/car/verifyCar/${withDocument!.id}`, headers: admin, payload: { verification_status: 'verified' } }));
    expect(verified.verification_status).toBe('verified');
  });
});
