// The booking status machine (decisions.md section 5) as the server enforces it: each change by
// each party (renter, car owner, another user, admin), 403 for the wrong party, 404 for those who
// cannot see the booking, 409 for a change the machine forbids; the reads and their visibility;
// expiry on the test clock; completion counting the renter's trips; notifications and mail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDay, type Booking, type BookingStats, type Notification } from '@karoo/shared';
import { sql } from 'kysely';
import { inTransaction } from '../src/events/domain-events';
import { EXPIRY_CRON } from '../src/modules/bookings/booking-expiry.job';
import { expireOverdueBookings } from '../src/modules/bookings/bookings.service';
import { forgetSettings } from '../src/modules/settings/settings.service';
import { authHeader, createSignedInUser, createTestApp, expectError, expectOk, HOUR, login, type TestApp } from './helpers';
import { recordTestCharge } from './helpers/ledger';
import { createTestBooking, createTestCar } from './helpers/vehicles';
import type { CarRow } from '../src/db/schema';

type Signed = Awaited<ReturnType<typeof createSignedInUser>>;

let t: TestApp;
let admin: Signed;
let host: Signed;
let renter: Signed;
let stranger: Signed;
let car: CarRow;

// 10:00 in Johannesburg on 10 March 2030.
const NOW = '2030-03-10T08:00:00Z';
let nextStart = 0;
/** A fresh date window far enough ahead that nothing expires unless a test moves the clock. */
function freshStart(): string {
  nextStart += 3;
  const d = new Date(Date.UTC(2030, 3, 1 + nextStart));
  return d.toISOString().slice(0, 10);
}

beforeAll(async () => {
  t = await createTestApp({ env: { BROWSE_CACHE_MS: '0' } });
  t.clock.set(NOW);
  admin = await createSignedInUser(t.app, t.ctx, { role: 'admin', verification_status: 'verified' });
  host = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' });
  renter = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' });
  stranger = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' });
  car = await createTestCar(t.ctx, host.user);
});
afterAll(async () => {
  await t?.close();
});

const req = (method: 'GET' | 'PATCH' | 'PUT' | 'POST', url: string, headers: Record<string, string>, payload?: unknown) =>
  t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });

async function booking(status: Booking['status'] = 'pending', extra: { start?: string; payment_status?: 'paid' | 'unpaid' } = {}) {
  return createTestBooking(t.ctx, car, renter.user, { start: extra.start ?? freshStart(), days: 2, status, ...(extra.payment_status ? { payment_status: extra.payment_status } : {}) });
}

async function statusOf(id: string) {
  return (await t.db.selectFrom('bookings').selectAll().where('id', '=', id).executeTakeFirstOrThrow());
}

/** Fresh headers at the current test time (sessions last 24 hours on the test clock). */
async function signIn(who: Signed) {
  return authHeader(await login(t.app, who.user.username));
}

async function notificationsOf(headers: Record<string, string>) {
  return expectOk<Notification[]>(await req('GET', '/api/notifications', headers));
}

