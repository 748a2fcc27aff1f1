// One charge per booking (issue 12; docs/decisions/024-one-charge-per-booking.md): one open checkout
// per booking, also under concurrent initialise requests; a second successful charge (or one that
// arrives after the booking expired) is refunded through the provider, recorded and told to the
// renter; the same charge delivered twice changes nothing; a refund the provider refused is retried.
// Both providers: the sandbox, and Paystack played by the local stub (helpers/bookings.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Booking, type PaymentSession } from '@karoo/shared';
import type { CarRow } from '../src/db/schema';
import { refundOfCharge, runRefundJobs } from './helpers/refunds';
import { sumBookingMoney } from '../src/modules/ledger';
import { createSignedInUser, createTestApp, expectError, expectOk, type TestApp } from './helpers';
import { startPaystackStub, type PaystackStub } from './helpers/bookings';
import { createTestBooking, createTestCar } from './helpers/vehicles';

type Signed = Awaited<ReturnType<typeof createSignedInUser>>;
const NOW = '2030-03-10T08:00:00Z';
const HOUR = 3_600_000;

interface World {
  t: TestApp;
  admin: Signed;
  host: Signed;
  renter: Signed;
  car: CarRow;
  day: number;
}

async function makeWorld(env: Record<string, string> = {}): Promise<World> {
  const t = await createTestApp({ env: { BROWSE_CACHE_MS: '0', ...env } });
  t.clock.set(NOW);
  const admin = await createSignedInUser(t.app, t.ctx, { role: 'admin', verification_status: 'verified' });
  const host = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' });
  const renter = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' });
  const car = await createTestCar(t.ctx, host.user);
  return { t, admin, host, renter, car, day: 0 };
}

async function confirmedBooking(w: World) {
  w.day += 3;
  const start = new Date(Date.UTC(2030, 3, 1 + w.day)).toISOString().slice(0, 10);
  return createTestBooking(w.t.ctx, w.car, w.renter.user, { start, days: 2, status: 'confirmed' });
}

const session = (w: World, id: string) => w.t.app.inject({ method: 'POST', url: `/api/booking/${id}/payment-session`, headers: w.renter.headers });
const pay = (w: World, id: string, reference: string) =>
  w.t.app.inject({ method: 'POST', url: `/api/booking/pay/${id}`, headers: w.renter.headers, payload: { paystack_reference: reference } });
const charge = (w: World, reference: string, card_number = '4084084084084081') =>
  w.t.app.inject({ method: 'POST', url: '/api/payments/sandbox/charge', headers: w.renter.headers, payload: { reference, card_number, expiry: '12/31', cvv: '123' } });

const bookingRow = (w: World, id: string) => w.t.db.selectFrom('bookings').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const paymentsOf = (w: World, bookingId: string) => w.t.db.selectFrom('payments').selectAll().where('booking_id', '=', bookingId).orderBy('created_at').execute();
/** The unpaid booking's deadline passes (the expiry sweep cancels it on the next write). */
async function pastDeadline(w: World, id: string) {
  await w.t.db.updateTable('bookings').set({ expires_at: new Date(w.t.clock.now().getTime() - 60_000) }).where('id', '=', id).execute();
}
const notesOf = async (w: World, userId: string, type: string) =>
  w.t.db.selectFrom('notifications').selectAll().where('user_id', '=', userId).where('type', '=', type).orderBy('created_at').execute();

/**
 * Every rand that came in is on a booking or refunded: what the provider charged for a booking's
 * references adds up to what pays the booking (its total, once, when paid) plus what is refunded
 * (pending or done); the one charge kept is the booking's own.
 */
