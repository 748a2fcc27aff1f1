// Time, not days (issue 23, decision 047): a booking holds a time range (a daily trip from pickup to
// return, an hourly trip only its hours, both widened by the car's buffer), blocks hold what the host
// blocked, and one exclusion constraint (car_holds, migration 0028) refuses any two that share a
// minute, whoever writes them. Runs on PGlite and PostgreSQL; the two-connection race on PostgreSQL.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Booking, CalendarHold, CarAvailability, CarCalendar } from '@karoo/shared';
import { createSignedInUser, createTestApp, expectError, expectOk, testDbKind, type TestApp } from './helpers';
import { createTestBooking, createTestCar } from './helpers/vehicles';

type Signed = Awaited<ReturnType<typeof createSignedInUser>>;

let t: TestApp;
let host: Signed;
let renters: Signed[];
let stranger: Signed;

// 10:00 in Johannesburg on Sunday 10 March 2030.
const NOW = '2030-03-10T08:00:00Z';
const UNAVAILABLE = 'One or more selected dates are already booked or have pending requests. Please choose different dates.';

beforeAll(async () => {
  t = await createTestApp({ env: { BROWSE_CACHE_MS: '0' } });
  t.clock.set(NOW);
  host = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' });
  renters = [];
  for (let i = 0; i < 4; i++) renters.push(await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' }));
  stranger = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' });
});
afterAll(async () => {
  await t?.close();
});

const book = (renter: Signed, car: { car_username: string }, date: string, start_time: string, end_time: string, end_date = date) =>
  t.app.inject({
    method: 'POST',
    url: '/api/booking/create',
    headers: renter.headers,
    payload: { car_username: car.car_username, start_date: date, end_date, start_time, end_time, is_hourly_booking: true },
  });
const bookDaily = (renter: Signed, car: { car_username: string }, start_date: string, end_date: string, start_time = '09:00', end_time = '17:00') =>
  t.app.inject({
    method: 'POST',
    url: '/api/booking/create',
    headers: renter.headers,
    payload: { car_username: car.car_username, start_date, end_date, start_time, end_time, is_hourly_booking: false },
  });
const block = (who: Signed, car: { car_username: string }, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: `/api/car/${car.car_username}/blocks`, headers: who.headers, payload });
const availability = async (car: { car_username: string }) =>
  expectOk<CarAvailability[]>(await t.app.inject({ method: 'GET', url: `/api/car/${car.car_username}/availability` }));

describe('hourly trips hold only their hours', () => {
  it('accepts a morning and an afternoon trip on one day, and refuses one overlapping by one minute', async () => {
    const car = await createTestCar(t.ctx, host.user);
    const morning = expectOk<Booking>(await book(renters[0]!, car, '2030-03-12', '09:00', '12:00'), 201);
    expect(morning.is_hourly_booking).toBe(true);
    expectOk<Booking>(await book(renters[1]!, car, '2030-03-12', '12:00', '17:00'), 201);
    expectError(await book(renters[2]!, car, '2030-03-12', '11:59', '13:00'), 409, UNAVAILABLE);
    expectError(await book(renters[2]!, car, '2030-03-12', '06:00', '09:01'), 409, UNAVAILABLE);
    expectOk<Booking>(await book(renters[2]!, car, '2030-03-12', '06:00', '09:00'), 201);
    // A daily trip over that day meets them; one that returns as the morning trip starts does not.
    expectError(await bookDaily(renters[3]!, car, '2030-03-11', '2030-03-12', '09:00', '17:00'), 409, UNAVAILABLE);
    expectOk<Booking>(await bookDaily(renters[3]!, car, '2030-03-11', '2030-03-12', '09:00', '06:00'), 201);

    const held = await availability(car);
    expect(held.map((h) => [h.from, h.to, h.kind])).toEqual([
      ['2030-03-11T07:00:00.000Z', '2030-03-12T04:00:00.000Z', 'booking'],
      ['2030-03-12T04:00:00.000Z', '2030-03-12T07:00:00.000Z', 'booking'],
      ['2030-03-12T07:00:00.000Z', '2030-03-12T10:00:00.000Z', 'booking'],
      ['2030-03-12T10:00:00.000Z', '2030-03-12T15:00:00.000Z', 'booking'],
    ]);
    expect(held[1]).toMatchObject({ start_date: '2030-03-12', end_date: '2030-03-12', status: 'pending', is_hourly_booking: true });
  });

  it('an hourly trip across midnight holds from its pickup to its return the next day', async () => {
    const car = await createTestCar(t.ctx, host.user);
    expectOk<Booking>(await book(renters[0]!, car, '2030-03-13', '20:00', '08:00', '2030-03-14'), 201);
    expectError(await book(renters[1]!, car, '2030-03-14', '07:59', '10:00'), 409, UNAVAILABLE);
    expectOk<Booking>(await book(renters[1]!, car, '2030-03-14', '08:00', '10:00'), 201);
  });
});