describe('accept and reject (owner or admin)', () => {
  it('the owner accepts a pending request: confirmed, default response, renter notified', async () => {
    const b = await booking();
    const res = await req('PATCH', `/api/booking/approve/${b.id}`, host.headers);
    const data = expectOk<Booking>(res);
    expect(res.json().message).toBe('Booking Confirmed');
    expect(data).toMatchObject({ status: 'confirmed', host_response: 'Booking approved by host', payment_status: 'unpaid' });
    expect(data.host_response_date).toBe(new Date(NOW).toISOString());
    expect(data.confirmed_at).toBe(new Date(NOW).toISOString());
    // Unpaid confirmed bookings expire 24 hours after acceptance (or at midnight after the start).
    expect(data.expires_at).toBe(new Date(Date.parse(NOW) + 24 * HOUR).toISOString());
    const [latest] = await notificationsOf(renter.headers);
    expect(latest).toMatchObject({ type: 'booking_confirmed', title: 'Booking accepted' });
  });

  it('an admin may accept or reject, with their own response', async () => {
    const a = await booking();
    expect(expectOk<Booking>(await req('PATCH', `/api/booking/approve/${a.booking_number}`, admin.headers, { host_response: 'See you soon' }))).toMatchObject({
      status: 'confirmed',
      host_response: 'See you soon',
    });
    const b = await booking();
    expect(expectOk<Booking>(await req('PATCH', `/api/booking/reject/${b.id}`, admin.headers))).toMatchObject({ status: 'rejected', host_response: 'Booking rejected by host' });
  });

  it('the owner rejects with a default message; the renter is told', async () => {
    const b = await booking();
    const data = expectOk<Booking>(await req('PATCH', `/api/booking/reject/${b.id}`, host.headers));
    expect(data).toMatchObject({ status: 'rejected', host_response: 'Booking rejected by host', expires_at: null });
    const [latest] = await notificationsOf(renter.headers);
    expect(latest).toMatchObject({ type: 'booking_rejected', title: 'Booking rejected' });
  });

  it('the renter may not accept or reject (403); another user cannot see it (404)', async () => {
    const b = await booking();
    expectError(await req('PATCH', `/api/booking/approve/${b.id}`, renter.headers), 403, 'Only the car owner or an administrator can do this.');
    expectError(await req('PATCH', `/api/booking/reject/${b.id}`, renter.headers), 403);
    expectError(await req('PATCH', `/api/booking/approve/${b.id}`, stranger.headers), 404, 'Booking not found');
    expectError(await req('PATCH', `/api/booking/reject/${b.id}`, stranger.headers), 404);
    expectError(await t.app.inject({ method: 'PATCH', url: `/api/booking/approve/${b.id}` }), 401);
    expect((await statusOf(b.id)).status).toBe('pending');
  });

  it('only a pending booking can be accepted or rejected (409)', async () => {
    for (const status of ['confirmed', 'active', 'completed', 'cancelled', 'rejected'] as const) {
      const b = await booking(status);
      const approve = expectError(await req('PATCH', `/api/booking/approve/${b.id}`, host.headers), 409);
      expect(approve.message).toMatch(status === 'confirmed' ? /already confirmed/ : new RegExp(`A ${status} booking cannot be accepted`));
      expectError(await req('PATCH', `/api/booking/reject/${b.id}`, admin.headers), 409);
      expect((await statusOf(b.id)).status).toBe(status);
    }
  });
});

describe('races', () => {
  it('accept and withdraw at the same moment: exactly one wins, the other gets 409', async () => {
    const b = await booking();
    const [approve, cancel] = await Promise.all([
      req('PATCH', `/api/booking/approve/${b.id}`, host.headers),
      req('PATCH', `/api/booking/${b.id}/cancel`, renter.headers),
    ]);
    const codes = [approve.statusCode, cancel.statusCode].sort();
    // Both may succeed one after the other (accept, then cancel before payment), never both refused.
    expect(codes[0]).toBe(200);
    expect([200, 409]).toContain(codes[1]);
    const final = (await statusOf(b.id)).status;
    if (codes[1] === 409) expect(final).toBe(approve.statusCode === 200 ? 'confirmed' : 'cancelled');
    else expect(final).toBe('cancelled');
  });
});