async function expectMoneyAddsUp(w: World, bookingId: string, chargedCents: (reference: string) => number) {
  const rows = await paymentsOf(w, bookingId);
  const b = await bookingRow(w, bookingId);
  const chargesIn = rows.reduce((sum, p) => sum + chargedCents(p.reference), 0);
  const onBooking = b.payment_status === 'paid' ? b.total_price_cents : 0;
  const refunded = rows.filter((p) => p.refund_status !== null).reduce((sum, p) => sum + (p.refund_amount_cents ?? 0), 0);
  expect(chargesIn).toBeGreaterThan(0);
  expect(chargesIn).toBe(onBooking + refunded);
  const kept = rows.filter((p) => p.status === 'success' && p.refund_status === null);
  expect(kept.map((p) => p.reference)).toEqual(b.payment_status === 'paid' ? [b.payment_reference] : []);
  // The ledger says the same: what the provider charged is its charges, and they are the booking's
  // shares (its total, once) plus its refunds.
  const money = sumBookingMoney(await w.t.db.selectFrom('ledger_entries').selectAll().where('booking_id', '=', bookingId).execute());
  expect(money.chargedCents).toBe(chargesIn);
  expect(money.hostShareCents + money.platformShareCents).toBe(onBooking);
  expect(money.refundedCents + money.refundPendingCents).toBe(refunded);
}