describe("the car's buffer", () => {
  it('widens every trip after its return: a trip touching the buffer is accepted, a minute into it refused', async () => {
    const car = await createTestCar(t.ctx, host.user);
    expectError(await t.app.inject({ method: 'PATCH', url: `/api/car/${car.car_username}/buffer`, headers: host.headers, payload: { buffer_minutes: 1441 } }), 400);
    expectError(await t.app.inject({ method: 'PATCH', url: `/api/car/${car.car_username}/buffer`, headers: stranger.headers, payload: { buffer_minutes: 60 } }), 404);
    const saved = expectOk<{ buffer_minutes: number }>(
      await t.app.inject({ method: 'PATCH', url: `/api/car/${car.car_username}/buffer`, headers: host.headers, payload: { buffer_minutes: 60 } }),
    );
    expect(saved.buffer_minutes).toBe(60);
    expectOk<Booking>(await book(renters[0]!, car, '2030-03-15', '09:00', '12:00'), 201);
    expectError(await book(renters[1]!, car, '2030-03-15', '12:59', '15:00'), 409, UNAVAILABLE);
    expectOk<Booking>(await book(renters[1]!, car, '2030-03-15', '13:00', '15:00'), 201);
    // Before a trip: this trip's own buffer must end by the next pickup (09:00): a return at 08:00 touches it.
    expectError(await book(renters[2]!, car, '2030-03-15', '06:00', '08:01'), 409, UNAVAILABLE);
    expectOk<Booking>(await book(renters[2]!, car, '2030-03-15', '06:00', '08:00'), 201);
    const held = await availability(car);
    expect(held.find((h) => h.from === '2030-03-15T07:00:00.000Z')).toMatchObject({ to: '2030-03-15T11:00:00.000Z', buffer_minutes: 60 });
    // The car page says the buffer, so the picker can show what the server accepts.
    const shown = expectOk<{ buffer_minutes: number }>(await t.app.inject({ method: 'GET', url: `/api/car/getCarDetails/${car.car_username}` }));
    expect(shown.buffer_minutes).toBe(60);
  });
});

