// Money follows codes, never wording (issue 18; docs/decisions/032-final-payouts-and-money-codes.md):
// why a charge is refunded is stored as a code (payments.refund_reason_code) and why a booking was
// cancelled too (bookings.cancel_cause). Each test here rewords the text the old code read (the
// booking's expiry reason, the stored refund sentence, Paystack's refusal message) and shows that
// the money goes where the codes and Paystack's structured fields say.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PaymentSession } from '@karoo/shared';
import type { CarRow } from '../src/db/schema';
import { expireOverdueBookings } from '../src/modules/bookings/bookings.service';
import { refundOfCharge, runRefundJobs } from './helpers/refunds';
import { createSignedInUser, createTestApp, expectError, expectOk, type TestApp } from './helpers';
import { startPaystackStub, type PaystackStub } from './helpers/bookings';
import { createTestBooking, createTestCar } from './helpers/vehicles';

type Signed = Awaited<ReturnType<typeof createSignedInUser>>;
const NOW = '2030-03-10T08:00:00.000Z';

interface World {
  t: TestApp;
  renter: Signed;
  car: CarRow;
  day: number;
}

async function makeWorld(env: Record<string, string> = {}): Promise<World> {
  const t = await createTestApp({ env: { BROWSE_CACHE_MS: '0', ...env } });
  t.clock.set(NOW);
  const host = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' });
  const renter = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' });
  const car = await createTestCar(t.ctx, host.user);
  return { t, renter, car, day: 0 };
}

async function confirmedBooking(w: World) {
  w.day += 3;
  const start = new Date(Date.UTC(2030, 3, 1 + w.day)).toISOString().slice(0, 10);
  return createTestBooking(w.t.ctx, w.car, w.renter.user, { start, days: 2, status: 'confirmed' });
}

const session = (w: World, id: string) => w.t.app.inject({ method: 'POST', url: `/api/booking/${id}/payment-session`, headers: w.renter.headers });
const pay = (w: World, id: string, reference: string) =>
  w.t.app.inject({ method: 'POST', url: `/api/booking/pay/${id}`, headers: w.renter.headers, payload: { paystack_reference: reference } });
const charge = (w: World, reference: string) =>
  w.t.app.inject({ method: 'POST', url: '/api/payments/sandbox/charge', headers: w.renter.headers, payload: { reference, card_number: '4084084084084081', expiry: '12/31', cvv: '123' } });
const payment = (w: World, reference: string) => w.t.db.selectFrom('payments').selectAll().where('reference', '=', reference).executeTakeFirstOrThrow();
const rewordRefund = (w: World, reference: string, text: string) => w.t.db.updateTable('payments').set({ refund_reason: text }).where('reference', '=', reference).execute();

describe('sandbox: a late charge on an expired booking', () => {
  let w: World;
  beforeAll(async () => {
    w = await makeWorld();
  });
  afterAll(async () => {
    await w?.t.close();
  });

  it('is refunded as "expired" from the booking’s cancel cause, whatever its stored reason says', async () => {
    const b = await confirmedBooking(w);
    const { reference } = expectOk<PaymentSession>(await session(w, b.id));
    await w.t.db.updateTable('bookings').set({ expires_at: new Date(w.t.clock.now().getTime() - 60_000) }).where('id', '=', b.id).execute();
    expect(await expireOverdueBookings(w.t.ctx)).toBe(1);
    const expired = await w.t.db.selectFrom('bookings').select(['status', 'cancel_cause', 'host_response']).where('id', '=', b.id).executeTakeFirstOrThrow();
    expect(expired).toMatchObject({ status: 'cancelled', cancel_cause: 'expired' });
    expect(expired.host_response).toMatch(/^Expired:/);
    // The expiry sentence is reworded (a copy change); the cause stays what it was.
    await w.t.db.updateTable('bookings').set({ host_response: 'Lapsed: nobody paid in time.' }).where('id', '=', b.id).execute();

    const res = expectOk<{ status: string; message: string }>(await charge(w, reference));
    expect(res.message).toBe('Payment approved. This booking had expired before the payment arrived. It is being refunded in full.');
    expect(await payment(w, reference)).toMatchObject({ refund_status: 'pending', refund_reason_code: 'booking_expired', refund_reason: 'This booking had expired before the payment arrived.' });
    expect(await refundOfCharge(w.t.db, reference)).toMatchObject({ state: 'succeeded', code: 'booking_expired' });
    expectError(await pay(w, b.id, reference), 409, /had expired before the payment arrived/);
  });

  it('a booking the renter cancelled gives "cancelled", even when its reason starts with "Expired"', async () => {
    const b = await confirmedBooking(w);
    const { reference } = expectOk<PaymentSession>(await session(w, b.id));
    expectOk(await w.t.app.inject({ method: 'PATCH', url: `/api/booking/${b.id}/cancel`, headers: w.renter.headers }));
    await w.t.db.updateTable('bookings').set({ host_response: 'Expired: my plans changed' }).where('id', '=', b.id).execute();
    expect((await w.t.db.selectFrom('bookings').select('cancel_cause').where('id', '=', b.id).executeTakeFirstOrThrow()).cancel_cause).toBe('renter');
    await charge(w, reference);
    expect(await payment(w, reference)).toMatchObject({ refund_status: 'pending', refund_reason_code: 'booking_cancelled' });
    expect(await refundOfCharge(w.t.db, reference)).toMatchObject({ state: 'succeeded', code: 'booking_cancelled' });
  });
});

