// Platform settings (document 3; decisions.md section 8): public read of both shapes with the
// defaults, admin-only changes within their limits, paired keys kept equal, and maintenance mode.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, MAINTENANCE_MESSAGE, type PlatformSettings } from '@karoo/shared';
import { createSignedInUser, createTestApp, expectError, expectOk, login, type TestApp } from './helpers';
import { createTestCar, newCarBody } from './helpers/vehicles';

type Signed = Awaited<ReturnType<typeof createSignedInUser>>;

let t: TestApp;
let admin: Signed;
let host: Signed;

beforeAll(async () => {
  t = await createTestApp({ env: { BROWSE_CACHE_MS: '0' } });
  admin = await createSignedInUser(t.app, t.ctx, { role: 'admin', verification_status: 'verified' });
  host = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' });
});
afterAll(async () => {
  await t?.close();
});

const read = async () => expectOk<PlatformSettings>(await t.app.inject({ method: 'GET', url: '/api/settings' }));
const put = (payload: object, headers = admin.headers) => t.app.inject({ method: 'PUT', url: '/api/settings', headers, payload });

describe('settings', () => {
  it('are public, in both shapes, with the decided defaults', async () => {
    expect(await read()).toEqual(DEFAULT_SETTINGS);
    expect(DEFAULT_SETTINGS).toMatchObject({
      platformCommission: 10,
      commission_rate: 10,
      platform_fee: 25,
      minCarValue: 50000,
      maxRentalDays: 30,
      maximum_rental_duration_days: 30,
      autoApproveHosts: true,
      emailNotifications: true,
      smsNotifications: false,
      maintenanceMode: false,
      maintenance_mode: false,
      currency: 'ZAR',
      business_rules: { require_host_approval: true, instant_booking_enabled: false, automatic_pricing_adjustment: false, surge_pricing_enabled: false },
    });
  });

  it('change for admins only', async () => {
    expectError(await t.app.inject({ method: 'PUT', url: '/api/settings', payload: { platform_fee: 30 } }), 401);
    expectError(await put({ platform_fee: 30 }, host.headers), 403);
    expect((await read()).platform_fee).toBe(25);
  });

  it('keep their limits: fees 0 to 100, rentals 1 to 365 days', async () => {
    expectError(await put({ platform_fee: 101 }), 400, 'Platform fee must be between 0 and 100');
    expectError(await put({ platformCommission: -1 }), 400, 'Commission must be between 0 and 100');
    expectError(await put({ commission_rate: 100.5 }), 400, 'Commission must be between 0 and 100');
    expectError(await put({ maxRentalDays: 0 }), 400, 'Maximum rental duration must be between 1 and 365 days');
    expectError(await put({ maximum_rental_duration_days: 366 }), 400, 'Maximum rental duration must be between 1 and 365 days');
    expectError(await put({ currency: 'BTC' }), 400);
    expect(await read()).toEqual(DEFAULT_SETTINGS);
  });

  it('keep the two shapes equal, whichever one is edited', async () => {
    const a = expectOk<PlatformSettings>(await put({ platformCommission: 12, maxRentalDays: 14 }));
    expect(a).toMatchObject({ platformCommission: 12, commission_rate: 12, maxRentalDays: 14, maximum_rental_duration_days: 14 });
    // The admin screen sends the whole object after editing one shape: the edited key wins.
    const b = expectOk<PlatformSettings>(await put({ ...a, commission_rate: 8, business_rules: { ...a.business_rules, surge_pricing_enabled: true } }));
    expect(b).toMatchObject({ platformCommission: 8, commission_rate: 8, business_rules: { surge_pricing_enabled: true, require_host_approval: true } });
    expectError(await put({ platformCommission: 5, commission_rate: 6 }), 400, /same setting/);
    expect(await read()).toEqual(b);
    expectOk(await put(DEFAULT_SETTINGS));
    expect(await read()).toEqual(DEFAULT_SETTINGS);
  });

  it('enforce the minimum car value when listing', async () => {
    expectOk(await put({ minCarValue: 500000 }));
    try {
      expectError(
        await t.app.inject({ method: 'POST', url: `/api/car/newCar/${host.user.username}`, headers: host.headers, payload: newCarBody({ car_value: 450000 }) }),
        400,
        /^Vehicle value must be at least R.500.000 to list on Karoo\.$/,
      );
    } finally {
      expectOk(await put({ minCarValue: 50000 }));
    }
    expectOk(await t.app.inject({ method: 'POST', url: `/api/car/newCar/${host.user.username}`, headers: host.headers, payload: newCarBody({ car_value: 450000 }) }), 201);
  });
});

describe('maintenance mode', () => {
  it('answers 503 to non-admin writes while reads, sign-in and admins keep working', async () => {
    const car = await createTestCar(t.ctx, host.user);
    expect(expectOk<PlatformSettings>(await put({ maintenance_mode: true }))).toMatchObject({ maintenance_mode: true, maintenanceMode: true });
    try {
      expectError(await t.app.inject({ method: 'POST', url: `/api/rent/updateCarRentPrice/${car.id}`, headers: host.headers, payload: { car_rent_price: 900 } }), 503, MAINTENANCE_MESSAGE);
      expectError(await t.app.inject({ method: 'POST', url: '/api/booking/create', headers: host.headers, payload: {} }), 503, MAINTENANCE_MESSAGE);
      expectError(await t.app.inject({ method: 'PUT', url: `/api/user/update/${host.user.id}`, headers: host.headers, payload: { phone_number: '+27 82 000 0000' } }), 503, MAINTENANCE_MESSAGE);
      expectError(await t.app.inject({ method: 'POST', url: '/api/user/register', payload: {} }), 503, MAINTENANCE_MESSAGE);
      expectOk(await t.app.inject({ method: 'GET', url: `/api/car/getCarDetails/${car.id}` }));
      expect(await login(t.app, host.user.username)).toBeTruthy();
      expectOk(await t.app.inject({ method: 'POST', url: `/api/rent/updateCarRentPrice/${car.id}`, headers: admin.headers, payload: { car_rent_price: 900 } }));
    } finally {
      expectOk(await put({ maintenanceMode: false }));
    }
    expectOk(await t.app.inject({ method: 'POST', url: `/api/rent/updateCarRentPrice/${car.id}`, headers: host.headers, payload: { car_rent_price: 950 } }));
  });
});
