// Every booking email names its booking (issue 32): three "Payment received" mails for three Polo
// bookings used to read the same. Each notice about a booking, from every module that sends one,
// is run here in a transaction of its own as its subscriber would run it, and each email it queues
// must carry the booking number in its subject and, in its text and HTML, the line "Booking <number>:
// <make> <model> <year>, <dates and times>" (written out by hand below, not by the code's formatter).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CancellationOutcome } from '@karoo/shared';
import type { AppContext } from '../src/context';
import { inTransaction, type Tx } from '../src/events/domain-events';
import { findBookingById, type BookingRecord } from '../src/modules/bookings';
import * as bookingNotices from '../src/modules/bookings/bookings.notices';
import * as earningsNotices from '../src/modules/earnings/earnings.notices';
import { messagePosted, messageReported } from '../src/modules/messages/messages.service';
import * as paymentNotices from '../src/modules/payments/payments.notices';
import * as reviewNotices from '../src/modules/reviews/reviews.notices';
import * as tripNotices from '../src/modules/trips/trips.notices';
import { createSignedInUser, createTestApp, type TestApp } from './helpers';
import { createTestBooking, createTestCar } from './helpers/vehicles';

let t: TestApp;
let admin: Awaited<ReturnType<typeof createSignedInUser>>;
let host: Awaited<ReturnType<typeof createSignedInUser>>;
let renter: Awaited<ReturnType<typeof createSignedInUser>>;
let polo: Awaited<ReturnType<typeof createTestCar>>;

beforeAll(async () => {
  t = await createTestApp();
  t.clock.set('2030-05-01T08:00:00.000Z');
  admin = await createSignedInUser(t.app, t.ctx, { role: 'admin', verification_status: 'verified' });
  host = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' });
  renter = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' });
  polo = await createTestCar(t.ctx, host.user, { make: 'Volkswagen', model: 'Polo' });
});
afterAll(async () => {
  await t?.close();
});

let day = 0;
/** A Polo booking of three days, 09:00 to 17:00 (each on a Polo of its own, so that none holds another's dates). */
async function poloBooking(status: BookingRecord['status'] = 'confirmed'): Promise<BookingRecord> {
  day += 7;
  const start = `2030-06-${String(day).padStart(2, '0')}`;
  const car = await createTestCar(t.ctx, host.user, { make: 'Volkswagen', model: 'Polo' });
  const row = await createTestBooking(t.ctx, car, renter.user, { start, days: 3, status });
  return (await findBookingById(t.ctx, row.id))!;
}

/** The line each email must carry, written out by hand for the bookings above (the 7th, 14th, 21st, 28th of June). */
function expectedLine(b: BookingRecord): string {
  const startDay = Number(b.start_date.slice(8, 10));
  const two = (n: number) => String(n).padStart(2, '0');
  return `Booking ${b.booking_number}: Volkswagen Polo 2022, ${two(startDay)} Jun 2030 09:00 to ${two(startDay + 3)} Jun 2030 17:00`;
}

type Notice = (tx: Tx, b: BookingRecord, ctx: AppContext) => Promise<void>;
const outcome = { refundCents: 90_000, feeCents: 10_000, hostShareCents: 8_000, platformShareCents: 2_000, hostPenaltyCents: 0 } as CancellationOutcome;
const completedStage = (b: BookingRecord) => ({ id: b.id, booking_number: b.booking_number, renter_id: b.renter_id, owner_id: b.owner_id, car_make: b.car_make, car_model: b.car_model });