describe('sandbox provider', () => {
  let w: World;
  /** The sandbox's books: a reference it charged has status success in its record. */
  const sandboxCharged = (id: string) => {
    const cache = new Map<string, number>();
    return async () => {
      for (const p of await paymentsOf(w, id)) cache.set(p.reference, p.status === 'success' ? p.amount_cents : 0);
      return (reference: string) => cache.get(reference) ?? 0;
    };
  };

  beforeAll(async () => {
    w = await makeWorld();
  });
  afterAll(async () => {
    await w?.t.close();
  });

  it('two concurrent initialise requests for one booking return the same session; a later one too', async () => {
    const b = await confirmedBooking(w);
    const results = await Promise.all(Array.from({ length: 4 }, () => session(w, b.id)));
    const sessions = results.map((res) => expectOk<PaymentSession>(res));
    expect(new Set(sessions.map((s) => s.reference)).size).toBe(1);
    expect(expectOk<PaymentSession>(await session(w, b.id))).toEqual(sessions[0]);
    const rows = await paymentsOf(w, b.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'initialized', reference: sessions[0]!.reference });
  });

  it('a declined card closes the checkout: the next initialise opens a new one', async () => {
    const b = await confirmedBooking(w);
    const first = expectOk<PaymentSession>(await session(w, b.id));
    expect(expectOk<{ status: string }>(await charge(w, first.reference, '4000000000000002')).status).toBe('failed');
    const second = expectOk<PaymentSession>(await session(w, b.id));
    expect(second.reference).not.toBe(first.reference);
    expect((await paymentsOf(w, b.id)).map((p) => `${p.reference === first.reference ? 'first' : 'second'}:${p.status}`).sort()).toEqual(['first:failed', 'second:initialized']);
  });

  it('two successful charges for one booking, settled at once: one activation, one refund, recorded and told', async () => {
    const b = await confirmedBooking(w);
    // Two checkouts of one booking (the first declined, then charged again in another tab).
    const first = expectOk<PaymentSession>(await session(w, b.id));
    expectOk(await charge(w, first.reference, '4000000000000002'));
    const second = expectOk<PaymentSession>(await session(w, b.id));
    const charged = await Promise.all([charge(w, first.reference), charge(w, second.reference)]);
    for (const res of charged) expect(expectOk<{ status: string }>(res).status).toBe('success');
    const paid = await Promise.all([pay(w, b.id, first.reference), pay(w, b.id, second.reference)]);
    const ok = paid.filter((res) => res.statusCode === 200);
    expect(ok).toHaveLength(1);
    const refusedRes = paid.find((res) => res.statusCode !== 200)!;
    expectError(refusedRes, 409, /already paid with another payment\. Your payment of R[\d\s ,]+ is being refunded in full\./);

    const booking = await bookingRow(w, b.id);
    expect(booking).toMatchObject({ status: 'active', payment_status: 'paid' });
    const rows = await paymentsOf(w, b.id);
    const refundedRows = rows.filter((p) => p.refund_status !== null);
    expect(refundedRows).toHaveLength(1);
    const refund = refundedRows[0]!;
    expect(refund.reference).not.toBe(booking.payment_reference);
    expect(refund).toMatchObject({
      status: 'success',
      refund_status: 'pending',
      refund_amount_cents: b.total_price_cents,
      refund_reason: 'This booking was already paid with another payment.',
    });
    // The refund is a ledger row, accepted by the sandbox at the first ask.
    const ledgerRefund = await refundOfCharge(w.t.db, refund.reference);
    expect(ledgerRefund).toMatchObject({
      state: 'succeeded',
      amount_cents: b.total_price_cents,
      reason: 'This booking was already paid with another payment.',
      provider_reference: `SANDBOX-REFUND-${ledgerRefund.id}`,
      attempts: 1,
    });
    expect(ledgerRefund.moved_at).not.toBeNull();
    await expectMoneyAddsUp(w, b.id, await sandboxCharged(b.id)());

    // Activated once (renter and host told once), the renter told of the refund in the app and by email.
    expect(await notesOf(w, w.renter.user.id, 'booking_paid')).toHaveLength(1);
    const notices = await notesOf(w, w.renter.user.id, 'payment_refunded');
    expect(notices).toHaveLength(1);
    expect(notices[0]!.message).toContain(refund.reference);
    expect(notices[0]!.message).toContain('being refunded in full');
    const mail = (await w.t.outbox.list(w.renter.user.email)).filter((m) => m.subject.startsWith('Payment refunded (booking '));
    expect(mail).toHaveLength(1);

    // The same charges again (a second pay call, a second checkout submit): nothing changes.
    expect(expectOk<Booking>(await pay(w, b.id, booking.payment_reference!)).status).toBe('active');
    expectError(await pay(w, b.id, refund.reference), 409, /being refunded in full/);
    expect(expectOk<{ message: string }>(await charge(w, refund.reference)).message).toMatch(/being refunded in full/);
    expect(await notesOf(w, w.renter.user.id, 'booking_paid')).toHaveLength(1);
    expect(await notesOf(w, w.renter.user.id, 'payment_refunded')).toHaveLength(1);
    expect(await refundOfCharge(w.t.db, refund.reference)).toMatchObject({ attempts: 1, state: 'succeeded' });
    await expectMoneyAddsUp(w, b.id, await sandboxCharged(b.id)());
  });

  it('a charge arriving after the booking expired is refunded; the pay call says so', async () => {
    const b = await confirmedBooking(w);
    const { reference } = expectOk<PaymentSession>(await session(w, b.id));
    await pastDeadline(w, b.id);
    try {
      const res = expectOk<{ status: string; message: string }>(await charge(w, reference));
      expect(res).toEqual({ status: 'success', message: 'Payment approved. This booking had expired before the payment arrived. It is being refunded in full.' });
      expect(await bookingRow(w, b.id)).toMatchObject({ status: 'cancelled', payment_status: 'unpaid', payment_reference: null });
      expect(await refundOfCharge(w.t.db, reference)).toMatchObject({ state: 'succeeded', amount_cents: b.total_price_cents });
      expectError(await pay(w, b.id, reference), 409, /had expired before the payment arrived\. Your payment of .* is being refunded in full\./);
      expect(await notesOf(w, w.renter.user.id, 'payment_refunded')).toHaveLength(2);
      await expectMoneyAddsUp(w, b.id, await sandboxCharged(b.id)());
    } finally {
      w.t.clock.set(NOW);
    }
  });

  it('revenue counts the booking once: refunded charges are not in admin finance or stats', async () => {
    const finance = expectOk<{ totals: { gross: number; bookings: number } }>(await w.t.app.inject({ method: 'GET', url: '/api/earnings/admin/finance', headers: w.admin.headers }));
    const paid = await w.t.db.selectFrom('bookings').select('total_price_cents').where('payment_status', '=', 'paid').execute();
    const refunds = await w.t.db.selectFrom('ledger_entries').select(['state']).where('kind', '=', 'refund').execute();
    expect(refunds.some((r) => r.state === 'succeeded')).toBe(true);
    expect(finance.totals.bookings).toBe(paid.length);
    expect(Math.round(finance.totals.gross * 100)).toBe(paid.reduce((sum, p) => sum + p.total_price_cents, 0));
    const stats = expectOk<{ total_revenue: number }>(await w.t.app.inject({ method: 'GET', url: '/api/booking/getStats', headers: w.admin.headers }));
    expect(Math.round(stats.total_revenue * 100)).toBe(paid.reduce((sum, p) => sum + p.total_price_cents, 0));
  });
});

