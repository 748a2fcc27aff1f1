// What a car card's badges say (issue 32, decision 056): each states a fact about the car, never a
// guess from its price. Instant: its host turned instant booking on and the platform's switch allows
// it (decision 078; instant booking and host approval are one switch, decision 056);
// Insured: one of its insurance plans is included in the price. The browse cards follow a change of
// the settings at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedInsuranceOption } from '../src/modules/cars';
import type { Booking, CarCard, PlatformSettings } from '@karoo/shared';
import { createSignedInUser, createTestApp, expectOk, type TestApp } from './helpers';
import { createTestCar, INSURANCE_STANDARD } from './helpers/vehicles';

type Signed = Awaited<ReturnType<typeof createSignedInUser>>;
let t: TestApp;
let admin: Signed;
let host: Signed;
let renter: Signed;

const INCLUDED_COVER = storedInsuranceOption({
  id: 'insurance_basic',
  name: 'Basic Cover',
  description: 'Third-party liability, in the price',
  daily_rate: 0,
  excess_amount: 15000,
  coverage: ['Third-party liability'],
  included: true,
  popular: false,
  recommended: false,
});

beforeAll(async () => {
  t = await createTestApp({ env: { BROWSE_CACHE_MS: '60000' } });
  t.clock.set('2030-03-10T08:00:00+02:00');
  admin = await createSignedInUser(t.app, t.ctx, { role: 'admin', verification_status: 'verified' });
  host = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' });
  renter = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' });
});
afterAll(async () => {
  await t?.close();
});

const putSettings = (payload: Record<string, unknown>) => t.app.inject({ method: 'PUT', url: '/api/settings', headers: admin.headers, payload });
const cards = async () => expectOk<CarCard[]>(await t.app.inject({ method: 'GET', url: `/api/car/getCarList?fields=card&owner=${host.user.username}&limit=48` }));
const request = (car: { car_username: string }, start: string, end: string) =>
  t.app.inject({ method: 'POST', url: '/api/booking/create', headers: renter.headers, payload: { car_username: car.car_username, start_date: start, end_date: end, start_time: '09:00', end_time: '17:00', is_hourly_booking: false } });

describe('card badges', () => {
  it('Insured only with cover included in the price, whatever the price; no Premium', async () => {
    const cheapCovered = await createTestCar(t.ctx, host.user, { price: 500, insurance_options: [INCLUDED_COVER, INSURANCE_STANDARD] });
    const dearOptional = await createTestCar(t.ctx, host.user, { price: 1500, insurance_options: [INSURANCE_STANDARD] });
    const noPlans = await createTestCar(t.ctx, host.user, { price: 700, insurance_options: [] });
    const byUsername = new Map((await cards()).map((c) => [c.car_username, c.badges]));
    // The old rule read R 500 as Instant and uninsured, R 1 500 as Premium and Insured, R 700 as both.
    expect(byUsername.get(cheapCovered.car_username)).toEqual(['Insured']);
    expect(byUsername.get(dearOptional.car_username)).toEqual([]);
    expect(byUsername.get(noPlans.car_username)).toEqual([]);
  });

  it("Instant exactly when the car's instant booking is on under the platform's switch, and the cards follow the switch at once", async () => {
    const car = await createTestCar(t.ctx, host.user, { price: 600, overrides: { instant_booking: true } });
    const other = await createTestCar(t.ctx, host.user, { price: 600 });
    const pending = expectOk<Booking>(await request(car, '2030-04-01', '2030-04-03'), 201);
    expect(pending.status).toBe('pending');
    expect((await cards()).find((c) => c.car_username === car.car_username)?.badges).toEqual([]);

    // Host approval off is instant booking allowed (one switch): the instant car's next request is
    // confirmed and the cached browse page says Instant straight away; the other car's host answers.
    const on = expectOk<PlatformSettings>(await putSettings({ business_rules: { require_host_approval: false } }));
    expect(on.business_rules).toMatchObject({ require_host_approval: false, instant_booking_enabled: true });
    try {
      const now = await cards();
      expect(now.find((c) => c.car_username === car.car_username)?.badges).toEqual(['Instant']);
      expect(now.find((c) => c.car_username === other.car_username)?.badges).toEqual([]);
      const confirmed = expectOk<Booking>(await request(car, '2030-04-10', '2030-04-12'), 201);
      expect(confirmed.status).toBe('confirmed');
      expect(expectOk<Booking>(await request(other, '2030-04-10', '2030-04-12'), 201).status).toBe('pending');
    } finally {
      const off = expectOk<PlatformSettings>(await putSettings({ business_rules: { instant_booking_enabled: false } }));
      expect(off.business_rules).toMatchObject({ require_host_approval: true, instant_booking_enabled: false });
    }
    expect((await cards()).find((c) => c.car_username === car.car_username)?.badges).toEqual([]);
    expect(expectOk<Booking>(await request(car, '2030-04-20', '2030-04-22'), 201).status).toBe('pending');
  });

  it('a request that names no plan for a car with cover included carries that cover, as the card says', async () => {
    const covered = await createTestCar(t.ctx, host.user, { price: 500, insurance_options: [INCLUDED_COVER, INSURANCE_STANDARD] });
    const booked = expectOk<Booking>(await request(covered, '2030-05-01', '2030-05-03'), 201);
    expect(booked.insurance_option).toMatchObject({ name: 'Basic Cover' });
    const uncovered = await createTestCar(t.ctx, host.user, { price: 500, insurance_options: [INSURANCE_STANDARD] });
    expect(expectOk<Booking>(await request(uncovered, '2030-05-01', '2030-05-03'), 201).insurance_option).toBeNull();
  });

  it('keeps instant booking and host approval opposite: the one that changed is the edit', async () => {
    // The whole object sent back with instant booking ticked and the old host approval: instant wins.
    const edited = expectOk<PlatformSettings>(await putSettings({ business_rules: { instant_booking_enabled: true, require_host_approval: true } }));
    expect(edited.business_rules).toMatchObject({ require_host_approval: false, instant_booking_enabled: true });
    const back = expectOk<PlatformSettings>(await putSettings({ business_rules: { instant_booking_enabled: true, require_host_approval: true } }));
    expect(back.business_rules).toMatchObject({ require_host_approval: true, instant_booking_enabled: false });
    const settings = expectOk<PlatformSettings>(await t.app.inject({ method: 'GET', url: '/api/settings' }));
    expect(settings.business_rules).toMatchObject({ require_host_approval: true, instant_booking_enabled: false });
  });
});