describe('cancel (renter, before payment)', () => {
  it('the renter withdraws a pending request; the host is told', async () => {
    const b = await booking();
    const res = await req('PATCH', `/api/booking/${b.id}/cancel`, renter.headers, { status: 'Cancelled' });
    expect(expectOk<Booking>(res)).toMatchObject({ status: 'cancelled', host_response: 'Booking cancelled by the renter' });
    expect(res.json().message).toBe('Booking Cancelled');
    expect((await statusOf(b.id)).cancelled_at).not.toBeNull();
    const [latest] = await notificationsOf(host.headers);
    expect(latest).toMatchObject({ type: 'booking_cancelled', title: 'Booking cancelled' });
  });

  it('the renter cancels a confirmed unpaid booking; an admin may cancel too', async () => {
    const a = await booking('confirmed');
    expect(expectOk<Booking>(await req('PATCH', `/api/booking/${a.id}/cancel`, renter.headers)).status).toBe('cancelled');
    const b = await booking('confirmed');
    expect(expectOk<Booking>(await req('PATCH', `/api/booking/${b.id}/cancel`, admin.headers)).status).toBe('cancelled');
  });

  it('the owner may not cancel (403), a stranger cannot see it (404)', async () => {
    const b = await booking('confirmed');
    expectError(await req('PATCH', `/api/booking/${b.id}/cancel`, host.headers), 403, 'Only the renter can cancel this booking.');
    expectError(await req('PATCH', `/api/booking/${b.id}/cancel`, stranger.headers), 404);
    expect((await statusOf(b.id)).status).toBe('confirmed');
  });

  it('paid, finished or closed bookings cannot be cancelled (409)', async () => {
    for (const status of ['active', 'completed', 'cancelled', 'rejected'] as const) {
      const b = await booking(status);
      expectError(await req('PATCH', `/api/booking/${b.id}/cancel`, renter.headers), 409);
      expect((await statusOf(b.id)).status).toBe(status);
    }
  });
});

describe('PATCH /booking/{id}/status and PUT /booking/update/{id}', () => {
  it('follow the machine and the caller\u2019s part', async () => {
    const b = await booking();
    expectError(await req('PATCH', `/api/booking/${b.id}/status`, renter.headers, { status: 'confirmed' }), 403);
    expectError(await req('PATCH', `/api/booking/${b.id}/status`, host.headers, { status: 'cancelled' }), 403);
    expectError(await req('PATCH', `/api/booking/${b.id}/status`, host.headers, { status: 'active' }), 409);
    expectError(await req('PATCH', `/api/booking/${b.id}/status`, host.headers, { status: 'completed' }), 409);
    expectError(await req('PATCH', `/api/booking/${b.id}/status`, stranger.headers, { status: 'confirmed' }), 404);
    expectError(await req('PATCH', `/api/booking/${b.id}/status`, host.headers, { status: 'paid' }), 400);
    expect(expectOk<Booking>(await req('PUT', `/api/booking/update/${b.id}`, host.headers, { status: 'Confirmed', host_response: 'Welcome' }))).toMatchObject({
      status: 'confirmed',
      host_response: 'Welcome',
    });
    // Payment is the only way to active, even for an admin.
    expectError(await req('PATCH', `/api/booking/${b.id}/status`, admin.headers, { status: 'active' }), 409, /payment is verified/);
    expect(expectOk<Booking>(await req('PATCH', `/api/booking/${b.id}/status`, renter.headers, { status: 'cancelled' })).status).toBe('cancelled');
    expectError(await req('PUT', `/api/booking/update/${b.id}`, admin.headers, { status: 'pending' }), 409);
  });

  it('completing an active, started booking goes through the return: trips count, the renter is invited to review', async () => {
    const before = await t.db.selectFrom('users').select('total_trips').where('id', '=', renter.user.id).executeTakeFirstOrThrow();
    const b = await booking('active', { start: '2030-03-09' });
    expectError(await req('PATCH', `/api/booking/${b.id}/status`, renter.headers, { status: 'completed' }), 403);
    const done = expectOk<Booking>(await req('PATCH', `/api/booking/${b.id}/status`, host.headers, { status: 'completed' }));
    expect(done).toMatchObject({ status: 'completed', payment_status: 'paid' });
    expect(done.completed_at).not.toBeNull();
    const after = await t.db.selectFrom('users').select('total_trips').where('id', '=', renter.user.id).executeTakeFirstOrThrow();
    expect(after.total_trips).toBe(before.total_trips + 1);
    const [latest] = await notificationsOf(renter.headers);
    expect(latest).toMatchObject({ type: 'trip_completed', title: 'Trip completed' });
    expect(latest!.message).toMatch(/review/);
  });

  it('PATCH /car/returnCar completes the active booking and counts the trip; force return too', async () => {
    const other = await createTestCar(t.ctx, host.user);
    const before = (await t.db.selectFrom('users').select('total_trips').where('id', '=', renter.user.id).executeTakeFirstOrThrow()).total_trips;
    const a = await createTestBooking(t.ctx, other, renter.user, { start: '2030-03-08', days: 3, status: 'active' });
    expectOk(await req('PATCH', `/api/car/returnCar/${other.car_username}`, host.headers, { condition_notes: 'Clean' }));
    expect((await statusOf(a.id)).status).toBe('completed');
    const b = await createTestBooking(t.ctx, other, renter.user, { start: '2030-03-10', days: 1, status: 'active' });
    expectOk(await req('PATCH', `/api/car/forceReturn/${other.car_username}`, admin.headers, { admin_action: true, reason: 'Overdue' }));
    expect((await statusOf(b.id)).status).toBe('completed');
    const after = (await t.db.selectFrom('users').select('total_trips').where('id', '=', renter.user.id).executeTakeFirstOrThrow()).total_trips;
    expect(after).toBe(before + 2);
  });
});

