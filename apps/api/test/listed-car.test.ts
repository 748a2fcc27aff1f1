// "Listed" has one definition written twice, in the two languages it is needed in: @karoo/shared
// `isListedCar` for a car in hand (who may see it, the host's screens) and the cars module's
// `listedCar` SQL for the queries (browse, sitemap, the public list). This holds them to each other on
// every combination of status, verification and deletion, on the real database.
import { CAR_VERIFICATION_STATUSES, isListedCar, SETTABLE_CAR_STATUSES } from '@karoo/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listedCar } from '../src/modules/cars/listed-car';
import { createTestApp, createUser, type TestApp } from './helpers';
import { createTestCar } from './helpers/vehicles';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t?.close();
});

describe('a listed car', () => {
  it('is the same car in SQL and in TypeScript, for every status, verification and deletion', async () => {
    const host = await createUser(t.ctx, { role: 'host', verification_status: 'verified' });
    const cars = [];
    // Every status the database stores (migration 0007: 'rented' and 'active' follow the bookings, never stored).
    for (const status of SETTABLE_CAR_STATUSES) {
      for (const verification_status of CAR_VERIFICATION_STATUSES) {
        for (const deleted of [false, true]) cars.push({ car: await createTestCar(t.ctx, host, { status, verification_status, deleted }), deleted });
      }
    }
    const listedInSql = new Set(
      (await t.ctx.db.selectFrom('cars as c').select('c.id').where('c.owner_id', '=', host.id).where(listedCar('c')).execute()).map((r) => r.id),
    );
    const expected = cars.filter(({ car, deleted }) => !deleted && isListedCar(car)).map(({ car }) => car.id);
    expect([...listedInSql].sort()).toEqual(expected.sort());
    // The rule itself, by hand: only available and verified, and not deleted.
    expect(expected).toHaveLength(1);
    expect(cars.find(({ car }) => car.id === expected[0])!.car).toMatchObject({ status: 'available', verification_status: 'verified', deleted_at: null });
  });
});
