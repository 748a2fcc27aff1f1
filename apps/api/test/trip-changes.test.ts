// Changing a paid trip (issue 36; decision 081), through the routes on the real database: the
// renter asks, the host accepts or declines, an unanswered request lapses, instant booking accepts
// at once; the difference is charged to the saved card or refunded, every part a ledger row, each
// booking's rows balanced and equal to the sandbox provider's books; a clash is refused (and a
// charge already taken refunded whole); the receipt is a new document naming the one it replaces;
// another user's booking and change are 404.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, type Booking, type PaymentSession, type TripChangeQuoteView, type TripChangeView } from '@karoo/shared';
import { sumBookingMoney } from '../src/modules/ledger';
import { lapseOverdueChanges } from '../src/modules/payments';
import { createSignedInUser, createTestApp, expectError, expectOk, rememberedSession, type TestApp } from './helpers';
import { createTestBooking, createTestCar } from './helpers/vehicles';

type Signed = Awaited<ReturnType<typeof createSignedInUser>>;
const H = 3_600_000;
const BASE = '2030-03-01T08:00:00.000Z';

let t: TestApp;
let admin: Signed;
let host: Signed;
let renter: Signed;
let stranger: Signed;

beforeAll(async () => {
  t = await createTestApp({ env: { BROWSE_CACHE_MS: '0' } });
  t.clock.set(BASE);
  admin = await rememberedSession(t.app, await createSignedInUser(t.app, t.ctx, { role: 'admin', verification_status: 'verified' }));
  host = await rememberedSession(t.app, await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' }));
  renter = await rememberedSession(t.app, await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' }));
  stranger = await rememberedSession(t.app, await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' }));
});
afterAll(() => t.close());

/** A R 500 car, booked `days` days (09:00 → 17:00) from `startInDays` days after the base moment, paid by sandbox card. */
async function paidTrip(days: number, startInDays: number, car?: Awaited<ReturnType<typeof createTestCar>>) {
  t.clock.set(BASE);
  const theCar = car ?? (await createTestCar(t.ctx, host.user));
  const start = new Date(t.clock.now().getTime() + startInDays * 24 * H).toISOString().slice(0, 10);
  const booking = await createTestBooking(t.ctx, theCar, renter.user, { start, days, status: 'confirmed' });
  const session = expectOk<PaymentSession>(await t.app.inject({ method: 'POST', url: `/api/booking/${booking.id}/payment-session`, headers: renter.headers }));
  await t.app.inject({ method: 'POST', url: '/api/payments/sandbox/charge', headers: renter.headers, payload: { reference: session.reference, card_number: '4084084084084081', expiry: '12/39', cvv: '123' } });
  const paid = expectOk<Booking>(await t.app.inject({ method: 'GET', url: `/api/booking/${booking.id}`, headers: renter.headers }));
  expect(paid.status).toBe('active');
  return { booking, car: theCar, start, end: booking.end_date, reference: session.reference };
}

const times = (start_date: string, end_date: string, start_time = '09:00', end_time = '17:00') => ({ start_date, end_date, start_time, end_time });
const quote = (who: Signed, id: string, q: ReturnType<typeof times>) => t.app.inject({ method: 'GET', url: `/api/booking/${id}/change-quote?${new URLSearchParams(q)}`, headers: who.headers });
const ask = (who: Signed, id: string, payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url: `/api/booking/${id}/changes`, headers: who.headers, payload });
const answer = (who: Signed, changeId: string, verb: 'accept' | 'decline' | 'withdraw', payload: Record<string, unknown> = {}) =>
  t.app.inject({ method: 'PATCH', url: `/api/booking/changes/${changeId}/${verb}`, headers: who.headers, ...(verb === 'withdraw' ? {} : { payload }) });
const bookingOf = async (id: string) => expectOk<Booking>(await t.app.inject({ method: 'GET', url: `/api/booking/${id}`, headers: renter.headers }));
const ledgerOf = (bookingId: string) => t.ctx.db.selectFrom('ledger_entries').selectAll().where('booking_id', '=', bookingId).orderBy('seq').execute();

/** Charges = refunds + host share + platform share, and the sandbox's books agree on what went back. */
async function expectBalanced(bookingId: string) {
  const rows = await ledgerOf(bookingId);
  const m = sumBookingMoney(rows);
  expect(m.chargedCents).toBe(m.refundedCents + m.refundPendingCents + m.refundFailedCents + m.hostShareCents + m.platformShareCents);
  const refs = [...new Set(rows.filter((r) => r.kind === 'charge').map((r) => r.charge_reference!))];
  const sandbox = await t.ctx.db.selectFrom('sandbox_refunds').select(['reference', 'amount_cents']).where('reference', 'in', refs).execute();
  expect(sandbox.reduce((s, r) => s + Number(r.amount_cents), 0)).toBe(m.refundedCents);
  return { m, rows };
}

describe('a longer trip', () => {
  it('the renter asks, the host accepts: the card is charged the difference, the trip has its new times, the receipt a new number', async () => {
    const { booking, start, end } = await paidTrip(2, 10);
    // R 500 × 2 = 1 000 + 10% fee = R 1 100; three days: 1 500 + 150 = R 1 650.
    const longer = times(start, addDays(end, 1));
    const q = expectOk<TripChangeQuoteView>(await quote(renter, booking.id, longer));
    expect(q).toMatchObject({ can_request: true, net: 550, kept: 0, instant: false });
    expect(q.difference).toMatchObject({ subtotal: 500, service_fee: 50, total: 550, host_earnings: 375 });
    const receiptBefore = await t.app.inject({ method: 'GET', url: `/api/booking/${booking.id}/receipt.pdf`, headers: renter.headers });
    expect(receiptBefore.statusCode).toBe(200);

    // Strangers see nothing; the host cannot ask; the renter cannot accept.
    expectError(await quote(stranger, booking.id, longer), 404);
    expectError(await ask(host, booking.id, longer), 403);
    const change = expectOk<TripChangeView>(await ask(renter, booking.id, { ...longer, expected_net: 550, message: 'Flight moved to Monday' }));
    expect(change).toMatchObject({ status: 'pending', net: 550, new_total: 1650 });
    expect(new Date(change.answer_by).getTime() - t.clock.now().getTime()).toBe(8 * H);
    expectError(await ask(renter, booking.id, times(start, addDays(end, 2))), 409);
    expectError(await answer(stranger, change.id, 'accept'), 404);
    expectError(await answer(renter, change.id, 'accept'), 403);
    expectError(await t.app.inject({ method: 'GET', url: `/api/booking/${booking.id}/changes`, headers: stranger.headers }), 404);
    const hostView = expectOk<TripChangeView[]>(await t.app.inject({ method: 'GET', url: `/api/booking/${booking.id}/changes`, headers: host.headers }));
    expect(hostView[0]).toMatchObject({ id: change.id, status: 'pending', host_difference: 375, message: 'Flight moved to Monday' });

    const accepted = expectOk<TripChangeView>(await answer(host, change.id, 'accept'));
    expect(accepted.status).toBe('accepted');
    const after = await bookingOf(booking.id);
    expect(after).toMatchObject({ end_date: addDays(end, 1), duration_days: 3 });
    expect(after.total_price).toBe(1650);
    const { m, rows } = await expectBalanced(booking.id);
    expect(m.chargedCents).toBe(110_000 + 55_000);
    expect(rows.find((r) => r.kind === 'charge' && r.code === 'trip_change')?.amount_cents).toBe(55_000);
    // The host's share is the new trip's: R 1 500 less the 25% host fee.
    expect(m.hostShareCents).toBe(112_500);
    // A new receipt, naming the one it replaces.
    await t.app.inject({ method: 'GET', url: `/api/booking/${booking.id}/receipt.pdf`, headers: renter.headers });
    const documents = await t.ctx.db.selectFrom('issued_documents').select(['number', 'replaces_id']).where('booking_id', '=', booking.id).where('kind', '=', 'receipt').orderBy('serial').execute();
    expect(documents).toHaveLength(2);
    expect(documents[1]!.replaces_id).not.toBeNull();
    // Both were told.
    const notices = await t.ctx.db.selectFrom('notifications').select(['user_id', 'type']).where('type', 'like', 'trip_change%').execute();
    expect(notices).toEqual(expect.arrayContaining([{ user_id: host.user.id, type: 'trip_change_requested' }, { user_id: renter.user.id, type: 'trip_change_accepted' }]));
  });

  it('then cancelled free: the refund is split over the two charges, each no more than it took', async () => {
    const { booking, start, end, reference } = await paidTrip(2, 10);
    const change = expectOk<TripChangeView>(await ask(renter, booking.id, times(start, addDays(end, 1))));
    expectOk(await answer(host, change.id, 'accept'));
    expectOk(await t.app.inject({ method: 'PATCH', url: `/api/booking/${booking.id}/cancel`, headers: renter.headers, payload: {} }));
    const { m, rows } = await expectBalanced(booking.id);
    expect(m.refundedCents).toBe(165_000);
    const refunds = rows.filter((r) => r.kind === 'refund');
    expect(refunds.map((r) => [r.charge_reference === reference ? 'trip' : 'change', r.amount_cents, r.state])).toEqual([
      ['change', 55_000, 'succeeded'],
      ['trip', 110_000, 'succeeded'],
    ]);
  });

  it('a clash: refused when asked; and when another booking takes the hours before the host answers, the charge goes back whole', async () => {
    const { booking, car, start, end } = await paidTrip(2, 10);
    const other = await createTestBooking(t.ctx, car, stranger.user, { start: addDays(end, 2), days: 1, status: 'confirmed' });
    const refused = expectError(await ask(renter, booking.id, times(start, addDays(end, 2))), 409);
    expect(refused.message).toMatch(/booked or blocked/);
    const change = expectOk<TripChangeView>(await ask(renter, booking.id, times(start, addDays(end, 1))));
    // Taken meanwhile: the day after the trip (the constraint, not the check, is what stops it at accept time).
    await t.ctx.db.updateTable('bookings').set({ start_date: addDays(end, 1) }).where('id', '=', other.id).execute();
    const failed = expectOk<TripChangeView>(await answer(host, change.id, 'accept'));
    expect(failed.status).toBe('failed');
    expect(failed.failure).toMatch(/booked or blocked/);
    expect(await bookingOf(booking.id)).toMatchObject({ end_date: end, total_price: 1100 });
    // The change's charge was never taken: the check ran before the card.
    const { m } = await expectBalanced(booking.id);
    expect(m.chargedCents).toBe(110_000);
  });

  it('two answers at once accept one change once; a race with a new booking for the same hours has one winner', async () => {
    const { booking, car, start, end } = await paidTrip(2, 10);
    const change = expectOk<TripChangeView>(await ask(renter, booking.id, times(start, addDays(end, 1))));
    const [first, second] = await Promise.all([answer(host, change.id, 'accept'), answer(admin, change.id, 'accept')]);
    const statuses = [first.statusCode, second.statusCode].sort();
    expect(statuses[0]).toBe(200);
    const { m } = await expectBalanced(booking.id);
    // One charge of the difference kept, whichever answer won; a second charge, if taken, went back whole.
    expect(m.chargedCents - m.refundedCents - m.refundPendingCents).toBe(165_000);
    expect((await bookingOf(booking.id)).total_price).toBe(1650);

    // Another renter books the next day while this renter's extension into it is accepted: one wins.
    const next = expectOk<TripChangeView>(await ask(renter, booking.id, times(start, addDays(end, 2))));
    const [accept, rival] = await Promise.all([
      answer(host, next.id, 'accept'),
      createTestBooking(t.ctx, car, stranger.user, { start: addDays(end, 2), days: 1, status: 'confirmed' }).then(
        () => 'booked',
        () => 'refused',
      ),
    ]);
    const outcome = expectOk<TripChangeView>(accept).status;
    expect([outcome, rival].sort()).toEqual(outcome === 'accepted' ? ['accepted', 'refused'] : ['booked', 'failed']);
    await expectBalanced(booking.id);
  });
});

describe('a shorter trip', () => {
  it('inside the free window: the whole difference comes back to the card', async () => {
    const { booking, start, end } = await paidTrip(3, 10);
    const change = expectOk<TripChangeView>(await ask(renter, booking.id, times(start, addDays(end, -1))));
    expect(change).toMatchObject({ net: -550, kept: 0 });
    expectOk(await answer(host, change.id, 'accept'));
    const { m } = await expectBalanced(booking.id);
    expect(m.refundedCents).toBe(55_000);
    expect(m.hostShareCents).toBe(75_000);
    expect((await bookingOf(booking.id)).total_price).toBe(1100);
  });

  it('in the last day before the start: the policy keeps a day\'s rental, shared like a cancellation fee', async () => {
    // Paid long before; asked 10 hours before the start (09:00 on day 10).
    const { booking, start, end } = await paidTrip(3, 10);
    t.clock.set(new Date(Date.parse(`${start}T09:00:00+02:00`) - 10 * H).toISOString());
    const q = expectOk<TripChangeQuoteView>(await quote(renter, booking.id, times(start, addDays(end, -1))));
    // Given up: one day of three, R 500 of rental; the late fee of a 3-day trip is a day: R 500 kept, R 50 of fee back.
    expect(q).toMatchObject({ kept: 500, kept_host: 375, kept_platform: 125, net: -50 });
    const change = expectOk<TripChangeView>(await ask(renter, booking.id, { ...times(start, addDays(end, -1)), expected_net: -50 }));
    expect(new Date(change.answer_by).getTime()).toBe(Date.parse(`${start}T09:00:00+02:00`) - 2 * H);
    expectOk(await answer(host, change.id, 'accept'));
    const { m, rows } = await expectBalanced(booking.id);
    expect(m.refundedCents).toBe(5_000);
    expect(m.cancellationFeeCents).toBe(50_000);
    expect(rows.filter((r) => r.code === 'change_fee').map((r) => [r.kind, r.amount_cents])).toEqual([
      ['host_earning', 37_500],
      ['platform_fee', 12_500],
    ]);
  });
});

describe('answers that leave the trip as it was', () => {
  it('declined, withdrawn, or lapsed after 8 hours', async () => {
    const { booking, start, end } = await paidTrip(2, 10);
    const declined = expectOk<TripChangeView>(await ask(renter, booking.id, times(start, addDays(end, 1))));
    expect(expectOk<TripChangeView>(await answer(host, declined.id, 'decline', { note: 'The car is promised to family that week' }))).toMatchObject({ status: 'declined', note: 'The car is promised to family that week' });
    const withdrawn = expectOk<TripChangeView>(await ask(renter, booking.id, times(start, addDays(end, 1))));
    expectError(await answer(host, withdrawn.id, 'withdraw'), 403);
    expect(expectOk<TripChangeView>(await answer(renter, withdrawn.id, 'withdraw')).status).toBe('withdrawn');
    const lapsing = expectOk<TripChangeView>(await ask(renter, booking.id, times(start, addDays(end, 1))));
    t.clock.set(new Date(t.clock.now().getTime() + 8 * H - 1000).toISOString());
    expect(await lapseOverdueChanges(t.ctx)).toBe(0);
    t.clock.set(new Date(t.clock.now().getTime() + 1000).toISOString());
    expect(await lapseOverdueChanges(t.ctx)).toBe(1);
    const late = expectError(await answer(host, lapsing.id, 'accept'), 409);
    expect(late.message).toMatch(/lapsed/);
    expect(await bookingOf(booking.id)).toMatchObject({ end_date: end, total_price: 1100 });
    const { m } = await expectBalanced(booking.id);
    expect(m.chargedCents).toBe(110_000);
  });
});

describe('during the trip and with instant booking', () => {
  it('during the trip only the return moves; with instant booking on, a change that fits is made at once', async () => {
    const car = await createTestCar(t.ctx, host.user);
    await t.ctx.db.updateTable('cars').set({ instant_booking: true }).where('id', '=', car.id).execute();
    expectOk(await t.app.inject({ method: 'PUT', url: '/api/settings', headers: admin.headers, payload: { business_rules: { instant_booking_enabled: true } } }));
    const { booking, start, end } = await paidTrip(2, 10, car);
    t.clock.set(new Date(Date.parse(`${start}T12:00:00+02:00`)).toISOString());
    expectError(await ask(renter, booking.id, times(addDays(start, 1), addDays(end, 1))), 409);
    const made = expectOk<TripChangeView>(await ask(renter, booking.id, times(start, addDays(end, 1))));
    expect(made.status).toBe('accepted');
    expect((await bookingOf(booking.id)).end_date).toBe(addDays(end, 1));
    const { m } = await expectBalanced(booking.id);
    expect(m.chargedCents).toBe(165_000);
    expectOk(await t.app.inject({ method: 'PUT', url: '/api/settings', headers: admin.headers, payload: { business_rules: { instant_booking_enabled: false } } }));
  });

  it('a declined saved card leaves the trip as it was, the request failed and said why', async () => {
    const { booking, start, end } = await paidTrip(2, 10);
    await t.ctx.db.updateTable('payments').set({ authorization_code: 'AUTH_sandbox_nofunds_x' }).where('booking_id', '=', booking.id).execute();
    const change = expectOk<TripChangeView>(await ask(renter, booking.id, times(start, addDays(end, 1))));
    const failed = expectOk<TripChangeView>(await answer(host, change.id, 'accept'));
    expect(failed.status).toBe('failed');
    expect(failed.failure).toMatch(/declined/);
    expect((await bookingOf(booking.id)).total_price).toBe(1100);
    await expectBalanced(booking.id);
  });
});
