// Booking creation (document 2 section 5; decisions.md section 5): every check of the detail page
// again on the server, in its order and words; the stored price is the shared pricing function's;
// and no two holding bookings of one car ever share a date, even under concurrency.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calculatePrice, DEFAULT_SETTINGS, type Booking, type Notification } from '@karoo/shared';
import { forgetSettings } from '../src/modules/settings/settings.service';
import { createSignedInUser, createTestApp, expectError, expectOk, testDbKind, type TestApp } from './helpers';
import { createTestBooking, createTestCar, INSURANCE_STANDARD, PICKUP_AIRPORT, PICKUP_HOME } from './helpers/vehicles';

type Signed = Awaited<ReturnType<typeof createSignedInUser>>;

let t: TestApp;
let admin: Signed;
let host: Signed;
let renter: Signed;
let unverified: Signed;
let stranger: Signed;

// 10:00 in Johannesburg on 10 March 2030.
const NOW = '2030-03-10T08:00:00Z';

beforeAll(async () => {
  t = await createTestApp({ env: { BROWSE_CACHE_MS: '0' } });
  t.clock.set(NOW);
  admin = await createSignedInUser(t.app, t.ctx, { role: 'admin', verification_status: 'verified' });
  host = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' });
  renter = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' });
  unverified = await createSignedInUser(t.app, t.ctx, { verification_status: 'pending_verification' });
  stranger = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' });
});
afterAll(async () => {
  await t?.close();
});

const M = {
  unavailable: 'One or more selected dates are already booked or have pending requests. Please choose different dates.',
  ownCar: 'You cannot book your own car.',
  verification: 'You must complete account verification before booking a car. Please upload your documents and wait for approval.',
  past: 'Start date cannot be in the past.',
  endBeforeStart: 'End date must be after start date.',
  missingTimes: 'Please select both pickup and return times for hourly booking.',
  spans: 'Hourly booking cannot span more than 1 day.',
  endTime: 'End time must be after start time.',
  underHour: 'Minimum booking duration is 1 hour.',
  over24: 'Hourly bookings cannot exceed 24 hours. Please use daily booking for longer rentals.',
};

function create(headers: Record<string, string>, payload: Record<string, unknown>) {
  return t.app.inject({ method: 'POST', url: '/api/booking/create', headers, payload });
}

const daily = (car: { car_username: string }, start: string, end: string, extra: Record<string, unknown> = {}) => ({
  car_username: car.car_username,
  start_date: start,
  end_date: end,
  start_time: '09:00',
  end_time: '17:00',
  is_hourly_booking: false,
  ...extra,
});

