// Trip rules and long-trip discounts per car (issue 23, decision 048), through the routes: the host
// sets them (validated like the panel), booking creation refuses each rule at its edge with a
// message naming it, and a discounted trip is priced by the shared function exactly as the web
// prices it, stored with its discount, charged and shared in the ledger from the discounted price,
// and its late cancellation fee is a day of the discounted price.
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  calculatePrice,
  cancellationOutcome,
  DEFAULT_SETTINGS,
  DEFAULT_TRIP_RULES,
  type Booking,
  type CancellationQuote,
  type Car,
  type PaymentSession,
  type UpdateTripRulesBody,
} from '@karoo/shared';
import { sumBookingMoney } from '../src/modules/ledger';
import { createSignedInUser, createTestApp, expectError, expectOk, rememberedSession, type TestApp } from './helpers';
import { createTestCar, INSURANCE_STANDARD, PICKUP_AIRPORT, PICKUP_HOME } from './helpers/vehicles';

type Signed = Awaited<ReturnType<typeof createSignedInUser>>;

let t: TestApp;
let host: Signed;
let renter: Signed;
let stranger: Signed;

// 10:00 in Johannesburg on Sunday 10 March 2030.
const NOW = '2030-03-10T08:00:00Z';
const MINUTE = 60_000;