describe('Paystack provider (local stub)', () => {
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

  const hook = (reference: string) => {
    const body = JSON.stringify({ event: 'charge.success', data: { reference } });
    return w.t.app.inject({ method: 'POST', url: '/api/payments/paystack/webhook', headers: { 'content-type': 'application/json', 'x-paystack-signature': stub.sign(body) }, payload: body });
  };
  /** Paystack's books: what it charged for a reference. */
  const paystackCharged = (reference: string) => {
    const tx = stub.transactions.get(reference);
    return tx?.status === 'success' ? tx.amount : 0;
  };
  const refundRequests = (reference: string) => stub.requests.filter((r) => r.path === '/refund' && (r.body as { transaction: string }).transaction === reference);

  it('concurrent initialise requests get the same reference, access code and authorisation URL; Paystack is asked once', async () => {
    const b = await confirmedBooking(w);
    const sessions = (await Promise.all([session(w, b.id), session(w, b.id), session(w, b.id)])).map((res) => expectOk<PaymentSession>(res));
    const [first] = sessions;
    for (const s of sessions) expect(s).toEqual(first);
    expect(first).toMatchObject({ provider: 'paystack', access_code: `AC_${first!.reference}`, authorization_url: `https://checkout.paystack.test/${first!.reference}` });
    expect(expectOk<PaymentSession>(await session(w, b.id))).toEqual(first);
    const inits = stub.requests.filter((r) => r.path === '/transaction/initialize' && (r.body as { reference: string }).reference.startsWith(`KAROO-${b.booking_number}-`));
    expect(inits).toHaveLength(1);
  });

  it('two successful charges verified in parallel (pay calls and webhooks): one activation, one refund through Paystack', async () => {
    const b = await confirmedBooking(w);
    const first = expectOk<PaymentSession>(await session(w, b.id));
    // The first checkout fails, so the renter gets a second one; then both end up charged.
    stub.settle(first.reference, { status: 'failed', amount: b.total_price_cents, currency: 'ZAR' });
    expectError(await pay(w, b.id, first.reference), 402, 'Could not activate booking. The payment was not successful.');
    const second = expectOk<PaymentSession>(await session(w, b.id));
    expect(second.reference).not.toBe(first.reference);
    for (const ref of [first.reference, second.reference]) stub.settle(ref, { status: 'success', amount: b.total_price_cents, currency: 'ZAR' });

    const paidBefore = (await notesOf(w, w.renter.user.id, 'booking_paid')).length;
    const hostPaidBefore = (await notesOf(w, w.host.user.id, 'booking_paid')).length;
    const results = await Promise.all([pay(w, b.id, first.reference), pay(w, b.id, second.reference), hook(first.reference), hook(second.reference)]);
    for (const res of results.slice(2)) expectOk(res);
    const booking = await bookingRow(w, b.id);
    expect(booking).toMatchObject({ status: 'active', payment_status: 'paid', payment_provider: 'paystack' });
    const kept = booking.payment_reference!;
    const other = kept === first.reference ? second.reference : first.reference;
    // The pay call of the kept charge answers the booking, the other one the refund.
    expect(expectOk<Booking>(results[kept === first.reference ? 0 : 1]!).status).toBe('active');
    expectError(results[kept === first.reference ? 1 : 0]!, 409, /already paid with another payment/);

    expect(refundRequests(kept)).toHaveLength(0);
    expect(refundRequests(other)).toHaveLength(1);
    expect(refundRequests(other)[0]).toMatchObject({ method: 'POST', authorization: `Bearer ${stub.secret}`, body: { transaction: other, amount: b.total_price_cents } });
    expect(stub.refunds.get(other)).toEqual({ id: expect.any(Number), amount: b.total_price_cents, status: 'processed' });
    const refund = (await paymentsOf(w, b.id)).find((p) => p.reference === other)!;
    expect(refund).toMatchObject({ status: 'success', refund_status: 'pending', refund_amount_cents: b.total_price_cents });
    expect(await refundOfCharge(w.t.db, other)).toMatchObject({ state: 'succeeded', amount_cents: b.total_price_cents, provider_reference: String(stub.refunds.get(other)!.id) });
    await expectMoneyAddsUp(w, b.id, paystackCharged);
    // One activation: renter and host told once; the renter told of the refund once.
    const paidCount = (await notesOf(w, w.renter.user.id, 'booking_paid')).length;
    expect(paidCount).toBe(paidBefore + 1);
    expect((await notesOf(w, w.host.user.id, 'booking_paid')).length).toBe(hostPaidBefore + 1);
    const refundCount = (await notesOf(w, w.renter.user.id, 'payment_refunded')).length;
    expect(refundCount).toBe(1);

    // Duplicate delivery of the same charges (Paystack retries the webhook, the browser pays again).
    const again = await Promise.all([hook(first.reference), hook(second.reference), pay(w, b.id, kept), pay(w, b.id, other), hook(kept)]);
    for (const res of again.slice(0, 2)) expectOk(res);
    expect(expectOk<Booking>(again[2]!).status).toBe('active');
    expectError(again[3]!, 409, /being refunded in full/);
    expectOk(again[4]!);
    expect(refundRequests(kept)).toHaveLength(0);
    expect(refundRequests(other)).toHaveLength(1);
    expect((await bookingRow(w, b.id)).payment_reference).toBe(kept);
    expect(await notesOf(w, w.renter.user.id, 'booking_paid')).toHaveLength(paidCount);
    expect(await notesOf(w, w.renter.user.id, 'payment_refunded')).toHaveLength(refundCount);
    await expectMoneyAddsUp(w, b.id, paystackCharged);
  });

  it('the one real payment delivered twice at once is never refunded', async () => {
    const b = await confirmedBooking(w);
    const { reference } = expectOk<PaymentSession>(await session(w, b.id));
    stub.settle(reference, { status: 'success', amount: b.total_price_cents, currency: 'ZAR' });
    const results = await Promise.all([hook(reference), hook(reference), pay(w, b.id, reference), pay(w, b.id, reference)]);
    for (const res of results) expectOk(res);
    expect(await bookingRow(w, b.id)).toMatchObject({ status: 'active', payment_reference: reference });
    expect(refundRequests(reference)).toHaveLength(0);
    expect((await paymentsOf(w, b.id))[0]).toMatchObject({ status: 'success', refund_status: null });
    await expectMoneyAddsUp(w, b.id, paystackCharged);
  });

  it('a charge after expiry whose refund Paystack does not accept stays pending and is retried until it is', async () => {
    const b = await confirmedBooking(w);
    const { reference } = expectOk<PaymentSession>(await session(w, b.id));
    stub.settle(reference, { status: 'success', amount: b.total_price_cents, currency: 'ZAR' });
    await pastDeadline(w, b.id);
    const start = w.t.clock.now().getTime();
    try {
      stub.failRefund(503);
      const res = expectOk<{ message: string }>(await hook(reference));
      expect(res).toBeDefined();
      expect((await bookingRow(w, b.id)).status).toBe('cancelled');
      expect((await paymentsOf(w, b.id))[0]!).toMatchObject({ status: 'success', refund_status: 'pending', refund_amount_cents: b.total_price_cents });
      let row = await refundOfCharge(w.t.db, reference);
      expect(row).toMatchObject({ state: 'pending', amount_cents: b.total_price_cents, attempts: 1, reason: 'This booking had expired before the payment arrived.' });
      expect(row.last_error).toMatch(/not answering/);
      expect(row.next_attempt_at!.getTime()).toBe(start + 60_000);
      expect(await notesOf(w, w.renter.user.id, 'payment_refunded')).toHaveLength(2);
      await expectMoneyAddsUp(w, b.id, paystackCharged);

      // Not due yet: nothing is asked. Due, and refused again (a 400): the wait doubles.
      await runRefundJobs(w);
      expect((await refundOfCharge(w.t.db, reference)).attempts).toBe(1);
      expect(refundRequests(reference)).toHaveLength(1);
      stub.failRefund(400);
      w.t.clock.advance(60_000);
      await runRefundJobs(w);
      row = await refundOfCharge(w.t.db, reference);
      expect(row).toMatchObject({ state: 'pending', attempts: 2, last_error: 'Refund cannot be processed right now' });
      expect(row.next_attempt_at!.getTime()).toBe(start + 60_000 + 60_000);

      // A webhook replay meanwhile does not start a second refund.
      expectOk(await hook(reference));
      expect((await refundOfCharge(w.t.db, reference)).attempts).toBe(2);

      // The job's first retry comes 60 to 120 s later (pg-boss's backoff, with jitter).
      stub.failRefund(null);
      w.t.clock.advance(120_000);
      await runRefundJobs(w);
      row = await refundOfCharge(w.t.db, reference);
      expect(row).toMatchObject({ state: 'succeeded', attempts: 3, last_error: null, next_attempt_at: null });
      expect(row.moved_at!.getTime()).toBe(start + 60_000 + 120_000);
      expect(stub.refunds.has(reference)).toBe(true);
      w.t.clock.advance(HOUR);
      await runRefundJobs(w);
      expect(refundRequests(reference)).toHaveLength(3);
      expect(await notesOf(w, w.renter.user.id, 'payment_refunded')).toHaveLength(2);
      await expectMoneyAddsUp(w, b.id, paystackCharged);
    } finally {
      stub.failRefund(null);
      w.t.clock.set(NOW);
    }
  });

  it('a refund answered as already done (a retry after a lost answer) counts as refunded', async () => {
    const b = await confirmedBooking(w);
    const { reference } = expectOk<PaymentSession>(await session(w, b.id));
    stub.settle(reference, { status: 'success', amount: 100, currency: 'ZAR' });
    // A wrong amount is refused as before (402) and what came in goes back.
    stub.refunds.set(reference, { id: 77, amount: 100 });
    expectError(await pay(w, b.id, reference), 402, 'Could not activate booking. The amount paid does not match the booking total.');
    // Paystack has it under way (not paid out yet): the row keeps Paystack's id and waits; no second refund is asked.
    expect(await refundOfCharge(w.t.db, reference)).toMatchObject({ state: 'pending', amount_cents: 100, provider_reference: '77' });
    stub.refunds.set(reference, { id: 77, amount: 100, status: 'processed' });
    w.t.clock.advance(60_000);
    await runRefundJobs(w);
    expect(await refundOfCharge(w.t.db, reference)).toMatchObject({ state: 'succeeded', amount_cents: 100, provider_reference: '77' });
    expect(refundRequests(reference)).toHaveLength(1);
    w.t.clock.set(NOW);
    expect((await bookingRow(w, b.id)).status).toBe('confirmed');
    await expectMoneyAddsUp(w, b.id, paystackCharged);
    // The booking can still be paid: a new checkout.
    const next = expectOk<PaymentSession>(await session(w, b.id));
    expect(next.reference).not.toBe(reference);
  });
});
