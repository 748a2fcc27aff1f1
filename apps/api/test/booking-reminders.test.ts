// Reminders (issue 37, decision 084): a host who has not answered a request in two hours, and the
// renter of a paid trip the evening before its pickup, each reminded once, in the app and by email,
// never for a request already answered or expired, never late.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sendBookingReminders } from '../src/modules/bookings';
import { createSignedInUser, createTestApp, MINUTE, type TestApp } from './helpers';
import { createTestBooking, createTestCar } from './helpers/vehicles';

type Signed = Awaited<ReturnType<typeof createSignedInUser>>;

let t: TestApp;
let host: Signed;
let renter: Signed;

beforeAll(async () => {
  t = await createTestApp();
  host = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified', full_name: 'Thandi Host', overrides: { phone_number: '+27 82 555 0101' } });
  renter = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified', full_name: 'Pieter Renter' });
});
afterAll(async () => {
  await t?.close();
});

const noticesOf = (userId: string, type: string, bookingId: string) =>
  t.db.selectFrom('notifications').select(['title', 'message', 'booking_id']).where('user_id', '=', userId).where('type', '=', type).where('booking_id', '=', bookingId).execute();

describe('a request the host has not answered', () => {
  // 10:00 in Johannesburg, 1 March 2030.
  beforeEach(() => t.clock.set('2030-03-01T08:00:00Z'));

  it('reminds the host once, two hours after it was asked, with the renter, the car, the dates and the deadline', async () => {
    const car = await createTestCar(t.ctx, host.user, { make: 'Toyota', model: 'Corolla' });
    const request = await createTestBooking(t.ctx, car, renter.user, { start: '2030-03-10', days: 3 });
    t.clock.advance(119 * MINUTE);
    await sendBookingReminders(t.ctx);
    expect(await noticesOf(host.user.id, 'booking_request_reminder', request.id)).toEqual([]);

    t.clock.advance(MINUTE);
    expect((await sendBookingReminders(t.ctx)).hosts).toBeGreaterThanOrEqual(1);
    const [notice, ...more] = await noticesOf(host.user.id, 'booking_request_reminder', request.id);
    expect(more).toEqual([]);
    expect(notice!.title).toBe('A booking request is waiting for your answer');
    expect(notice!.message).toContain('Pieter Renter asked for your Toyota Corolla, 10 Mar 2030 to 13 Mar 2030 (3 days)');
    // Pending requests lapse 48 h after they were asked (decisions.md section 5): 3 March, 10:00.
    expect(notice!.message).toContain('Answer by Sun 3 Mar, 10:00, or it lapses.');
    // The email names the booking (decision 058).
    expect((await t.outbox.latest(host.user.email))!.subject).toContain(request.booking_number);

    t.clock.advance(60 * MINUTE);
    await sendBookingReminders(t.ctx);
    expect(await noticesOf(host.user.id, 'booking_request_reminder', request.id)).toHaveLength(1);
  });

  it('says nothing of a request answered or expired before then', async () => {
    const car = await createTestCar(t.ctx, host.user);
    const answered = await createTestBooking(t.ctx, car, renter.user, { start: '2030-03-12', days: 2 });
    await t.db.updateTable('bookings').set({ status: 'confirmed', confirmed_at: t.clock.now() }).where('id', '=', answered.id).execute();
    const expired = await createTestBooking(t.ctx, car, renter.user, { start: '2030-03-20', days: 2 });
    await t.db.updateTable('bookings').set({ expires_at: new Date(t.clock.now().getTime() + 60 * MINUTE) }).where('id', '=', expired.id).execute();
    t.clock.advance(3 * 60 * MINUTE);
    await sendBookingReminders(t.ctx);
    expect(await noticesOf(host.user.id, 'booking_request_reminder', answered.id)).toEqual([]);
    expect(await noticesOf(host.user.id, 'booking_request_reminder', expired.id)).toEqual([]);
  });
});

describe('the pickup of a paid trip', () => {
  it('reminds the renter the evening before, from 18:00, once, with the place and the host’s number', async () => {
    t.clock.set('2030-04-01T08:00:00Z');
    const car = await createTestCar(t.ctx, host.user, { make: 'Volkswagen', model: 'Polo', overrides: { pickup_location: '12 Bree St, Cape Town' } });
    const trip = await createTestBooking(t.ctx, car, renter.user, { start: '2030-04-05', days: 2, status: 'active' });
    const later = await createTestBooking(t.ctx, car, renter.user, { start: '2030-04-10', days: 1, status: 'active' });

    // 4 April, 17:59 in Johannesburg: not yet.
    t.clock.set('2030-04-04T15:59:00Z');
    await sendBookingReminders(t.ctx);
    expect(await noticesOf(renter.user.id, 'pickup_reminder', trip.id)).toEqual([]);

    t.clock.set('2030-04-04T16:00:00Z');
    await sendBookingReminders(t.ctx);
    const [notice, ...more] = await noticesOf(renter.user.id, 'pickup_reminder', trip.id);
    expect(more).toEqual([]);
    expect(notice!.title).toBe('Your trip starts tomorrow at 09:00');
    expect(notice!.message).toContain('Tomorrow you collect the Volkswagen Polo at 12 Bree St, Cape Town. Your host is Thandi Host, +27 82 555 0101.');
    // A trip further away is not reminded yet; nor is this one again.
    expect(await noticesOf(renter.user.id, 'pickup_reminder', later.id)).toEqual([]);
    t.clock.set('2030-04-04T20:00:00Z');
    await sendBookingReminders(t.ctx);
    expect(await noticesOf(renter.user.id, 'pickup_reminder', trip.id)).toHaveLength(1);
  });

  it('is not sent for a trip that is not paid, nor on the day itself', async () => {
    t.clock.set('2030-05-01T08:00:00Z');
    const car = await createTestCar(t.ctx, host.user);
    const unpaid = await createTestBooking(t.ctx, car, renter.user, { start: '2030-05-03', days: 2, status: 'confirmed' });
    const today = await createTestBooking(t.ctx, car, renter.user, { start: '2030-05-08', days: 1, status: 'active' });
    t.clock.set('2030-05-02T17:00:00Z');
    await sendBookingReminders(t.ctx);
    expect(await noticesOf(renter.user.id, 'pickup_reminder', unpaid.id)).toEqual([]);
    // Paid on the morning of the pickup: past the evening before, nothing is sent.
    t.clock.set('2030-05-08T05:00:00Z');
    await sendBookingReminders(t.ctx);
    expect(await noticesOf(renter.user.id, 'pickup_reminder', today.id)).toEqual([]);
  });
});