describe('reads and their visibility', () => {
  let own: CarRow;
  let mine: Awaited<ReturnType<typeof createTestBooking>>;
  let hosted: Awaited<ReturnType<typeof createTestBooking>>;
  let viewerA: Signed;
  let viewerB: Signed;

  beforeAll(async () => {
    viewerA = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' });
    viewerB = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' });
    own = await createTestCar(t.ctx, viewerA.user);
    hosted = await createTestBooking(t.ctx, own, viewerB.user, { start: '2030-05-01', status: 'pending' });
    mine = await createTestBooking(t.ctx, car, viewerA.user, { start: '2030-06-01', status: 'completed' });
    // Its charge and shares in the ledger, as a payment writes them: the stats' money is the ledger's.
    await recordTestCharge(t.ctx, mine);
  });

  it('getAll: own as renter or owner; admins all; nobody else sees them', async () => {
    const forA = expectOk<Booking[]>(await req('GET', '/api/booking/getAll', viewerA.headers)).map((b) => b.id);
    expect(forA.sort()).toEqual([hosted.id, mine.id].sort());
    const forB = expectOk<Booking[]>(await req('GET', '/api/booking/getAll', viewerB.headers)).map((b) => b.id);
    expect(forB).toEqual([hosted.id]);
    const forStranger = expectOk<Booking[]>(await req('GET', '/api/booking/getAll', stranger.headers)).map((b) => b.id);
    expect(forStranger).not.toContain(hosted.id);
    const forAdmin = expectOk<Booking[]>(await req('GET', '/api/booking/getAll', admin.headers)).map((b) => b.id);
    expect(forAdmin).toEqual(expect.arrayContaining([hosted.id, mine.id]));
    expectError(await t.app.inject({ method: 'GET', url: '/api/booking/getAll' }), 401);
  });

  it('the booking carries every field of document 3 section 3', async () => {
    const one = expectOk<Booking>(await req('GET', `/api/booking/${hosted.id}`, viewerA.headers));
    expect(one).toMatchObject({
      id: hosted.id,
      booking_id: hosted.booking_number,
      status: 'pending',
      car_username: own.car_username,
      car_owner: viewerA.user.username,
      user_username: viewerB.user.username,
      username: viewerB.user.username,
      renter: { full_name: viewerB.user.full_name },
      car: { car_make: own.car_make, car_model: own.car_model, car_username: own.car_username },
      car_name: `${own.car_make} ${own.car_model}`,
      pickup_date: '2030-05-01',
      return_date: '2030-05-03',
      booking_type: 'daily',
      payment_status: 'unpaid',
    });
    expect(one.total_cost).toBe(one.total_price);
    expect(one.total_amount).toBe(one.total_price);
    expect(one.expires_at).toBe(new Date(Date.parse(NOW) + 48 * HOUR).toISOString());
    expectError(await req('GET', `/api/booking/${hosted.id}`, stranger.headers), 404);
  });

  it('getList filters by status and car_username', async () => {
    const pending = expectOk<Booking[]>(await req('GET', `/api/booking/getList?status=pending&car_username=${own.car_username}`, viewerA.headers));
    expect(pending.map((b) => b.id)).toEqual([hosted.id]);
    expect(expectOk<Booking[]>(await req('GET', '/api/booking/getList?status=completed', viewerA.headers)).map((b) => b.id)).toEqual([mine.id]);
    expect(expectOk<Booking[]>(await req('GET', `/api/booking/getList?car_username=${own.car_username}`, stranger.headers))).toEqual([]);
  });

  it('getStats counts by status and sums the ledger: what the viewer spent, what their cars earned', async () => {
    const stats = expectOk<BookingStats>(await req('GET', '/api/booking/getStats', viewerA.headers));
    expect(stats).toMatchObject({ total: 2, pending: 1, completed: 1, confirmed: 0 });
    // A's own trip is money spent, not earned; the booking on A's car is still pending (no money).
    const row = await statusOf(mine.id);
    expect(stats.total_spent).toBe(row.total_price_cents / 100);
    expect(stats.total_revenue).toBe(0);
    expect(stats.total_earnings).toBe(0);
    expect(stats.total_app_fee).toBe(0);
    const all = expectOk<BookingStats>(await req('GET', '/api/booking/getStats', admin.headers));
    expect(all.total).toBeGreaterThan(stats.total);
  });

  it('/user/{id}/bookings (as renter) and /hosted-bookings: self or admin', async () => {
    expect(expectOk<Booking[]>(await req('GET', `/api/user/${viewerA.user.username}/bookings`, viewerA.headers)).map((b) => b.id)).toEqual([mine.id]);
    expect(expectOk<Booking[]>(await req('GET', `/api/user/${viewerA.user.id}/hosted-bookings`, viewerA.headers)).map((b) => b.id)).toEqual([hosted.id]);
    expect(expectOk<Booking[]>(await req('GET', `/api/user/${viewerA.user.id}/hosted-bookings?status=completed`, admin.headers))).toEqual([]);
    expectError(await req('GET', `/api/user/${viewerA.user.id}/bookings`, viewerB.headers), 403);
    expectError(await req('GET', `/api/user/${viewerA.user.id}/hosted-bookings`, viewerB.headers), 403);
    expectError(await req('GET', '/api/user/nobody-like-this/bookings', admin.headers), 404);
  });
});