describe('Paystack (local stub)', () => {
  let w: World;
  let stub: PaystackStub;
  beforeAll(async () => {
    stub = await startPaystackStub();
    w = await makeWorld({ PAYSTACK_SECRET_KEY: stub.secret, PAYSTACK_PUBLIC_KEY: 'pk_test_karoo', PAYSTACK_BASE_URL: stub.url });
  });
  afterAll(async () => {
    await w?.t.close();
    await stub?.close();
  });
  const refundRequests = (reference: string) => stub.requests.filter((r) => r.path === '/refund' && (r.body as { transaction: string }).transaction === reference);

  it('a wrong amount stays a 402 after its stored sentence is reworded; an "already paid" refund stays a 409 whatever its sentence', async () => {
    const b = await confirmedBooking(w);
    const { reference } = expectOk<PaymentSession>(await session(w, b.id));
    stub.settle(reference, { status: 'success', amount: 100, currency: 'ZAR' });
    expectError(await pay(w, b.id, reference), 402, 'Could not activate booking. The amount paid does not match the booking total.');
    expect(await payment(w, reference)).toMatchObject({ refund_reason_code: 'wrong_amount', refund_amount_cents: 100 });
    await rewordRefund(w, reference, 'Your card was charged a different sum; it goes back to you.');
    expectError(await pay(w, b.id, reference), 402, 'Could not activate booking. Your card was charged a different sum; it goes back to you.');

    // The booking is paid with a new checkout; the old charge was already refunded. A second
    // charge of the full amount is refunded as "already paid", and answered 409 even when its
    // sentence reads like a wrong amount.
    const paid = expectOk<PaymentSession>(await session(w, b.id));
    stub.settle(paid.reference, { status: 'success', amount: b.total_price_cents, currency: 'ZAR' });
    expectOk(await pay(w, b.id, paid.reference));
    const late = 'KAROO-LATE-' + b.booking_number;
    await w.t.db.insertInto('payments').values({ reference: late, booking_id: b.id, provider: 'paystack', amount_cents: b.total_price_cents, status: 'initialized', message: null }).execute();
    stub.settle(late, { status: 'success', amount: b.total_price_cents, currency: 'ZAR' });
    expectError(await pay(w, b.id, late), 409, /already paid with another payment/);
    expect(await payment(w, late)).toMatchObject({ refund_reason_code: 'already_paid' });
    await rewordRefund(w, late, 'The amount paid does not match the booking total.');
    expectError(await pay(w, b.id, late), 409, /The amount paid does not match the booking total\. Your payment of .* is being refunded in full\./);
  });

  it('a refusal that reads "fully reversed" is not taken as a refund when Paystack has none: the refund stays pending', async () => {
    const b = await confirmedBooking(w);
    const { reference } = expectOk<PaymentSession>(await session(w, b.id));
    stub.settle(reference, { status: 'success', amount: 100, currency: 'ZAR' });
    stub.failRefund(400, 'Transaction has been fully reversed');
    try {
      expectError(await pay(w, b.id, reference), 402);
      expect(await payment(w, reference)).toMatchObject({ refund_status: 'pending', refund_reason_code: 'wrong_amount' });
      expect(await refundOfCharge(w.t.db, reference)).toMatchObject({ state: 'pending', code: 'wrong_amount', last_error: 'Transaction has been fully reversed' });
      expect(stub.refunds.has(reference)).toBe(false);
    } finally {
      stub.failRefund(null);
    }
    w.t.clock.advance(60_000);
    await runRefundJobs(w);
    expect(stub.refunds.has(reference)).toBe(true);
    w.t.clock.set(NOW);
  });

  it('a second refund refused in any words counts as done when Paystack lists one under way, or reads the charge as reversed', async () => {
    stub.alreadyRefundedMessage = 'Duplicate request: see the dashboard';
    try {
      // The refund was accepted but its answer was lost: Paystack has it pending.
      const b = await confirmedBooking(w);
      const { reference } = expectOk<PaymentSession>(await session(w, b.id));
      stub.settle(reference, { status: 'success', amount: 100, currency: 'ZAR' });
      stub.refunds.set(reference, { id: 77, amount: 100, status: 'pending' });
      expectError(await pay(w, b.id, reference), 402);
      // Taken as Paystack's refund 77, under way: pending until Paystack pays it out.
      expect(await refundOfCharge(w.t.db, reference)).toMatchObject({ state: 'pending', provider_reference: '77', last_error: null });

      // A refund already processed: the transaction reads 'reversed'.
      const c = await confirmedBooking(w);
      const second = expectOk<PaymentSession>(await session(w, c.id));
      stub.settle(second.reference, { status: 'success', amount: 100, currency: 'ZAR' });
      stub.failRefund(503);
      expectError(await pay(w, c.id, second.reference), 402);
      expect((await refundOfCharge(w.t.db, second.reference)).state).toBe('pending');
      stub.failRefund(null);
      stub.refunds.set(second.reference, { id: 78, amount: 100, status: 'processed' });
      w.t.clock.advance(60_000);
      await runRefundJobs(w);
      expect(await refundOfCharge(w.t.db, second.reference)).toMatchObject({ state: 'succeeded', last_error: null });
      expect(refundRequests(second.reference)).toHaveLength(2);

      // Paystack's refund that waits for the customer's bank details is not done: it stays pending, and says why.
      const d = await confirmedBooking(w);
      const third = expectOk<PaymentSession>(await session(w, d.id));
      stub.settle(third.reference, { status: 'success', amount: 100, currency: 'ZAR' });
      stub.refunds.set(third.reference, { id: 79, amount: 100, status: 'needs-attention' });
      expectError(await pay(w, d.id, third.reference), 402);
      const stuck = await refundOfCharge(w.t.db, third.reference);
      expect(stuck.state).toBe('pending');
      expect(stuck.last_error).toMatch(/refund 79 needs attention/);
    } finally {
      stub.alreadyRefundedMessage = 'Transaction has been fully reversed';
      stub.failRefund(null);
      w.t.clock.set(NOW);
    }
  });
});