describe('booking rules, in document 2\u2019s order', () => {
  it('refuses dates held by a pending, confirmed or active booking first of all (409)', async () => {
    const car = await createTestCar(t.ctx, host.user);
    await createTestBooking(t.ctx, car, stranger.user, { start: '2030-03-20', end: '2030-03-22', status: 'pending' });
    await createTestBooking(t.ctx, car, stranger.user, { start: '2030-03-25', end: '2030-03-26', status: 'cancelled' });
    expectError(await create(renter.headers, daily(car, '2030-03-22', '2030-03-24')), 409, M.unavailable);
    expectError(await create(renter.headers, daily(car, '2030-03-18', '2030-03-20')), 409, M.unavailable);
    // It comes before the own-car and verification checks, as on the detail page.
    expectError(await create(host.headers, daily(car, '2030-03-21', '2030-03-21')), 409, M.unavailable);
    expectError(await create(unverified.headers, daily(car, '2030-03-19', '2030-03-21')), 409, M.unavailable);
    // A cancelled booking holds nothing; the days around the held ones are free.
    expectOk(await create(renter.headers, daily(car, '2030-03-24', '2030-03-26')), 201);
    expectOk(await create(renter.headers, daily(car, '2030-03-17', '2030-03-19')), 201);
  });

  it('then own car (403), then verification (403), then the dates', async () => {
    const car = await createTestCar(t.ctx, host.user);
    expectError(await create(host.headers, daily(car, '2030-03-01', '2030-02-27')), 403, M.ownCar);
    expectError(await create(unverified.headers, daily(car, '2030-03-01', '2030-02-27')), 403, M.verification);
    expectError(await create(renter.headers, daily(car, '2030-03-09', '2030-03-12')), 400, M.past);
    expectError(await create(renter.headers, daily(car, '2030-03-15', '2030-03-14')), 400, M.endBeforeStart);
    // Today is allowed, and a same-day rental is one day.
    const sameDay = expectOk<Booking>(await create(renter.headers, daily(car, '2030-03-10', '2030-03-10')), 201);
    expect(sameDay.duration_days).toBe(1);
  });

  it('applies the hourly rules', async () => {
    const car = await createTestCar(t.ctx, host.user);
    const hourly = (start: string, end: string, start_time: string | null, end_time: string | null) =>
      create(renter.headers, { car_username: car.car_username, start_date: start, end_date: end, start_time, end_time, is_hourly_booking: true });
    expectError(await hourly('2030-03-12', '2030-03-12', null, '12:00'), 400, M.missingTimes);
    expectError(await hourly('2030-03-12', '2030-03-12', '', ''), 400, M.missingTimes);
    expectError(await hourly('2030-03-12', '2030-03-14', '10:00', '09:00'), 400, M.spans);
    expectError(await hourly('2030-03-12', '2030-03-12', '12:00', '12:00'), 400, M.endTime);
    expectError(await hourly('2030-03-12', '2030-03-12', '12:00', '11:00'), 400, M.endTime);
    expectError(await hourly('2030-03-12', '2030-03-12', '12:00', '12:30'), 400, M.underHour);
    expectError(await hourly('2030-03-12', '2030-03-13', '10:00', '11:00'), 400, M.over24);
    expectError(await hourly('2030-03-12', '2030-03-12', '12:00', '25:00'), 400);
  });

  it('enforces the maximum rental length from the settings', async () => {
    const car = await createTestCar(t.ctx, host.user);
    expectOk(await t.app.inject({ method: 'PUT', url: '/api/settings', headers: admin.headers, payload: { maxRentalDays: 5 } }));
    try {
      expectError(await create(renter.headers, daily(car, '2030-04-01', '2030-04-07')), 400, 'Bookings cannot be longer than 5 days.');
      expectOk(await create(renter.headers, daily(car, '2030-04-01', '2030-04-06')), 201);
    } finally {
      expectOk(await t.app.inject({ method: 'PUT', url: '/api/settings', headers: admin.headers, payload: { maxRentalDays: 30 } }));
    }
    expectError(await create(renter.headers, daily(car, '2030-05-01', '2030-06-01')), 400, 'Bookings cannot be longer than 30 days.');
  });

  it('keeps pickup and return times between 06:00 and 22:00', async () => {
    const car = await createTestCar(t.ctx, host.user);
    expectError(await create(renter.headers, daily(car, '2030-04-10', '2030-04-11', { start_time: '05:30' })), 400, 'Pickup and return times must be between 06:00 and 22:00.');
  });

  it('only books listed cars, with options the car offers', async () => {
    const offline = await createTestCar(t.ctx, host.user, { status: 'offline' });
    const pending = await createTestCar(t.ctx, host.user, { verification_status: 'pending_verification' });
    const gone = await createTestCar(t.ctx, host.user, { deleted: true });
    for (const car of [offline, pending, gone]) expectError(await create(renter.headers, daily(car, '2030-04-01', '2030-04-02')), 404, 'Car not found');
    expectError(await create(renter.headers, daily({ car_username: 'no-such-car-1' }, '2030-04-01', '2030-04-02')), 404);
    const car = await createTestCar(t.ctx, host.user);
    expectError(await create(renter.headers, daily(car, '2030-04-01', '2030-04-02', { pickup_option: { id: 'pickup_elsewhere' } })), 400, 'The selected pickup location is not offered for this car.');
    expectError(await create(renter.headers, daily(car, '2030-04-01', '2030-04-02', { insurance_option: 'insurance_gold' })), 400, 'The selected insurance plan is not offered for this car.');
  });

  it('needs a sign-in and well-formed dates', async () => {
    const car = await createTestCar(t.ctx, host.user);
    expectError(await t.app.inject({ method: 'POST', url: '/api/booking/create', payload: daily(car, '2030-04-01', '2030-04-02') }), 401);
    expectError(await create(renter.headers, daily(car, '01/04/2030', '2030-04-02')), 400, 'Start date must be a date (YYYY-MM-DD)');
    expectError(await create(renter.headers, daily(car, '2030-02-30', '2030-03-02')), 400);
    expectError(await create(renter.headers, { start_date: '2030-04-01', end_date: '2030-04-02' }), 400, 'car_username is required');
  });
});