beforeAll(async () => {
  t = await createTestApp({ env: { BROWSE_CACHE_MS: '0' } });
  t.clock.set(NOW);
  host = await rememberedSession(t.app, await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' }));
  renter = await rememberedSession(t.app, await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' }));
  stranger = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' });
});
afterAll(async () => {
  await t?.close();
});

const rules = (changes: Partial<Record<keyof UpdateTripRulesBody, unknown>> = {}) => ({ ...DEFAULT_TRIP_RULES, ...changes });
const setRules = (carId: string, body: Record<string, unknown>, headers = host.headers) =>
  t.app.inject({ method: 'PATCH', url: `/api/car/updateTripRules/${carId}`, headers, payload: body });

async function carWith(changes: Partial<Record<keyof UpdateTripRulesBody, unknown>>, price = 500) {
  const car = await createTestCar(t.ctx, host.user, { price });
  expectOk<Car>(await setRules(car.id, rules(changes)));
  return car;
}

const create = (payload: Record<string, unknown>, headers = renter.headers) => t.app.inject({ method: 'POST', url: '/api/booking/create', headers, payload });
const daily = (car: { car_username: string }, start: string, end: string, startTime = '09:00', endTime = '17:00') => ({
  car_username: car.car_username,
  start_date: start,
  end_date: end,
  start_time: startTime,
  end_time: endTime,
  is_hourly_booking: false,
});
const hourly = (car: { car_username: string }, date: string, from: string, to: string) => ({
  car_username: car.car_username,
  start_date: date,
  end_date: date,
  start_time: from,
  end_time: to,
  is_hourly_booking: true,
});

describe('setting the rules', () => {
  it('a car answers the defaults until its host changes them; the host sets the whole set', async () => {
    t.clock.set(NOW);
    const car = await createTestCar(t.ctx, host.user);
    const before = expectOk<Car>(await t.app.inject({ method: 'GET', url: `/api/car/getCarDetails/${car.car_username}` }));
    expect(before.trip_rules).toEqual(DEFAULT_TRIP_RULES);
    const wanted = rules({ min_days: 2, max_days: 14, advance_notice_hours: 24, booking_window_months: 3, weekly_discount_percent: 10, monthly_discount_percent: 20 });
    const after = expectOk<Car>(await setRules(car.id, wanted));
    expect(after.trip_rules).toEqual(wanted);
    const row = await t.ctx.db.selectFrom('cars').selectAll().where('id', '=', car.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ min_trip_days: 2, max_trip_days: 14, advance_notice_hours: 24, booking_window_months: 3, weekly_discount_percent: 10, monthly_discount_percent: 20 });
    const shown = expectOk<Car>(await t.app.inject({ method: 'GET', url: `/api/car/getCarDetails/${car.car_username}` }));
    expect(shown.trip_rules).toEqual(wanted);
  });

  it('refuses what the panel refuses, in its words; another host’s car is 404, nobody signed in 401', async () => {
    const car = await createTestCar(t.ctx, host.user);
    expectError(await setRules(car.id, rules({ min_days: 5, max_days: 3 })), 400, 'The maximum trip cannot be shorter than the minimum.');
    expectError(await setRules(car.id, rules({ min_hours: 6, max_hours: 2 })), 400, 'The maximum hours cannot be fewer than the minimum.');
    expectError(await setRules(car.id, rules({ weekly_discount_percent: 20, monthly_discount_percent: 10 })), 400, 'The monthly discount cannot be smaller than the weekly one.');
    expectError(await setRules(car.id, rules({ weekly_discount_percent: 51 })), 400, 'Weekly discount must be at most 50');
    expectError(await setRules(car.id, rules({ min_days: 0 })), 400, 'Minimum trip (days) must be at least 1');
    expectError(await setRules(car.id, rules({ advance_notice_hours: 2.5 })), 400, 'Advance notice (hours) must be a whole number');
    expectError(await setRules(car.id, rules({ min_days: 90, booking_window_months: 1 })), 400, 'The booking window is shorter than the minimum trip.');
    expectError(await setRules(car.id, rules(), stranger.headers), 404, 'Car not found');
    expectError(await t.app.inject({ method: 'PATCH', url: `/api/car/updateTripRules/${car.id}`, payload: rules() }), 401, 'Authentication required. Please sign in.');
    // A monthly discount of 0 (not offered) may sit beside a weekly one.
    expectOk<Car>(await setRules(car.id, rules({ weekly_discount_percent: 15, monthly_discount_percent: 0 })));
  });
});

describe('booking creation keeps each rule, at its edge', () => {
  it('advance notice: exactly the notice is accepted, one minute less is refused (daily)', async () => {
    t.clock.set(NOW);
    const car = await carWith({ advance_notice_hours: 24 });
    // Now is 10:00 on the 10th: a pickup at 09:59 on the 11th is 23 h 59 min away.
    expectError(await create(daily(car, '2030-03-11', '2030-03-13', '09:59')), 400, "This car needs 1 day's notice.");
    expectOk<Booking>(await create(daily(car, '2030-03-11', '2030-03-13', '10:00')), 201);
  });

  it('advance notice: hourly, 3 hours', async () => {
    t.clock.set(NOW);
    const car = await carWith({ advance_notice_hours: 3 });
    expectError(await create(hourly(car, '2030-03-10', '12:59', '15:00')), 400, "This car needs 3 hours' notice.");
    expectOk<Booking>(await create(hourly(car, '2030-03-10', '13:00', '15:00')), 201);
    // One minute later the same pickup is too soon.
    t.clock.set(new Date(new Date(NOW).getTime() + 4 * 60 * MINUTE + MINUTE));
    expectError(await create(hourly(car, '2030-03-10', '17:00', '18:00')), 400, "This car needs 3 hours' notice.");
    t.clock.set(NOW);
  });

  it('minimum and maximum trip, in days: exactly each is accepted', async () => {
    t.clock.set(NOW);
    const car = await carWith({ min_days: 2, max_days: 14 });
    expectError(await create(daily(car, '2030-03-20', '2030-03-21')), 400, 'Minimum trip: 2 days.');
    expectError(await create(daily(car, '2030-03-20', '2030-03-20')), 400, 'Minimum trip: 2 days.');
    expectOk<Booking>(await create(daily(car, '2030-03-20', '2030-03-22')), 201);
    expectError(await create(daily(car, '2030-04-01', '2030-04-16')), 400, 'Maximum trip: 14 days.');
    const longest = expectOk<Booking>(await create(daily(car, '2030-04-01', '2030-04-15')), 201);
    expect(longest.duration_days).toBe(14);
  });

  it('minimum and maximum hourly trip, in hours', async () => {
    t.clock.set(NOW);
    const car = await carWith({ min_hours: 2, max_hours: 4 });
    expectError(await create(hourly(car, '2030-03-20', '09:00', '10:00')), 400, 'Minimum hourly trip: 2 hours.');
    expectError(await create(hourly(car, '2030-03-20', '09:00', '13:01')), 400, 'Maximum hourly trip: 4 hours.');
    expectOk<Booking>(await create(hourly(car, '2030-03-20', '09:00', '11:00')), 201);
    expectOk<Booking>(await create(hourly(car, '2030-03-21', '09:00', '13:00')), 201);
  });

  it('how far ahead: a trip may end on the window’s last day, not the day after', async () => {
    t.clock.set(NOW);
    const car = await carWith({ booking_window_months: 3 });
    expectError(await create(daily(car, '2030-06-08', '2030-06-11')), 400, 'This car can be booked at most 3 months ahead.');
    expectOk<Booking>(await create(daily(car, '2030-06-08', '2030-06-10')), 201);
  });

  it('a car with the default rules books as before: a one-day trip today, and a long one', async () => {
    t.clock.set(NOW);
    const car = await createTestCar(t.ctx, host.user);
    expectOk<Booking>(await create(daily(car, '2030-03-10', '2030-03-10', '12:00', '20:00')), 201);
    expectOk<Booking>(await create(daily(car, '2030-05-01', '2030-05-30')), 201);
  });
});

describe('long-trip discounts', () => {
  it('8 days at R500 with 10% weekly: the discount is a line of the stored price and every share is taken after it', async () => {
    t.clock.set(NOW);
    const car = await carWith({ weekly_discount_percent: 10, monthly_discount_percent: 20 });
    const booking = expectOk<Booking>(await create(daily(car, '2030-03-20', '2030-03-28')), 201);
    expect(booking).toMatchObject({ duration_days: 8, subtotal: 3600, discount: 400, discount_rate: 10, service_fee: 360, total_price: 3960 });
    // Host earnings: 75% of the discounted rental.
    expect(booking.car_owner_earnings).toBe(2700);
    const row = await t.ctx.db.selectFrom('bookings').select(['discount_cents', 'discount_rate', 'subtotal_cents', 'total_price_cents']).where('id', '=', booking.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ discount_cents: 40000, discount_rate: 10, subtotal_cents: 360000, total_price_cents: 396000 });
    // 28 days: the monthly discount; 6 days: none.
    const month = expectOk<Booking>(await create(daily(car, '2030-04-01', '2030-04-29')), 201);
    expect(month).toMatchObject({ duration_days: 28, discount: 2800, discount_rate: 20, subtotal: 11200 });
    const short = expectOk<Booking>(await create(daily(car, '2030-05-01', '2030-05-07')), 201);
    expect(short).toMatchObject({ duration_days: 6, discount: 0, discount_rate: 0, subtotal: 3000 });
  });

  it('priced identically by the web (the shared function on the car the API answers) and the server, over random trips', async () => {
    t.clock.set(NOW);
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          price: fc.integer({ min: 10_000, max: 500_000 }).map((c) => c / 100),
          // Up to the settings' maxRentalDays (30): the monthly discount starts at 28.
          days: fc.integer({ min: 1, max: DEFAULT_SETTINGS.maxRentalDays }),
          hourly: fc.boolean(),
          hours: fc.integer({ min: 1, max: 12 }),
          weekly: fc.integer({ min: 0, max: 50 }),
          monthlyExtra: fc.option(fc.integer({ min: 0, max: 50 }), { nil: null }),
          pickup: fc.constantFrom(null, PICKUP_HOME.id, PICKUP_AIRPORT.id),
          insurance: fc.boolean(),
        }),
        async (trip) => {
          run += 1;
          const monthly = trip.monthlyExtra === null ? 0 : Math.min(50, trip.weekly + trip.monthlyExtra);
          const car = await carWith({ weekly_discount_percent: trip.weekly, monthly_discount_percent: monthly }, trip.price);
          const shown = expectOk<Car>(await t.app.inject({ method: 'GET', url: `/api/car/getCarDetails/${car.car_username}` }));
          const start = '2030-04-01';
          const end = new Date(Date.UTC(2030, 3, 1 + trip.days)).toISOString().slice(0, 10);
          // The trip starts at one of the pickup location's times (decision 059): the airport's 07:00, the home's 09:00.
          const from = trip.pickup === PICKUP_AIRPORT.id ? 7 : 9;
          const at = (hour: number) => `${String(hour).padStart(2, '0')}:00`;
          const body = trip.hourly ? hourly(car, start, at(from), at(from + trip.hours)) : daily(car, start, end, at(from));
          const booking = expectOk<Booking>(
            await create({ ...body, pickup_option: trip.pickup ?? undefined, insurance_option: trip.insurance ? INSURANCE_STANDARD.id : undefined }),
            201,
          );
          const pickup = shown.pickup_options.find((o) => o.id === trip.pickup);
          const web = calculatePrice({
            dailyPrice: shown.car_rent_price,
            isHourly: trip.hourly,
            days: trip.hourly ? 1 : trip.days,
            hours: trip.hourly ? trip.hours : 0,
            pickupFee: pickup?.additional_fee ?? 0,
            insuranceDailyRate: trip.insurance ? shown.insurance_options[0]!.daily_rate : 0,
            settings: DEFAULT_SETTINGS,
            discounts: shown.trip_rules,
          });
          expect({
            subtotal: booking.subtotal,
            discount: booking.discount,
            discount_rate: booking.discount_rate,
            service_fee: booking.service_fee,
            insurance_fee: booking.insurance_fee,
            pickup_fee: booking.pickup_fee,
            total_price: booking.total_price,
            car_owner_earnings: booking.car_owner_earnings,
            app_fee: booking.app_fee,
          }).toEqual({
            subtotal: web.subtotal,
            discount: web.discount,
            discount_rate: web.discountRate,
            service_fee: web.serviceFee,
            insurance_fee: web.insuranceFee,
            pickup_fee: web.pickupFee,
            total_price: web.total,
            car_owner_earnings: web.carOwnerEarnings,
            app_fee: web.appFee,
          });
          expect(web.cents.subtotal + web.cents.discount).toBe(web.cents.rental);
          if (trip.hourly || trip.days < 7) expect(booking.discount).toBe(0);
        },
      ),
      { numRuns: 25, seed: 48 },
    );
    expect(run).toBe(25);
  }, 120_000);

  it('the charge of a discounted trip balances in the ledger, and a late cancellation costs a day of the discounted price', async () => {
    t.clock.set(NOW);
    const car = await carWith({ weekly_discount_percent: 10 });
    const booking = expectOk<Booking>(await create(daily(car, '2030-03-20', '2030-03-28')), 201);
    expectOk(await t.app.inject({ method: 'PATCH', url: `/api/booking/approve/${booking.id}`, headers: host.headers }));
    const session = expectOk<PaymentSession>(await t.app.inject({ method: 'POST', url: `/api/booking/${booking.id}/payment-session`, headers: renter.headers }));
    // The card is charged the trip and its deposit (decision 064: the default for the car's value).
    expect(session.amount).toBe(396_000 + booking.deposit * 100);
    await t.app.inject({
      method: 'POST',
      url: '/api/payments/sandbox/charge',
      headers: renter.headers,
      payload: { reference: session.reference, card_number: '4084084084084081', expiry: '12/39', cvv: '123' },
    });
    const paid = expectOk<Booking>(await t.app.inject({ method: 'GET', url: `/api/booking/${booking.id}`, headers: renter.headers }));
    expect(paid.status).toBe('active');
    const entries = await t.ctx.db.selectFrom('ledger_entries').selectAll().where('booking_id', '=', booking.id).execute();
    const m = sumBookingMoney(entries);
    expect(m.chargedCents).toBe(396_000);
    expect(m.chargedCents).toBe(m.refundedCents + m.refundPendingCents + m.refundFailedCents + m.hostShareCents + m.platformShareCents);
    expect(m.hostShareCents).toBe(270_000);
    // The receipt's rental line is the discounted rental, and says the discount it was priced with.
    const receipt = await t.app.inject({ method: 'GET', url: `/api/booking/${booking.id}/receipt.pdf`, headers: renter.headers });
    expect(receipt.statusCode).toBe(200);
    const text = execFileSync('pdftotext', ['-layout', '-', '-'], { input: receipt.rawPayload }).toString('utf8').replace(/\u00a0/g, ' ');
    expect(text).toMatch(/Rental \(8 days\)\s+R 3 600/);
    expect(text).toContain('After the weekly discount (10%): R 400 off the rental');

    // Ten hours before the pickup (09:00 on the 20th): a late cancellation of an 8-day trip costs
    // one day's average of the discounted rental, R 3 600 / 8 = R 450 (not the R 500 daily price).
    t.clock.set('2030-03-19T21:00:00Z');
    const quote = expectOk<CancellationQuote>(await t.app.inject({ method: 'GET', url: `/api/booking/${booking.id}/cancellation`, headers: renter.headers }));
    const expected = cancellationOutcome({
      trip: { isHourly: false, startDate: '2030-03-20', startTime: '09:00', durationDays: 8, subtotalCents: 360_000, totalCents: 396_000, hostFeeRate: 25, paidAt: new Date(paid.paid_at!) },
      actor: 'renter',
      now: t.clock.now(),
    });
    expect(expected.feeCents).toBe(45_000);
    expect(quote).toMatchObject({ rule: 'renter_late', fee: 450, refund: 3510 });
    const cancelled = expectOk<Booking>(await t.app.inject({ method: 'PATCH', url: `/api/booking/${booking.id}/cancel`, headers: renter.headers, payload: { expected_refund: 3510 } }));
    expect(cancelled.status).toBe('cancelled');
    const after = sumBookingMoney(await t.ctx.db.selectFrom('ledger_entries').selectAll().where('booking_id', '=', booking.id).execute());
    expect(after.chargedCents + after.depositCents, 'the trip and its deposit: refunds include the deposit given back').toBe(after.refundedCents + after.refundPendingCents + after.refundFailedCents + after.hostShareCents + after.platformShareCents);
    t.clock.set(NOW);
  });
});