/** Every kind of booking email, as its subscriber sends it. */
const BOOKING_MAILS: [kind: string, status: BookingRecord['status'], notice: Notice][] = [
  ['request', 'pending', (tx, b, ctx) => bookingNotices.bookingRequested(tx, { type: 'booking.requested', booking: b }, ctx)],
  ['instant booking', 'confirmed', (tx, b, ctx) => bookingNotices.bookingRequested(tx, { type: 'booking.requested', booking: b }, ctx)],
  ['accepted', 'confirmed', (tx, b, ctx) => bookingNotices.bookingConfirmed(tx, { type: 'booking.confirmed', booking: b, by: 'owner' }, ctx)],
  ['rejected', 'rejected', (tx, b, ctx) => bookingNotices.bookingRejected(tx, { type: 'booking.rejected', booking: b, response: 'Away that week' }, ctx)],
  ...(['renter', 'admin', 'expired', 'car_removed', 'renter_closed'] as const).map(
    (cause): [string, BookingRecord['status'], Notice] => [
      `cancelled (${cause})`,
      'cancelled',
      (tx, b, ctx) => bookingNotices.bookingCancelled(tx, { type: 'booking.cancelled', booking: b, cause, reason: 'A reason.' }, ctx),
    ],
  ),
  ['payment received', 'active', (tx, b, ctx) => bookingNotices.bookingPaid(tx, { type: 'booking.paid', booking: b }, ctx)],
  ['trip completed', 'completed', (tx, b, ctx) => bookingNotices.bookingCompleted(tx, { type: 'booking.completed', booking: b, forced: false, forcedReason: null }, ctx)],
  ['ended by Karoo (renter)', 'completed', (tx, b, ctx) => bookingNotices.bookingCompleted(tx, { type: 'booking.completed', booking: b, forced: true, forcedReason: 'Overdue' }, ctx)],
  [
    'ended by Karoo (host)',
    'completed',
    (tx, b, ctx) =>
      bookingNotices.carForceReturned(tx, { type: 'car.force_returned', car: polo as never, reason: 'Overdue', affected: 1, bookings: [{ id: b.id, booking_number: b.booking_number, before: {}, after: {} }] }, ctx),
  ],
  ['payment refunded', 'cancelled', (tx, b, ctx) => paymentNotices.paymentRefundDue(tx, { type: 'payment.refund_due', booking: b, reference: 'ref-1', amountCents: 100_000, reason: 'The booking expired.' } as never, ctx)],
  ['trip cancelled', 'cancelled', (tx, b, ctx) => paymentNotices.tripCancelled(tx, { type: 'trip.cancelled', booking: b, actor: 'renter', noShow: false, outcome, reason: '' }, ctx)],
  ['refund sent', 'cancelled', (tx, b, ctx) => paymentNotices.paymentRefunded(tx, { type: 'payment.refunded', bookingId: b.id, renterId: b.renter_id, amountCents: 90_000, reason: null }, ctx)],
  ['review reminder', 'completed', (tx, b, ctx) => reviewNotices.reviewWritten(tx, { type: 'review.written', bookingId: b.id, toUserId: b.owner_id, authorName: 'Renter', direction: 'car', windowEndsAt: new Date('2030-07-20T10:00:00Z') }, ctx)],
  ['reviews revealed', 'completed', (tx, b, ctx) => reviewNotices.reviewsRevealed(tx, { type: 'review.revealed', bookingId: b.id, userIds: [b.renter_id, b.owner_id] }, ctx)],
  ['trip record', 'active', (tx, b, ctx) => tripNotices.tripRecorded(tx, { type: 'trip.recorded', booking: completedStage(b), stage: 'check_in', party: 'host' }, ctx)],
  ['dispute opened', 'completed', (tx, b, ctx) => tripNotices.disputeOpened(tx, { type: 'trip.dispute_opened', booking: completedStage(b), kind: 'damage' }, ctx)],
  ['dispute resolved', 'completed', (tx, b, ctx) => tripNotices.disputeResolved(tx, { type: 'trip.dispute_resolved', booking: completedStage(b), note: 'Settled.' } as never, ctx)],
  [
    'payout reversed',
    'completed',
    (tx, b, ctx) =>
      earningsNotices.payoutReversed(tx, { type: 'payout.reversed', bookingId: b.id, bookingNumber: b.booking_number, hostId: b.owner_id, amountCents: 50_000, before: {}, after: {}, reason: 'Paid twice' }, ctx),
  ],
  [
    'new message',
    'confirmed',
    (tx, b, ctx) => messagePosted(tx, { type: 'message.posted', bookingId: b.id, bookingNumber: b.booking_number, senderId: b.renter_id, senderName: 'Renter', recipientId: b.owner_id }, ctx),
  ],
  [
    'message reported (administrators)',
    'confirmed',
    (tx, b, ctx) =>
      messageReported(tx, { type: 'message.reported', reportId: crypto.randomUUID(), bookingId: b.id, bookingNumber: b.booking_number, reporterId: b.owner_id, reporterUsername: 'host', reason: 'Rude' }, ctx),
  ],
];

describe('every booking email names the car, the dates and the booking number', () => {
  it.each(BOOKING_MAILS)('%s', async (_kind, status, notice) => {
    day = 0;
    const booking = await poloBooking(status);
    const before = new Set((await t.outbox.list()).map((m) => m.id));
    await inTransaction(t.ctx, (tx) => notice(tx, booking, t.ctx));
    const mails = (await t.outbox.list()).filter((m) => !before.has(m.id));
    expect(mails.length).toBeGreaterThan(0);
    const line = expectedLine(booking);
    for (const mail of mails) {
      expect(mail.subject).toContain(booking.booking_number);
      expect(mail.text).toContain(line);
      expect(mail.html).toContain(line);
    }
    // The administrators' notice goes to them, the others to the booking's two people.
    const to = new Set(mails.map((m) => m.to));
    expect([...to].every((address) => [renter.user.email, host.user.email, admin.user.email].includes(address))).toBe(true);
  });

  it('three "Payment received" mails for three Polo bookings read differently', async () => {
    day = 0;
    const paid = [await poloBooking('active'), await poloBooking('active'), await poloBooking('active')];
    const before = new Set((await t.outbox.list()).map((m) => m.id));
    for (const b of paid) await inTransaction(t.ctx, (tx) => bookingNotices.bookingPaid(tx, { type: 'booking.paid', booking: b }, t.ctx));
    const received = (await t.outbox.list(renter.user.email)).filter((m) => !before.has(m.id));
    expect(received).toHaveLength(3);
    expect(new Set(received.map((m) => m.subject)).size).toBe(3);
    expect(new Set(received.map((m) => m.text)).size).toBe(3);
    expect(received.map((m) => m.subject).sort()).toEqual(paid.map((b) => `Payment received (booking ${b.booking_number})`).sort());
  });
});
