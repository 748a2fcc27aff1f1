// The browse cache: public pages are served from memory for BROWSE_CACHE_MS, and a change made
// through the API is seen at once. (Its own file: one test app per file.)
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Car } from '@karoo/shared';
import { createSignedInUser, createTestApp, expectOk, type TestApp } from './helpers';
import { createTestCar } from './helpers/vehicles';

type Page = { success: true; data: Car[]; meta: { total: number; page: number; limit: number } };

let cached: TestApp;
beforeAll(async () => {
  cached = await createTestApp({ env: { BROWSE_CACHE_MS: '60000' } });
});
afterAll(async () => {
  await cached?.close();
});

describe('browse cache', () => {
  it('serves public pages from memory and forgets them when a car changes through the API', async () => {
    const owner = await createSignedInUser(cached.app, cached.ctx, { role: 'host', verification_status: 'verified' });
    const car = await createTestCar(cached.ctx, owner.user, { make: 'Cached', price: 500 });
    const get = async (headers: Record<string, string> = {}) =>
      (await cached.app.inject({ method: 'GET', url: '/api/car/getCarList?search=cached', headers })).json<Page>().data;
    expect((await get())[0]!.car_rent_price).toBe(500);
    // A write behind the API's back is not seen while the page is cached...
    await cached.db.updateTable('cars').set({ car_rent_price_cents: 70000 }).where('id', '=', car.id).execute();
    expect((await get())[0]!.car_rent_price).toBe(500);
    // ...except by the owner's own view, which is never cached...
    const own = await cached.app.inject({ method: 'GET', url: `/api/car/getCarList?owner=${owner.user.username}`, headers: owner.headers });
    expect(own.json<Page>().data[0]!.car_rent_price).toBe(700);
    // ...and a write through the API is seen at once.
    expectOk(await cached.app.inject({ method: 'POST', url: `/api/rent/updateCarRentPrice/${car.id}`, headers: owner.headers, payload: { car_rent_price: 800 } }));
    expect((await get())[0]!.car_rent_price).toBe(800);
  });

  it('gives a gzip copy of a cached page to clients that accept it', async () => {
    const owner = await createSignedInUser(cached.app, cached.ctx, { role: 'host', verification_status: 'verified' });
    await createTestCar(cached.ctx, owner.user, { make: 'Zipped' });
    const url = '/api/car/getCarList?search=zipped';
    const plain = await cached.app.inject({ method: 'GET', url });
    const zipped = await cached.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(zipped.headers.vary).toMatch(/accept-encoding/i);
    expect(gunzipSync(zipped.rawPayload).toString('utf8')).toBe(plain.body);
    expect(plain.headers['content-encoding']).toBeUndefined();
  });
});
