// Instant booking by the host's choice (issue 36, decision 078): the host turns it on per car with
// requirements (completed trips, a rating from hosts, years with a licence); a request that meets
// them is confirmed at once, any other is an ordinary request; the admin's switch is the kill
// switch above every car; the badge, the car page and the browse filter say only what is true.
import type { Booking, Car, CarCard, InstantEligibility, PlatformSettings, User } from '@karoo/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignedInUser, createTestApp, expectError, expectOk, type TestApp } from './helpers';
import { createTestBooking, createTestCar } from './helpers/vehicles';

type Signed = Awaited<ReturnType<typeof createSignedInUser>>;
let t: TestApp;
let admin: Signed;
let host: Signed;
let otherHost: Signed;

// Tuesday 10 March 2030, 10:00 in Johannesburg: "today" is 2030-03-10.
const NOW = '2030-03-10T10:00:00+02:00';

beforeAll(async () => {
  t = await createTestApp({ env: { BROWSE_CACHE_MS: '0' } });
  t.clock.set(NOW);
  admin = await createSignedInUser(t.app, t.ctx, { role: 'admin', verification_status: 'verified' });
  host = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' });
  otherHost = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' });
});
afterAll(async () => {
  await t?.close();
});

const setInstant = (who: Signed, car: { id: string }, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'PATCH', url: `/api/car/updateInstantBooking/${car.id}`, headers: who.headers, payload });
const platform = (on: boolean) => t.app.inject({ method: 'PUT', url: '/api/settings', headers: admin.headers, payload: { business_rules: { instant_booking_enabled: on } } });
const eligibility = (who: Signed, car: { car_username: string }) => t.app.inject({ method: 'GET', url: `/api/booking/instant/${car.car_username}`, headers: who.headers });
const request = (who: Signed, car: { car_username: string }, start: string, end: string) =>
  t.app.inject({ method: 'POST', url: '/api/booking/create', headers: who.headers, payload: { car_username: car.car_username, start_date: start, end_date: end, start_time: '09:00', end_time: '17:00', is_hourly_booking: false } });
const cardsOf = async (owner: Signed, query = '') =>
  expectOk<CarCard[]>(await t.app.inject({ method: 'GET', url: `/api/car/getCarList?fields=card&owner=${owner.user.username}&limit=48${query}` }));

/** A renter with `trips` completed trips on another host's car, hosts' reviews of `stars`, and a licence issued on `licence`. */
async function renterWith(trips: number, stars: number | null, licence: string | null): Promise<Signed> {
  const renter = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' });
  const car = await createTestCar(t.ctx, otherHost.user);
  for (let i = 0; i < trips; i++) {
    const done = await createTestBooking(t.ctx, car, renter.user, { start: `2029-0${i + 1}-01`, days: 2, status: 'completed' });
    if (stars !== null) {
      await t.ctx.db.insertInto('reviews').values({ booking_id: done.id, car_id: car.id, reviewer_id: otherHost.user.id, rating: stars, comment: 'Careful driver', direction: 'renter', subject_id: renter.user.id, hidden_until: null }).execute();
    }
  }
  if (licence) {
    await t.ctx.db.updateTable('users').set({ driver_licence_issued_on: licence }).where('id', '=', renter.user.id).execute();
  }
  return renter;
}