describe('expiry (decisions.md section 5)', () => {
  it('pending expires 48 hours after it was made, confirmed-unpaid 24 hours after acceptance; both are told', async () => {
    const start = '2030-03-10T08:00:00Z';
    t.clock.set(start);
    const p = await booking('pending');
    const c = await booking('pending');
    t.clock.set(Date.parse(start) + 47 * HOUR);
    expectOk(await req('PATCH', `/api/booking/approve/${c.id}`, await signIn(host)));
    expect(await expireOverdueBookings(t.ctx)).toBe(0);
    t.clock.set(Date.parse(start) + 48 * HOUR);
    await expireOverdueBookings(t.ctx);
    expect(await statusOf(p.id)).toMatchObject({ status: 'cancelled', host_response: 'Expired: the host did not answer within 48 hours.' });
    expect((await statusOf(c.id)).status).toBe('confirmed');
    t.clock.set(Date.parse(start) + 71 * HOUR);
    await expireOverdueBookings(t.ctx);
    expect((await statusOf(c.id)).status).toBe('cancelled');
    expect((await statusOf(c.id)).host_response).toBe('Expired: the booking was not paid within 24 hours of being accepted.');
    const [forRenter] = await notificationsOf(await signIn(renter));
    const [forHost] = await notificationsOf(await signIn(host));
    expect(forRenter).toMatchObject({ type: 'booking_expired', title: 'Booking expired' });
    expect(forHost).toMatchObject({ type: 'booking_expired' });
    t.clock.set(NOW);
  });

  it('also at midnight (Johannesburg) after the start date, when that comes first', async () => {
    t.clock.set('2030-03-10T08:00:00Z');
    const b = await booking('pending', { start: '2030-03-10' });
    expect(expectOk<Booking>(await req('GET', `/api/booking/${b.id}`, renter.headers)).expires_at).toBe('2030-03-10T22:00:00.000Z');
    t.clock.set('2030-03-10T21:59:59Z');
    await expireOverdueBookings(t.ctx);
    expect((await statusOf(b.id)).status).toBe('pending');
    t.clock.set('2030-03-10T22:00:00Z');
    // An overdue request cannot be accepted: the write sweeps first, then the machine answers 409.
    expectError(await req('PATCH', `/api/booking/approve/${b.id}`, host.headers), 409);
    expect(await statusOf(b.id)).toMatchObject({ status: 'cancelled', host_response: 'Expired: the host did not answer before the start date.' });
    t.clock.set(NOW);
  });

  it('an expired request no longer blocks its dates, even before the job runs', async () => {
    t.clock.set(NOW);
    const start = freshStart();
    await booking('pending', { start });
    t.clock.advance(49 * HOUR);
    const res = await req('POST', '/api/booking/create', await signIn(stranger), { car_username: car.car_username, start_date: start, end_date: start, is_hourly_booking: false });
    expect(expectOk<Booking>(res, 201).status).toBe('pending');
    t.clock.set(NOW);
  });

  it('the sweep is a job scheduled every minute on the job queue, and its job cancels what is overdue', async () => {
    const schedules = await sql<{ name: string; cron: string; timezone: string }>`SELECT name, cron, timezone FROM ${sql.table(`${t.ctx.jobs.schema}.schedule`)}`.execute(t.db);
    expect(schedules.rows).toContainEqual({ name: 'bookings.expire', cron: EXPIRY_CRON, timezone: 'Africa/Johannesburg' });
    t.clock.set(NOW);
    const b = await booking('pending');
    t.clock.advance(48 * HOUR);
    // The job as the schedule sends it each minute, run as a worker would.
    await inTransaction(t.ctx, (tx) => t.ctx.jobs.enqueue(tx, 'bookings.expire', {}));
    expect(await t.ctx.jobs.runDue('bookings.expire')).toBe(1);
    expect((await statusOf(b.id)).status).toBe('cancelled');
    t.clock.set(NOW);
  });

  it('the sweep is safe to run concurrently: each booking is cancelled and notified once', async () => {
    t.clock.set(NOW);
    const b = await booking('pending');
    t.clock.advance(48 * HOUR);
    const counts = await Promise.all([expireOverdueBookings(t.ctx), expireOverdueBookings(t.ctx), expireOverdueBookings(t.ctx)]);
    expect(counts.reduce((a, n) => a + n, 0)).toBeGreaterThanOrEqual(1);
    const notes = await t.db.selectFrom('notifications').select('id').where('user_id', '=', renter.user.id).where('type', '=', 'booking_expired').where('message', 'like', `%${formatDay(b.start_date)}%`).execute();
    expect(notes).toHaveLength(1);
    t.clock.set(NOW);
  });
});

