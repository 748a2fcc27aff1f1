// Ratings as the screens read them (decisions.md section 5): a car or host without reviews has no
// rating (null, never the seed's 4.5 default), and GET /review/getStats without a car is the
// average of every review on the platform, which the landing page shows instead of a fixed 4.8.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Car, ReviewStats } from '@karoo/shared';
import { createSignedInUser, createTestApp, createUser, expectOk, type TestApp } from './helpers';
import { createTestCar, createTestReview } from './helpers/vehicles';

type Signed = Awaited<ReturnType<typeof createSignedInUser>>;

let t: TestApp;
let host: Signed;
let otherHost: Signed;

beforeAll(async () => {
  t = await createTestApp({ env: { BROWSE_CACHE_MS: '0' } });
  t.clock.set('2030-03-10T08:00:00Z');
  host = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' });
  otherHost = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' });
});
afterAll(async () => {
  await t?.close();
});

const get = <T>(url: string) => t.app.inject({ method: 'GET', url }).then((res) => expectOk<T>(res));

describe('ratings without reviews', () => {
  it('the platform has no average yet: count 0, and a car and its host have no rating (null, not 4.5)', async () => {
    expect(await get<ReviewStats>('/api/review/getStats')).toEqual({ average: 0, count: 0, by_rating: { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 } });

    const car = await createTestCar(t.ctx, host.user);
    const shown = await get<Car>(`/api/car/getCarDetails/${car.car_username}`);
    expect(shown).toMatchObject({ rating: null, totalReviews: 0 });
    expect(shown.host.rating).toBeNull();
    const listed = (await get<Car[]>(`/api/car/getCarList?owner=${host.user.username}`)).find((c) => c.id === car.id);
    expect(listed).toMatchObject({ rating: null, totalReviews: 0 });
    expect(await get<ReviewStats>(`/api/review/getStats?car_username=${car.car_username}`)).toMatchObject({ average: 0, count: 0 });
  });
});

describe('GET /review/getStats without a car', () => {
  it('averages every review on the platform, across cars and hosts, to one decimal', async () => {
    const reviewer = await createUser(t.ctx, { verification_status: 'verified' });
    const polo = await createTestCar(t.ctx, host.user, { make: 'Volkswagen', model: 'Polo' });
    const swift = await createTestCar(t.ctx, otherHost.user, { make: 'Suzuki', model: 'Swift' });
    await createTestReview(t.ctx, polo, reviewer, 5);
    await createTestReview(t.ctx, polo, reviewer, 4);
    await createTestReview(t.ctx, swift, reviewer, 2);

    // (5 + 4 + 2) / 3 = 3.67 -> 3.7
    expect(await get<ReviewStats>('/api/review/getStats')).toEqual({ average: 3.7, count: 3, by_rating: { 1: 0, 2: 1, 3: 0, 4: 1, 5: 1 } });
    expect(await get<ReviewStats>(`/api/review/getStats?car_username=${polo.car_username}`)).toMatchObject({ average: 4.5, count: 2 });

    // The reviewed car now has its own rating; a car without reviews still has none.
    expect(await get<Car>(`/api/car/getCarDetails/${polo.id}`)).toMatchObject({ rating: 4.5, totalReviews: 2 });
    const fresh = await createTestCar(t.ctx, otherHost.user);
    expect(await get<Car>(`/api/car/getCarDetails/${fresh.id}`)).toMatchObject({ rating: null, totalReviews: 0 });
  });
});