describe('blocked periods', () => {
  it('refuses a block over a trip and a trip over a block; touching is fine; the renter sees the block without its note', async () => {
    const car = await createTestCar(t.ctx, host.user);
    expectOk<Booking>(await book(renters[0]!, car, '2030-03-20', '09:00', '12:00'), 201);
    // Over the trip (hours, then whole days).
    expectError(await block(host, car, { start_date: '2030-03-20', end_date: '2030-03-20', start_time: '11:00', end_time: '14:00' }), 409, /has a trip or a request at that time/);
    expectError(await block(host, car, { start_date: '2030-03-19', end_date: '2030-03-21' }), 409, /has a trip or a request at that time/);
    // Touching the trip's end: accepted, with a private note.
    const hours = expectOk<CalendarHold>(
      await block(host, car, { start_date: '2030-03-20', end_date: '2030-03-20', start_time: '12:00', end_time: '15:00', note: 'Service at the dealer' }),
      201,
    );
    expect(hours).toMatchObject({ kind: 'block', status: 'blocked', all_day: false, note: 'Service at the dealer', from: '2030-03-20T10:00:00.000Z', to: '2030-03-20T13:00:00.000Z' });
    // A weekend of whole days.
    const weekend = expectOk<CalendarHold>(await block(host, car, { start_date: '2030-03-23', end_date: '2030-03-24', note: 'Family trip' }), 201);
    expect(weekend).toMatchObject({ all_day: true, start_date: '2030-03-23', end_date: '2030-03-24', from: '2030-03-22T22:00:00.000Z', to: '2030-03-24T22:00:00.000Z' });
    expectError(await block(host, car, { start_date: '2030-03-24', end_date: '2030-03-25' }), 409, 'Part of that time is already blocked.');

    // Trips over blocks are refused with the same words as over a trip.
    expectError(await book(renters[1]!, car, '2030-03-20', '14:00', '16:00'), 409, UNAVAILABLE);
    expectError(await bookDaily(renters[1]!, car, '2030-03-22', '2030-03-23'), 409, UNAVAILABLE);
    expectOk<Booking>(await book(renters[1]!, car, '2030-03-20', '15:00', '17:00'), 201);
    expectOk<Booking>(await bookDaily(renters[2]!, car, '2030-03-21', '2030-03-22', '09:00', '22:00'), 201);

    // The renter (and anyone) sees blocked time as unavailable, never the note.
    const seen = await availability(car);
    const blocks = seen.filter((h) => h.kind === 'block');
    expect(blocks.map((h) => [h.status, h.start_date, h.end_date])).toEqual([
      ['blocked', '2030-03-20', '2030-03-20'],
      ['blocked', '2030-03-23', '2030-03-24'],
    ]);
    expect(JSON.stringify(seen)).not.toContain('Family trip');
    expect(JSON.stringify(seen)).not.toContain(renters[0]!.user.full_name);

    // The host's calendar: trips with their renters, blocks with their notes; someone else's car is 404.
    const calendar = expectOk<CarCalendar>(await t.app.inject({ method: 'GET', url: `/api/car/${car.car_username}/calendar?from=2030-03-01&to=2030-03-31`, headers: host.headers }));
    expect(calendar.holds.filter((h) => h.kind === 'block').map((h) => h.note)).toEqual(['Service at the dealer', 'Family trip']);
    expect(calendar.holds.find((h) => h.kind === 'booking')?.booking).toMatchObject({ renter_name: renters[0]!.user.full_name, start_time: '09:00', end_time: '12:00' });
    expectError(await t.app.inject({ method: 'GET', url: `/api/car/${car.car_username}/calendar`, headers: stranger.headers }), 404);
    expectError(await t.app.inject({ method: 'GET', url: `/api/car/${car.car_username}/calendar` }), 401);
    expectError(await block(stranger, car, { start_date: '2030-03-27', end_date: '2030-03-27' }), 404);

    // Unblock: the weekend is free again. A trip is not a block.
    const trip = calendar.holds.find((h) => h.kind === 'booking')!;
    expectError(await t.app.inject({ method: 'DELETE', url: `/api/car/${car.car_username}/blocks/${trip.id}`, headers: host.headers }), 404);
    expectError(await t.app.inject({ method: 'DELETE', url: `/api/car/${car.car_username}/blocks/${weekend.id}`, headers: stranger.headers }), 404);
    expectOk(await t.app.inject({ method: 'DELETE', url: `/api/car/${car.car_username}/blocks/${weekend.id}`, headers: host.headers }));
    expectError(await t.app.inject({ method: 'DELETE', url: `/api/car/${car.car_username}/blocks/${weekend.id}`, headers: host.headers }), 404);
    expectOk<Booking>(await bookDaily(renters[3]!, car, '2030-03-23', '2030-03-24'), 201);
  });

  it('checks what a block asks for: times in pairs, end after start, not in the past, a note of at most 500 characters', async () => {
    const car = await createTestCar(t.ctx, host.user);
    expectError(await block(host, car, { start_date: '2030-03-20', end_date: '2030-03-20', start_time: '10:00' }), 400);
    expectError(await block(host, car, { start_date: '2030-03-20', end_date: '2030-03-20', start_time: '10:00', end_time: '10:00' }), 400, 'The end of a block must be after its start.');
    expectError(await block(host, car, { start_date: '2030-03-21', end_date: '2030-03-20' }), 400, 'The end of a block must be after its start.');
    expectError(await block(host, car, { start_date: '2030-03-09', end_date: '2030-03-09' }), 400, 'That time has already passed: block today or later.');
    expectError(await block(host, car, { start_date: '2030-03-20', end_date: '2030-03-20', note: 'x'.repeat(501) }), 400);
    // Today is fine though it began at midnight.
    expectOk(await block(host, car, { start_date: '2030-03-10', end_date: '2030-03-10' }), 201);
  });

  it('the database refuses overlaps whoever writes them: a block over a booking, a booking over a block', async () => {
    const car = await createTestCar(t.ctx, host.user);
    await createTestBooking(t.ctx, car, renters[0]!.user, { start: '2030-04-01', end: '2030-04-03', status: 'confirmed' });
    const insertBlock = (from: string, to: string) =>
      sql`INSERT INTO car_holds (car_id, during, created_by) VALUES (${car.id}, tstzrange(${from}::timestamptz, ${to}::timestamptz, '[)'), ${host.user.id})`.execute(t.db);
    await expect(insertBlock('2030-04-03T14:00:00Z', '2030-04-03T16:00:00Z')).rejects.toMatchObject({ code: '23P01' });
    // The booking returns at 17:00 SAST (15:00 UTC): a block from then on is fine.
    await insertBlock('2030-04-03T15:00:00Z', '2030-04-04T22:00:00Z');
    await expect(createTestBooking(t.ctx, car, renters[1]!.user, { start: '2030-04-04', end: '2030-04-05' })).rejects.toMatchObject({ code: '23P01' });
    // Cancelling frees the booking's time at once; a rejected or cancelled booking never holds.
    await sql`UPDATE bookings SET status = 'cancelled', cancelled_at = now() WHERE car_id = ${car.id}`.execute(t.db);
    await insertBlock('2030-04-02T08:00:00Z', '2030-04-02T10:00:00Z');
    await createTestBooking(t.ctx, car, renters[1]!.user, { start: '2030-04-01', end: '2030-04-02', status: 'rejected' });
  });

  it('a block and a booking racing for the same hours: exactly one wins, ten times over', async () => {
    const car = await createTestCar(t.ctx, host.user);
    for (let day = 1; day <= 10; day++) {
      const date = `2030-05-${String(day).padStart(2, '0')}`;
      const [blocked, booked] = await Promise.all([
        block(host, car, { start_date: date, end_date: date, start_time: '10:00', end_time: '14:00' }),
        book(renters[day % renters.length]!, car, date, '12:00', '16:00'),
      ]);
      expect([blocked.statusCode, booked.statusCode].sort(), `${date}: ${blocked.body} ${booked.body}`).toEqual([201, 409]);
    }
    const rows = await t.db.selectFrom('car_holds').select('id').where('car_id', '=', car.id).execute();
    expect(rows).toHaveLength(10);
  });

  it.runIf(testDbKind === 'postgres')('on two connections, a block waits for an uncommitted booking and then is refused by the constraint', async () => {
    const car = await createTestCar(t.ctx, host.user);
    const renter = renters[0]!.user;
    let releaseBooking!: () => void;
    const bookingMayCommit = new Promise<void>((resolve) => (releaseBooking = resolve));
    let bookingInserted!: () => void;
    const inserted = new Promise<void>((resolve) => (bookingInserted = resolve));
    const bookingTx = t.db.transaction().execute(async (tx) => {
      await createTestBooking({ ...t.ctx, db: tx } as typeof t.ctx, car, renter, { start: '2030-06-01', end: '2030-06-02', status: 'confirmed' });
      bookingInserted();
      await bookingMayCommit;
    });
    await inserted;
    let blockSettled = false;
    const blockTx = t.db
      .transaction()
      .execute((tx) =>
        sql`INSERT INTO car_holds (car_id, during, created_by) VALUES (${car.id}, tstzrange('2030-06-01T12:00:00Z', '2030-06-01T14:00:00Z', '[)'), ${host.user.id})`.execute(tx),
      )
      .finally(() => (blockSettled = true));
    // Its outcome is taken at once, so its refusal (which may come before the booking's commit is
    // awaited below) is never an unhandled rejection.
    const blockOutcome = blockTx.then(
      () => null,
      (error: unknown) => error,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(blockSettled, 'the block waits for the booking to commit or roll back').toBe(false);
    releaseBooking();
    await bookingTx;
    expect(await blockOutcome).toMatchObject({ code: '23P01' });
  });
});

describe('browse: the "available" filter', () => {
  it('leaves out a car whose window meets a block or a trip, with the buffer; keeps it when the trip leaves time', async () => {
    const blocked = await createTestCar(t.ctx, host.user, { make: 'Kiawindow' });
    const morning = await createTestCar(t.ctx, host.user, { make: 'Kiawindow' });
    const early = await createTestCar(t.ctx, host.user, { make: 'Kiawindow' });
    const buffered = await createTestCar(t.ctx, host.user, { make: 'Kiawindow', overrides: { buffer_minutes: 120 } });
    expectOk(await block(host, blocked, { start_date: '2030-07-06', end_date: '2030-07-07' }), 201);
    expectOk<Booking>(await book(renters[0]!, morning, '2030-07-06', '06:00', '09:00'), 201);
    expectOk<Booking>(await book(renters[0]!, early, '2030-07-05', '06:00', '08:00'), 201);
    // 06:00-08:00 on the 8th, then two hours' buffer: held to 10:00.
    expectOk<Booking>(await book(renters[1]!, buffered, '2030-07-08', '06:00', '08:00'), 201);
    const listed = async (start: string, end: string) => {
      const cars = expectOk<{ id: string }[]>(await t.app.inject({ method: 'GET', url: `/api/car/getCarList?search=Kiawindow&startDate=${start}&endDate=${end}&limit=48` }));
      return [blocked, morning, early, buffered].map((c) => cars.some((x) => x.id === c.id));
    };
    // A daily window is a trip from 09:00 on its first day to 17:00 on its last, plus the car's buffer.
    expect(await listed('2030-07-06', '2030-07-07')).toEqual([false, true, true, true]);
    expect(await listed('2030-07-05', '2030-07-06')).toEqual([false, false, true, true]);
    expect(await listed('2030-07-04', '2030-07-05')).toEqual([true, true, false, true]);
    expect(await listed('2030-07-08', '2030-07-09')).toEqual([true, true, true, false]);
    // And booking agrees with the list: the morning car from 09:00 on the 6th, not the buffered one from 09:00 on the 8th.
    expectOk<Booking>(await bookDaily(renters[2]!, morning, '2030-07-06', '2030-07-07'), 201);
    expectError(await bookDaily(renters[2]!, buffered, '2030-07-08', '2030-07-09'), 409, UNAVAILABLE);
  });
});

describe('migration 0028: existing bookings become ranges', () => {
  it('keeps every accepted booking valid and every held day held', async () => {
    const { up, down } = await import('../src/db/migrations/0028-time-ranges-and-blocks');
    const car = await createTestCar(t.ctx, host.user);
    const other = await createTestCar(t.ctx, host.user);
    // The tests above left same-day trips that the old day-based constraint would not take back: they end here.
    await sql`UPDATE bookings SET status = 'cancelled', cancelled_at = now() WHERE status IN ('pending', 'confirmed', 'active')`.execute(t.db);
    await t.db.deleteFrom('car_holds').execute();
    // Rows as they were before: days, and text times.
    await down(t.db as never);
    const old = (c: { id: string }, start: string, end: string, times: [string, string], status: string, hourly = false) =>
      sql`INSERT INTO bookings (booking_number, car_id, renter_id, owner_id, start_date, end_date, start_time, end_time, is_hourly_booking,
          duration_days, duration_hours, status, subtotal_cents, service_fee_cents, total_price_cents, service_fee_rate, commission_rate,
          car_owner_earnings_cents, app_fee_cents)
        VALUES (${`KM${Math.random().toString(36).slice(2, 10).toUpperCase()}`}, ${c.id}, ${renters[0]!.user.id}, ${host.user.id}, ${start}, ${end},
          ${times[0]}, ${times[1]}, ${hourly}, 1, ${hourly ? 3 : null}, ${status}, 100, 10, 110, 10, 15, 85, 25)`.execute(t.db);
    await old(car, '2030-08-01', '2030-08-03', ['09:00', '17:00'], 'confirmed');
    await old(car, '2030-08-04', '2030-08-04', ['17:00', '09:00'], 'active'); // one day, return "before" pickup: the rest of that day
    await old(car, '2030-08-05', '2030-08-06', ['20:00', '08:00'], 'pending', true); // hourly across midnight
    await old(car, '2030-08-07', '2030-08-07', ['10:00', '13:00'], 'pending', true);
    await old(car, '2030-08-01', '2030-08-07', ['09:00', '17:00'], 'cancelled'); // held nothing, holds nothing
    await old(other, '2030-08-03', '2030-08-04', ['06:00', '22:00'], 'completed');
    await up(t.db as never);

    const rows = await sql<{ start_date: string; end_date: string; status: string; from: Date; to: Date; holds: boolean }>`
      SELECT b.start_date::text AS start_date, b.end_date::text AS end_date, b.status, lower(b.held) AS "from", upper(b.held) AS "to",
        EXISTS (SELECT 1 FROM car_holds h WHERE h.booking_id = b.id AND h.during = b.held) AS holds
      FROM bookings b WHERE b.car_id IN (${car.id}, ${other.id}) ORDER BY b.start_date, b.status`.execute(t.db);
    expect(rows.rows).toHaveLength(6);
    for (const row of rows.rows) {
      const from = new Date(row.from).getTime();
      const to = new Date(row.to).getTime();
      expect(to, `${row.start_date} ${row.status}`).toBeGreaterThan(from);
      // A holding booking holds its range in car_holds; the others hold nothing.
      expect(row.holds, `${row.start_date} ${row.status}`).toBe(['pending', 'confirmed', 'active'].includes(row.status));
      // No held day becomes free: every day from start to end still meets the range.
      for (let day = row.start_date; day <= row.end_date; day = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)) {
        const dayFrom = Date.parse(`${day}T00:00:00+02:00`);
        expect(from < dayFrom + 86_400_000 && to > dayFrom, `${day} of ${row.start_date}-${row.end_date} ${row.status}`).toBe(true);
      }
    }
    expect(rows.rows.find((r) => r.status === 'active')).toMatchObject({ from: new Date('2030-08-04T15:00:00Z'), to: new Date('2030-08-04T22:00:00Z') });
    // And a trip inside what each accepted booking held is still refused; the hours it never used are free now.
    expectError(await bookDaily(renters[1]!, car, '2030-08-02', '2030-08-02', '12:00', '14:00'), 409, UNAVAILABLE);
    expectError(await book(renters[1]!, car, '2030-08-01', '08:00', '10:00'), 409, UNAVAILABLE);
    expectError(await book(renters[1]!, car, '2030-08-03', '16:00', '18:00'), 409, UNAVAILABLE);
    expectError(await book(renters[1]!, car, '2030-08-04', '18:00', '20:00'), 409, UNAVAILABLE);
    expectError(await book(renters[1]!, car, '2030-08-05', '21:00', '22:00'), 409, UNAVAILABLE);
    expectError(await book(renters[1]!, car, '2030-08-06', '07:00', '09:00'), 409, UNAVAILABLE);
    expectError(await book(renters[1]!, car, '2030-08-07', '12:00', '14:00'), 409, UNAVAILABLE);
    expectOk<Booking>(await book(renters[1]!, car, '2030-08-07', '13:00', '15:00'), 201);
  });
});