describe("the pickup location's times bind the pickup (decision 059)", () => {
  const HOME_TIMES = "Host's home hands over the car at 09:00, 13:00 or 17:00: choose one of these pickup times.";

  it('a daily trip from a location starts at one of its times; 10:00 and 18:00 are refused with the times named', async () => {
    const car = await createTestCar(t.ctx, host.user, { pickup_options: [PICKUP_HOME, PICKUP_AIRPORT] });
    for (const start_time of ['10:00', '18:00']) {
      const res = await create(renter.headers, daily(car, '2030-05-01', '2030-05-03', { start_time, pickup_option: PICKUP_HOME.id }));
      expectError(res, 400, HOME_TIMES);
      expect(res.json<{ errors: Record<string, string> }>().errors).toEqual({ start_time: 'Not a pickup time of this location' });
    }
    expectError(await create(renter.headers, daily(car, '2030-05-01', '2030-05-03', { start_time: '09:00', pickup_option: PICKUP_AIRPORT.id })), 400, 'Cape Town International Airport hands over the car at 07:00 or 19:00: choose one of these pickup times.');
    const booking = expectOk<Booking>(await create(renter.headers, daily(car, '2030-05-01', '2030-05-03', { start_time: '13:00', end_time: '18:00', pickup_option: PICKUP_HOME.id })), 201);
    // The return time is not bound.
    expect(booking).toMatchObject({ start_time: '13:00', end_time: '18:00', pickup_option: { id: PICKUP_HOME.id, available_times: ['09:00', '13:00', '17:00'] } });
  });

  it('an hourly trip too; without a time a daily trip starts at the location first time when 09:00 is not one', async () => {
    const car = await createTestCar(t.ctx, host.user, { pickup_options: [PICKUP_HOME, PICKUP_AIRPORT] });
    const hourly = (start_time: string, end_time: string) =>
      create(renter.headers, { car_username: car.car_username, start_date: '2030-05-10', end_date: '2030-05-10', start_time, end_time, is_hourly_booking: true, pickup_option: PICKUP_HOME.id });
    expectError(await hourly('10:00', '12:00'), 400, HOME_TIMES);
    expect(expectOk<Booking>(await hourly('13:00', '15:00'), 201)).toMatchObject({ start_time: '13:00', end_time: '15:00', is_hourly_booking: true });
    const untimed = expectOk<Booking>(await create(renter.headers, { car_username: car.car_username, start_date: '2030-05-20', end_date: '2030-05-21', pickup_option: PICKUP_AIRPORT.id }), 201);
    expect(untimed.start_time).toBe('07:00');
  });

  it('a trip without a pickup location starts at any time the booking rules allow', async () => {
    const car = await createTestCar(t.ctx, host.user, { pickup_options: [] });
    expect(expectOk<Booking>(await create(renter.headers, daily(car, '2030-05-01', '2030-05-03', { start_time: '10:00' })), 201).start_time).toBe('10:00');
  });
});