describe('the host sets instant booking for a car', () => {
  it('saves the whole set, answers it with the car, refuses bad values in words, and is 404 to another host', async () => {
    const car = await createTestCar(t.ctx, host.user);
    const details = expectOk<Car>(await t.app.inject({ method: 'GET', url: `/api/car/getCarDetails/${car.car_username}` }));
    expect(details.instant_booking).toEqual({ enabled: false, min_trips: 0, min_rating: null, min_licence_years: null });

    const saved = expectOk<Car>(await setInstant(host, car, { enabled: true, min_trips: 3, min_rating: 4.5, min_licence_years: 2 }));
    expect(saved.instant_booking).toEqual({ enabled: true, min_trips: 3, min_rating: 4.5, min_licence_years: 2 });
    const stored = await t.ctx.db.selectFrom('cars').select(['instant_booking', 'instant_min_trips', 'instant_min_rating_tenths', 'instant_min_licence_years']).where('id', '=', car.id).executeTakeFirstOrThrow();
    expect(stored).toEqual({ instant_booking: true, instant_min_trips: 3, instant_min_rating_tenths: 45, instant_min_licence_years: 2 });

    expectError(await setInstant(host, car, { enabled: true, min_trips: 51, min_rating: '', min_licence_years: '' }), 400, /Completed trips must be at most 50/);
    expectError(await setInstant(host, car, { enabled: true, min_trips: 0, min_rating: 4.55, min_licence_years: '' }), 400, /one decimal/);
    expectError(await setInstant(host, car, { enabled: true, min_trips: 0, min_rating: 5.5, min_licence_years: '' }), 400, /Rating must be at most 5/);
    expectError(await setInstant(host, car, { enabled: true, min_trips: 0, min_rating: '', min_licence_years: 0 }), 400, /Licence years must be at least 1/);
    expectError(await setInstant(otherHost, car, { enabled: false, min_trips: 0, min_rating: '', min_licence_years: '' }), 404, 'Car not found');

    // Empty requirements are none; an admin may set it too.
    const cleared = expectOk<Car>(await setInstant(admin, car, { enabled: true, min_trips: 0, min_rating: '', min_licence_years: '' }));
    expect(cleared.instant_booking).toEqual({ enabled: true, min_trips: 0, min_rating: null, min_licence_years: null });
  });
});

