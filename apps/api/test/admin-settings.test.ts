// The admin Settings tab's server side (issue 10): Change Admin Password (current password, the
// reset rules, other sessions and reset links ended), Clear System Cache (browse pages and settings
// of every instance; two-instances.test.ts shows the others), and a fee change that applies to the next booking and never to a stored one.
// BROWSE_CACHE_MS is long here so that a cached page is observable (as in browse-cache.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Booking, Car, PlatformSettings } from '@karoo/shared';
import { authHeader, createSignedInUser, createTestApp, expectError, expectOk, login, loginResponse, TEST_PASSWORD, type TestApp } from './helpers';
import { createTestCar } from './helpers/vehicles';

type Signed = Awaited<ReturnType<typeof createSignedInUser>>;
type Page = { success: true; data: Car[] };

let t: TestApp;
let admin: Signed;
let host: Signed;
let renter: Signed;

beforeAll(async () => {
  t = await createTestApp({ env: { BROWSE_CACHE_MS: '60000' } });
  t.clock.set('2030-03-10T08:00:00Z');
  admin = await createSignedInUser(t.app, t.ctx, { role: 'admin', verification_status: 'verified' });
  host = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' });
  renter = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' });
});
afterAll(async () => {
  await t?.close();
});

const NEW_PASSWORD = 'Fresh-pass-42';
const changePassword = (headers: Record<string, string>, payload: object) =>
  t.app.inject({ method: 'POST', url: '/api/user/change-password', headers, payload });
const me = (headers: Record<string, string>) => t.app.inject({ method: 'GET', url: '/api/user/me', headers });

describe('POST /api/user/change-password', () => {
  it('needs a signed-in user', async () => {
    expectError(await changePassword({}, { currentPassword: TEST_PASSWORD, newPassword: NEW_PASSWORD }), 401);
  });

  it('refuses a wrong current password on the currentPassword field, and changes nothing', async () => {
    const user = await createSignedInUser(t.app, t.ctx, { role: 'admin', verification_status: 'verified' });
    const res = changePassword(user.headers, { currentPassword: 'Not-the-one-1', newPassword: NEW_PASSWORD });
    const body = expectError(await res, 400, 'Current password is incorrect');
    expect(body.errors).toMatchObject({ currentPassword: 'Current password is incorrect' });
    await login(t.app, user.user.username, TEST_PASSWORD);
  });

  it('checks the new password by the reset rules', async () => {
    const user = await createSignedInUser(t.app, t.ctx);
    const cases: [string, string][] = [
      ['Ab1', 'Password must be at least 8 characters long'],
      ['abcdefghij', 'Password must contain at least one letter and one number'],
      ['password123', 'Password is too common. Please choose a stronger password.'],
    ];
    for (const [newPassword, message] of cases) {
      expectError(await changePassword(user.headers, { currentPassword: TEST_PASSWORD, newPassword }), 400, message);
    }
    expectError(await changePassword(user.headers, { currentPassword: '', newPassword: NEW_PASSWORD }), 400, 'Current password is required');
  });

  it('sets the new password, ends every other session and reset link, and keeps this session', async () => {
    const user = await createSignedInUser(t.app, t.ctx, { role: 'admin', verification_status: 'verified' });
    const otherDevice = authHeader(await login(t.app, user.user.username));
    expectOk(await t.app.inject({ method: 'POST', url: '/api/user/forgot-password', payload: { email: user.user.email } }));
    const resetToken = await t.outbox.resetToken(user.user.email);

    const res = await changePassword(user.headers, { currentPassword: TEST_PASSWORD, newPassword: NEW_PASSWORD });
    expectOk(res);
    expect(res.json<{ message: string }>().message).toBe('Password changed. You were signed out on every other device.');

    expectOk(await me(user.headers));
    expectError(await me(otherDevice), 401);
    expectError(await t.app.inject({ method: 'GET', url: `/api/user/verify-reset-token/${encodeURIComponent(resetToken)}` }), 400);
    expect((await loginResponse(t.app, user.user.username, TEST_PASSWORD)).statusCode).toBe(401);
    await login(t.app, user.user.username, NEW_PASSWORD);
  });
});