describe('a created booking', () => {
  it('is pending, priced by the server with the shared function (client figures ignored), and tells the host', async () => {
    const car = await createTestCar(t.ctx, host.user, { price: 455 });
    const booking = expectOk<Booking>(
      await create(
        renter.headers,
        daily(car, '2030-04-01', '2030-04-04', {
          start_time: '07:00',
          pickup_option: { id: PICKUP_AIRPORT.id, name: 'Airport', additional_fee: 0 },
          insurance_option: INSURANCE_STANDARD.id,
          total_price: 1,
          commission_rate: 0,
          status: 'confirmed',
          duration_days: 99,
          special_requirements: 'Child seat please',
        }),
      ),
      201,
    );
    const expected = calculatePrice({ dailyPrice: 455, isHourly: false, days: 3, hours: 0, pickupFee: 250, insuranceDailyRate: 85, settings: DEFAULT_SETTINGS });
    expect(booking).toMatchObject({
      status: 'pending',
      payment_status: 'unpaid',
      car_username: car.car_username,
      car_owner: host.user.username,
      user_username: renter.user.username,
      renter: { username: renter.user.username, full_name: renter.user.full_name },
      host: { username: host.user.username, full_name: host.user.full_name },
      start_date: '2030-04-01',
      end_date: '2030-04-04',
      pickup_date: '2030-04-01',
      return_date: '2030-04-04',
      booking_type: 'daily',
      duration_days: 3,
      duration_hours: null,
      subtotal: expected.subtotal,
      service_fee: expected.serviceFee,
      insurance_fee: expected.insuranceFee,
      pickup_fee: 250,
      total_price: expected.total,
      total_cost: expected.total,
      service_fee_rate: 10,
      commission_rate: 25,
      car_owner_earnings: expected.carOwnerEarnings,
      app_fee: expected.appFee,
      pickup_option: { id: PICKUP_AIRPORT.id, name: PICKUP_AIRPORT.name, price: 250, is_airport: true },
      insurance_option: { id: INSURANCE_STANDARD.id, price: 85, daily_rate: 85 },
      special_requirements: 'Child seat please',
    });
    expect(booking.total_price).toBe(1365 + 137 + 255 + 250);
    expect(booking.booking_id).toMatch(/^KR[A-Z0-9]{8}$/);

    const row = await t.db.selectFrom('bookings').selectAll().where('id', '=', booking.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ total_price_cents: expected.cents.total, car_owner_earnings_cents: expected.cents.carOwnerEarnings, app_fee_cents: expected.cents.appFee });
    const notes = expectOk<Notification[]>(await t.app.inject({ method: 'GET', url: '/api/notifications', headers: host.headers }));
    expect(notes[0]).toMatchObject({ type: 'booking_request', title: 'New booking request', link: '/my-bookings' });
    expect(notes[0]!.message).toContain(renter.user.full_name);
  });

  it('prices an hourly booking by the rounded-up hour, across midnight too', async () => {
    const car = await createTestCar(t.ctx, host.user, { price: 455 });
    const res = await create(renter.headers, {
      car_username: car.id,
      start_date: '2030-04-10',
      end_date: '2030-04-10',
      start_time: '09:00',
      end_time: '11:20',
      is_hourly_booking: true,
      insurance_option: INSURANCE_STANDARD,
    });
    const booking = expectOk<Booking>(res, 201);
    expect(res.json<{ message: string }>().message).toBe('Hourly Booking Request Sent!');
    const expected = calculatePrice({ dailyPrice: 455, isHourly: true, days: 1, hours: 3, insuranceDailyRate: 85, settings: DEFAULT_SETTINGS });
    expect(booking).toMatchObject({ booking_type: 'hourly', duration_hours: 3, subtotal: 138, insurance_fee: expected.insuranceFee, total_price: expected.total });
    const overnight = expectOk<Booking>(
      await create(renter.headers, { car_username: car.car_username, start_date: '2030-04-11', end_date: '2030-04-12', start_time: '20:00', end_time: '08:00', is_hourly_booking: true }),
      201,
    );
    expect(overnight.duration_hours).toBe(12);
  });

  it("uses the rates in the settings, and is confirmed at once when the platform allows instant booking and the car's host turned it on", async () => {
    const car = await createTestCar(t.ctx, host.user, { price: 1000, overrides: { instant_booking: true } });
    expectOk(
      await t.app.inject({
        method: 'PUT',
        url: '/api/settings',
        headers: admin.headers,
        payload: { platformCommission: 15, platform_fee: 20, business_rules: { instant_booking_enabled: true } },
      }),
    );
    try {
      const res = await create(renter.headers, daily(car, '2030-05-01', '2030-05-03'));
      const booking = expectOk<Booking>(res, 201);
      expect(booking).toMatchObject({ status: 'confirmed', subtotal: 2000, service_fee: 300, total_price: 2300, service_fee_rate: 15, commission_rate: 20, car_owner_earnings: 1600, app_fee: 700 });
      expect(booking.confirmed_at).not.toBeNull();
      const renterNotes = expectOk<Notification[]>(await t.app.inject({ method: 'GET', url: '/api/notifications', headers: renter.headers }));
      expect(renterNotes[0]).toMatchObject({ type: 'booking_confirmed' });
    } finally {
      expectOk(
        await t.app.inject({
          method: 'PUT',
          url: '/api/settings',
          headers: admin.headers,
          payload: { platformCommission: 10, platform_fee: 25, business_rules: { instant_booking_enabled: false } },
        }),
      );
    }
  });

  it('is visible to its renter, the owner and admins, and 404 to anyone else', async () => {
    const car = await createTestCar(t.ctx, host.user);
    const booking = expectOk<Booking>(await create(renter.headers, daily(car, '2030-06-01', '2030-06-02')), 201);
    for (const who of [renter, host, admin]) {
      expect(expectOk<Booking>(await t.app.inject({ method: 'GET', url: `/api/booking/${booking.id}`, headers: who.headers })).id).toBe(booking.id);
    }
    expect(expectOk<Booking>(await t.app.inject({ method: 'GET', url: `/api/booking/${booking.booking_id}`, headers: host.headers })).id).toBe(booking.id);
    expectError(await t.app.inject({ method: 'GET', url: `/api/booking/${booking.id}`, headers: stranger.headers }), 404, 'Booking not found');
    expectError(await t.app.inject({ method: 'GET', url: '/api/booking/not-a-booking', headers: renter.headers }), 404);
    expectError(await t.app.inject({ method: 'GET', url: `/api/booking/${booking.id}` }), 401);
  });

  it('lets an admin book on a verified user\u2019s behalf, with the same rules', async () => {
    const car = await createTestCar(t.ctx, host.user);
    const booking = expectOk<Booking>(await create(admin.headers, daily(car, '2030-07-01', '2030-07-03', { user_username: renter.user.username })), 201);
    expect(booking.user_username).toBe(renter.user.username);
    expectError(await create(admin.headers, daily(car, '2030-07-05', '2030-07-06', { user_username: unverified.user.username })), 403, M.verification);
    // Anyone else's user_username is ignored: they book for themselves.
    const own = expectOk<Booking>(await create(stranger.headers, daily(car, '2030-07-10', '2030-07-11', { user_username: renter.user.username })), 201);
    expect(own.user_username).toBe(stranger.user.username);
  });
});