describe('a request for an instant car', () => {
  it('is an ordinary request while the platform has paused instant booking, and no card says Instant', async () => {
    expectOk<PlatformSettings>(await platform(false));
    const car = await createTestCar(t.ctx, host.user, { overrides: { instant_booking: true } });
    const renter = await renterWith(0, null, null);
    expect(expectOk<InstantEligibility>(await eligibility(renter, car))).toEqual({
      instant: false,
      unmet: [{ requirement: 'platform', message: 'Instant booking is paused on Karoo: every request waits for its host.' }],
    });
    expect(expectOk<Booking>(await request(renter, car, '2030-04-01', '2030-04-03'), 201).status).toBe('pending');
    expect((await cardsOf(host)).find((c) => c.car_username === car.car_username)?.badges).toEqual([]);
    // The filter matches nothing: no car offers instant booking while it is paused.
    expect(await cardsOf(host, '&instant=true')).toEqual([]);
  });

  describe('with the platform allowing it', () => {
    beforeAll(async () => {
      expectOk<PlatformSettings>(await platform(true));
    });
    afterAll(async () => {
      expectOk<PlatformSettings>(await platform(false));
    });

    it('is confirmed at once for a renter who meets every requirement, and waits for the host otherwise, saying what is missing', async () => {
      const car = await createTestCar(t.ctx, host.user, { overrides: { instant_booking: true, instant_min_trips: 2, instant_min_rating_tenths: 45, instant_min_licence_years: 3 } });
      const newcomer = await renterWith(0, null, null);
      const lowRated = await renterWith(2, 4, '2020-01-15');
      const seasoned = await renterWith(2, 5, '2027-03-10'); // held exactly 3 years today

      expect(expectOk<InstantEligibility>(await eligibility(newcomer, car))).toEqual({
        instant: false,
        unmet: [
          { requirement: 'trips', message: 'Needs 2 completed trips on Karoo; you have 0.' },
          { requirement: 'rating', message: 'Needs a rating from hosts of 4.5 or more; you have none yet.' },
          { requirement: 'licence', message: 'Needs a licence held 3 years or more: add its issue date to your profile.' },
        ],
      });
      expect(expectOk<InstantEligibility>(await eligibility(lowRated, car)).unmet).toEqual([{ requirement: 'rating', message: 'Needs a rating from hosts of 4.5 or more; yours is 4.' }]);
      expect(expectOk<InstantEligibility>(await eligibility(seasoned, car))).toEqual({ instant: true, unmet: [] });

      const waiting = expectOk<Booking>(await request(lowRated, car, '2030-04-01', '2030-04-03'), 201);
      expect(waiting).toMatchObject({ status: 'pending', confirmed_at: null });
      const instant = expectOk<Booking>(await request(seasoned, car, '2030-04-10', '2030-04-12'), 201);
      expect(instant).toMatchObject({ status: 'confirmed', host_response: 'Booking confirmed instantly' });
      expect(instant.confirmed_at).not.toBeNull();
    });

    it('reads the licence in whole years to the day: held 3 years today meets 3, one day short does not', async () => {
      const car = await createTestCar(t.ctx, host.user, { overrides: { instant_booking: true, instant_min_licence_years: 3 } });
      const onTheDay = await renterWith(0, null, '2027-03-10');
      const dayShort = await renterWith(0, null, '2027-03-11');
      expect(expectOk<InstantEligibility>(await eligibility(onTheDay, car)).instant).toBe(true);
      expect(expectOk<InstantEligibility>(await eligibility(dayShort, car)).unmet).toEqual([{ requirement: 'licence', message: 'Needs a licence held 3 years or more; yours, 2 years.' }]);
    });

    it('badges and filters exactly the cars whose host turned it on, on both browse engines', async () => {
      const fleet = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' });
      const instant = await createTestCar(t.ctx, fleet.user, { overrides: { instant_booking: true } });
      const ordinary = await createTestCar(t.ctx, fleet.user);
      await t.ctx.browseIndex.startLoading();
      for (const engine of ['on', 'off'] as const) {
        (t.ctx.env as { BROWSE_INDEX: 'on' | 'off' }).BROWSE_INDEX = engine;
        try {
          const all = await cardsOf(fleet);
          expect(Object.fromEntries(all.map((c) => [c.car_username, c.badges])), engine).toEqual({ [instant.car_username]: ['Instant'], [ordinary.car_username]: [] });
          expect((await cardsOf(fleet, '&instant=true')).map((c) => c.car_username), engine).toEqual([instant.car_username]);
          // The host turns it off: the next answer follows (the index hears the change).
          expectOk<Car>(await setInstant(fleet, instant, { enabled: false, min_trips: 0, min_rating: '', min_licence_years: '' }));
          expect(await cardsOf(fleet, '&instant=true'), engine).toEqual([]);
          expectOk<Car>(await setInstant(fleet, instant, { enabled: true, min_trips: 0, min_rating: '', min_licence_years: '' }));
        } finally {
          (t.ctx.env as { BROWSE_INDEX: 'on' | 'off' }).BROWSE_INDEX = 'on';
        }
      }
    });

    it("is 404 for a car the renter cannot see (not yet verified), and asks nothing of another renter's record", async () => {
      const unverified = await createTestCar(t.ctx, host.user, { verification_status: 'pending_verification', overrides: { instant_booking: true } });
      const renter = await renterWith(0, null, null);
      expectError(await eligibility(renter, unverified), 404, 'Car not found');
      expectError(await eligibility(renter, { car_username: 'no-such-car' }), 404, 'Car not found');
      expect((await t.app.inject({ method: 'GET', url: `/api/booking/instant/${unverified.car_username}` })).statusCode).toBe(401);
    });
  });
});

describe("the renter's licence issue date on the profile", () => {
  it('is saved, refused in the future, and locked once verified unless an admin changes it', async () => {
    const member = await createSignedInUser(t.app, t.ctx, { verification_status: 'pending_verification' });
    const update = (who: Signed, payload: Record<string, unknown>) => t.app.inject({ method: 'PUT', url: `/api/user/update/${member.user.id}`, headers: who.headers, payload });
    expect(expectOk<User>(await update(member, { driver_licence_issued_on: '2021-06-30' })).driver_licence_issued_on).toBe('2021-06-30');
    expectError(await update(member, { driver_licence_issued_on: '2030-03-11' }), 400, 'The licence issue date cannot be in the future.');
    expectError(await update(member, { driver_licence_issued_on: '2021-02-30' }), 400, /real date/);
    await t.ctx.db.updateTable('users').set({ verification_status: 'verified' }).where('id', '=', member.user.id).execute();
    expectError(await update(member, { driver_licence_issued_on: '2019-06-30' }), 403);
    expect(expectOk<User>(await update(admin, { driver_licence_issued_on: '2019-06-30' })).driver_licence_issued_on).toBe('2019-06-30');
  });
});