describe('POST /api/admin/cache/clear', () => {
  it('is for admins only', async () => {
    expectError(await t.app.inject({ method: 'POST', url: '/api/admin/cache/clear' }), 401);
    expectError(await t.app.inject({ method: 'POST', url: '/api/admin/cache/clear', headers: host.headers }), 403);
    expectError(await t.app.inject({ method: 'POST', url: '/api/admin/cache/clear', headers: renter.headers }), 403);
  });

  it('forgets the cached browse pages and settings of this instance', async () => {
    const car = await createTestCar(t.ctx, host.user, { make: 'Cacheclear', price: 500 });
    const browse = async () => (await t.app.inject({ method: 'GET', url: '/api/car/getCarList?search=cacheclear' })).json<Page>().data;
    const settings = async () => expectOk<PlatformSettings>(await t.app.inject({ method: 'GET', url: '/api/settings' }));
    expect((await browse())[0]!.car_rent_price).toBe(500);
    const saved = expectOk<PlatformSettings>(await t.app.inject({ method: 'PUT', url: '/api/settings', headers: admin.headers, payload: { minCarValue: 50000 } }));

    // Writes behind the API's back are not seen while cached...
    await t.db.updateTable('cars').set({ car_rent_price_cents: 70000 }).where('id', '=', car.id).execute();
    await t.db.updateTable('settings').set({ data: JSON.stringify({ ...saved, minCarValue: 60000 }) }).where('id', '=', 1).execute();
    expect((await browse())[0]!.car_rent_price).toBe(500);
    expect((await settings()).minCarValue).toBe(50000);

    // ...until the cache is cleared.
    const cleared = await t.app.inject({ method: 'POST', url: '/api/admin/cache/clear', headers: admin.headers });
    expect(expectOk<{ cleared: string[] }>(cleared)).toEqual({ cleared: ['browse', 'settings'] });
    expect((await browse())[0]!.car_rent_price).toBe(700);
    expect((await settings()).minCarValue).toBe(60000);
    expectOk(await t.app.inject({ method: 'PUT', url: '/api/settings', headers: admin.headers, payload: { minCarValue: 50000 } }));
  });
});

describe('a platform fee change', () => {
  it('applies to the next booking and changes no stored booking', async () => {
    const put = (payload: object) => t.app.inject({ method: 'PUT', url: '/api/settings', headers: admin.headers, payload });
    expectOk(await put({ platform_fee: 25, minCarValue: 50000 }));
    const car = await createTestCar(t.ctx, host.user, { price: 1000 });
    const book = async (start: string, end: string) =>
      expectOk<Booking>(
        await t.app.inject({
          method: 'POST',
          url: '/api/booking/create',
          headers: renter.headers,
          payload: { car_username: car.car_username, start_date: start, end_date: end, start_time: '09:00', end_time: '17:00', is_hourly_booking: false },
        }),
        201,
      );
    const stored = (id: string) =>
      t.db.selectFrom('bookings').select(['commission_rate', 'app_fee_cents', 'car_owner_earnings_cents', 'total_price_cents']).where('id', '=', id).executeTakeFirstOrThrow();

    const first = await book('2030-04-01', '2030-04-03');
    expect(first).toMatchObject({ commission_rate: 25, subtotal: 2000, car_owner_earnings: 1500 });
    const firstBefore = await stored(first.id);

    expectOk(await put({ platform_fee: 20 }));
    try {
      const second = await book('2030-04-10', '2030-04-12');
      expect(second).toMatchObject({ commission_rate: 20, subtotal: 2000, car_owner_earnings: 1600 });
      expect(await stored(first.id)).toEqual(firstBefore);
      expect(firstBefore).toMatchObject({ commission_rate: 25 });
    } finally {
      expectOk(await put({ platform_fee: 25 }));
    }
  });
});