describe('no double booking', () => {
  it('is enforced by the database itself (exclusion constraint)', async () => {
    const car = await createTestCar(t.ctx, host.user);
    await createTestBooking(t.ctx, car, renter.user, { start: '2030-08-01', end: '2030-08-05', status: 'confirmed' });
    await expect(createTestBooking(t.ctx, car, stranger.user, { start: '2030-08-05', end: '2030-08-06', status: 'pending' })).rejects.toMatchObject({ code: '23P01' });
    // Bookings that hold nothing may share dates.
    await createTestBooking(t.ctx, car, stranger.user, { start: '2030-08-02', end: '2030-08-03', status: 'rejected' });
    await createTestBooking(t.ctx, car, stranger.user, { start: '2030-08-02', end: '2030-08-03', status: 'cancelled' });
  });

  it.runIf(testDbKind === 'postgres')('lets exactly one of 20 concurrent requests for overlapping dates through', async () => {
    const car = await createTestCar(t.ctx, host.user);
    const renters = await Promise.all(Array.from({ length: 20 }, () => createSignedInUser(t.app, t.ctx, { verification_status: 'verified' })));
    forgetSettings(t.ctx);
    const results = await Promise.all(
      renters.map((r, i) => create(r.headers, daily(car, `2030-09-${String(10 + (i % 5)).padStart(2, '0')}`, `2030-09-${String(15 + (i % 5)).padStart(2, '0')}`))),
    );
    const statuses = results.map((r) => r.statusCode).sort();
    const others = results.filter((r) => r.statusCode !== 201 && r.statusCode !== 409).map((r) => `${r.statusCode} ${r.body}`);
    expect(others, 'answers other than 201 and 409').toEqual([]);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    for (const res of results.filter((r) => r.statusCode === 409)) expect(res.json<{ message: string }>().message).toBe(M.unavailable);
    const rows = await t.db.selectFrom('bookings').select('id').where('car_id', '=', car.id).execute();
    expect(rows).toHaveLength(1);
  }, 60_000); // 20 sign-ups (argon2) and 20 racing requests: slow on a loaded 2-core machine
});