describe('notification emails follow the emailNotifications setting', () => {
  it('no mail when emailNotifications is off; the notification is still kept', async () => {
    const b = await booking();
    const data = (await t.db.selectFrom('settings').select('data').executeTakeFirstOrThrow()).data as Record<string, unknown>;
    await t.db.updateTable('settings').set({ data: JSON.stringify({ ...data, emailNotifications: false }) } as never).execute();
    forgetSettings(t.ctx);
    try {
      const mailsBefore = (await t.outbox.list(renter.user.email)).length;
      const accepted = async () => (await notificationsOf(renter.headers)).filter((n) => n.type === 'booking_confirmed').length;
      const acceptedBefore = await accepted();
      expectOk(await req('PATCH', `/api/booking/approve/${b.id}`, host.headers));
      expect((await t.outbox.list(renter.user.email)).length).toBe(mailsBefore);
      expect(await accepted()).toBe(acceptedBefore + 1);
    } finally {
      await t.db.updateTable('settings').set({ data: JSON.stringify(data) } as never).execute();
      forgetSettings(t.ctx);
    }
    const c = await booking();
    const mailsBefore = (await t.outbox.list(renter.user.email)).length;
    expectOk(await req('PATCH', `/api/booking/approve/${c.id}`, host.headers));
    const mails = await t.outbox.list(renter.user.email);
    expect(mails.length).toBe(mailsBefore + 1);
    expect(mails[0]).toMatchObject({ subject: `Booking accepted (booking ${c.booking_number})` });
  });
});
