// Payments (decisions.md section 6) against both providers: the sandbox (default, test cards)
// and Paystack, played by a local HTTP server that answers like Paystack's API. A verified
// payment activates a confirmed booking once; anything unverified leaves it confirmed and unpaid.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDay, type Booking, type PaymentSession } from '@karoo/shared';
import type { CarRow } from '../src/db/schema';
import { createSignedInUser, createTestApp, expectError, expectOk, type TestApp } from './helpers';
import { startPaystackStub, type PaystackStub } from './helpers/bookings';
import { createTestBooking, createTestCar } from './helpers/vehicles';

type Signed = Awaited<ReturnType<typeof createSignedInUser>>;
const NOW = '2030-03-10T08:00:00Z';

interface World {
  t: TestApp;
  admin: Signed;
  host: Signed;
  renter: Signed;
  other: Signed;
  car: CarRow;
  day: number;
}

async function makeWorld(env: Record<string, string> = {}): Promise<World> {
  const t = await createTestApp({ env: { BROWSE_CACHE_MS: '0', ...env } });
  t.clock.set(NOW);
  const admin = await createSignedInUser(t.app, t.ctx, { role: 'admin', verification_status: 'verified' });
  const host = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' });
  const renter = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' });
  const other = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' });
  const car = await createTestCar(t.ctx, host.user);
  return { t, admin, host, renter, other, car, day: 0 };
}

async function confirmedBooking(w: World, renter: Signed = w.renter) {
  w.day += 3;
  const start = new Date(Date.UTC(2030, 3, 1 + w.day)).toISOString().slice(0, 10);
  return createTestBooking(w.t.ctx, w.car, renter.user, { start, days: 2, status: 'confirmed' });
}

const session = (w: World, id: string, headers: Record<string, string>) =>
  w.t.app.inject({ method: 'POST', url: `/api/booking/${id}/payment-session`, headers });
const pay = (w: World, id: string, headers: Record<string, string>, reference: string) =>
  w.t.app.inject({ method: 'POST', url: `/api/booking/pay/${id}`, headers, payload: { paystack_reference: reference } });
const charge = (w: World, headers: Record<string, string>, payload: Record<string, string>) =>
  w.t.app.inject({ method: 'POST', url: '/api/payments/sandbox/charge', headers, payload });

async function row(w: World, id: string) {
  return w.t.db.selectFrom('bookings').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}
async function countPaidNotifications(w: World, userId: string) {
  return (await w.t.db.selectFrom('notifications').select('id').where('user_id', '=', userId).where('type', '=', 'booking_paid').execute()).length;
}
async function expectStillUnpaid(w: World, id: string) {
  expect(await row(w, id)).toMatchObject({ status: 'confirmed', payment_status: 'unpaid', payment_reference: null, paid_at: null });
}

describe('sandbox provider (no Paystack keys)', () => {
  let w: World;
  const card = { card_number: '4084 0840 8408 4081', expiry: '12/31', cvv: '123' };

  beforeAll(async () => {
    w = await makeWorld();
  });
  afterAll(async () => {
    await w?.t.close();
  });

  it('payment-session: the renter of a confirmed unpaid booking gets a reference tied to it, amount in cents', async () => {
    const b = await confirmedBooking(w);
    const data = expectOk<PaymentSession>(await session(w, b.id, w.renter.headers));
    expect(data).toMatchObject({ provider: 'sandbox', amount: b.total_price_cents, currency: 'ZAR', email: w.renter.user.email });
    expect(data.public_key).toBeUndefined();
    const stored = await w.t.db.selectFrom('payments').selectAll().where('reference', '=', data.reference).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ booking_id: b.id, provider: 'sandbox', amount_cents: b.total_price_cents, status: 'initialized' });
    expectError(await session(w, b.id, w.host.headers), 403, 'Only the renter can pay for this booking.');
    expectError(await session(w, b.id, w.other.headers), 404);
    const pending = await createTestBooking(w.t.ctx, w.car, w.renter.user, { start: '2030-09-01', status: 'pending' });
    expectError(await session(w, pending.id, w.renter.headers), 409, 'Payment is offered only for confirmed bookings not yet paid.');
  });

  it('a declined card leaves the booking confirmed and unpaid; the success card then pays it once', async () => {
    const b = await confirmedBooking(w);
    const { reference } = expectOk<PaymentSession>(await session(w, b.id, w.renter.headers));
    const declined = expectOk<{ status: string; message: string }>(await charge(w, w.renter.headers, { ...card, reference, card_number: '4000000000000002' }));
    expect(declined).toEqual({ status: 'failed', message: 'Your card was declined.' });
    expectError(await pay(w, b.id, w.renter.headers, reference), 402, 'Could not activate booking. The payment was not successful.');
    await expectStillUnpaid(w, b.id);

    expect(expectOk<{ status: string }>(await charge(w, w.renter.headers, { ...card, reference })).status).toBe('success');
    const res = await pay(w, b.id, w.renter.headers, reference);
    const paid = expectOk<Booking>(res);
    expect(res.json().message).toBe('Payment Successful: Booking activated!');
    expect(paid).toMatchObject({ status: 'active', payment_status: 'paid', payment_reference: reference, paid_at: new Date(NOW).toISOString(), expires_at: null });
    // The same reference again: success, activated once.
    expect(expectOk<Booking>(await pay(w, b.id, w.renter.headers, reference)).status).toBe('active');
    expect(await countPaidNotifications(w, w.renter.user.id)).toBe(1);
    expect(await countPaidNotifications(w, w.host.user.id)).toBe(1);
  });

  it('validates the card form: expiry format and date, cvv, and unknown cards fail', async () => {
    const b = await confirmedBooking(w);
    const { reference } = expectOk<PaymentSession>(await session(w, b.id, w.renter.headers));
    expectError(await charge(w, w.renter.headers, { ...card, reference, expiry: '13/30' }), 400, 'Expiry must be MM/YY');
    expectError(await charge(w, w.renter.headers, { ...card, reference, expiry: '02/30' }), 400, 'This card has expired.');
    expectError(await charge(w, w.renter.headers, { ...card, reference, cvv: '12' }), 400, 'CVV must be 3 or 4 digits');
    expect(expectOk<{ status: string }>(await charge(w, w.renter.headers, { ...card, reference, card_number: '5555555555554444' })).status).toBe('failed');
    expectError(await charge(w, w.host.headers, { ...card, reference }), 403);
    expectError(await charge(w, w.renter.headers, { ...card, reference: 'NOT-A-REFERENCE' }), 404);
    await expectStillUnpaid(w, b.id);
  });

  it('a reference of another booking, or one never issued, is refused', async () => {
    const a = await confirmedBooking(w);
    const b = await confirmedBooking(w);
    const { reference } = expectOk<PaymentSession>(await session(w, a.id, w.renter.headers));
    expectOk(await charge(w, w.renter.headers, { ...card, reference }));
    expectError(await pay(w, b.id, w.renter.headers, reference), 409, 'Could not activate booking. This payment reference belongs to another booking.');
    expectError(await pay(w, b.id, w.renter.headers, 'MADE-UP-REF'), 402);
    await expectStillUnpaid(w, b.id);
    expectOk(await pay(w, a.id, w.renter.headers, reference));
    expectError(await pay(w, b.id, w.renter.headers, reference), 409);
    await expectStillUnpaid(w, b.id);
  });

  it('only the renter pays; the webhook does not exist without Paystack', async () => {
    const b = await confirmedBooking(w);
    expectError(await pay(w, b.id, w.host.headers, 'X'), 403);
    expectError(await pay(w, b.id, w.other.headers, 'X'), 404);
    expectError(await pay(w, b.id, w.renter.headers, ''), 400);
    const hook = await w.t.app.inject({ method: 'POST', url: '/api/payments/paystack/webhook', headers: { 'content-type': 'application/json', 'x-paystack-signature': 'x' }, payload: '{}' });
    expectError(hook, 404);
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

  async function started(b: { id: string }) {
    return expectOk<PaymentSession>(await session(w, b.id, w.renter.headers));
  }

  it('payment-session initialises the transaction server-side and returns the public key', async () => {
    const b = await confirmedBooking(w);
    const data = await started(b);
    expect(data).toMatchObject({ provider: 'paystack', public_key: 'pk_test_karoo', amount: b.total_price_cents, currency: 'ZAR', access_code: `AC_${data.reference}` });
    const init = stub.requests.find((r) => r.path === '/transaction/initialize' && (r.body as { reference: string }).reference === data.reference);
    expect(init).toMatchObject({ method: 'POST', authorization: `Bearer ${stub.secret}`, body: { amount: b.total_price_cents, currency: 'ZAR', email: w.renter.user.email } });
  });

  it('a verified payment activates once; the same reference twice (even at once) activates once', async () => {
    const b = await confirmedBooking(w);
    const { reference } = await started(b);
    stub.settle(reference, { status: 'success', amount: b.total_price_cents, currency: 'ZAR' });
    const results = await Promise.all([pay(w, b.id, w.renter.headers, reference), pay(w, b.id, w.renter.headers, reference)]);
    for (const res of results) expect(expectOk<Booking>(res).status).toBe('active');
    expect(await row(w, b.id)).toMatchObject({ status: 'active', payment_status: 'paid', payment_reference: reference, payment_provider: 'paystack' });
    expect(expectOk<Booking>(await pay(w, b.id, w.renter.headers, reference)).status).toBe('active');
    const notes = await w.t.db.selectFrom('notifications').select('id').where('type', '=', 'booking_paid').where('message', 'like', `%${formatDay(b.start_date)}%`).execute();
    expect(notes).toHaveLength(2); // renter and host, once each
    expect(stub.requests.some((r) => r.path === `/transaction/verify/${reference}` && r.authorization === `Bearer ${stub.secret}`)).toBe(true);
  });

  it('wrong amount, wrong currency, failed status or unverified: 402, the booking stays confirmed and unpaid', async () => {
    const cases: [Partial<{ status: 'success' | 'failed' | 'abandoned'; amount: number; currency: string }> | null, string][] = [
      [{ status: 'success', amount: 100 }, 'The amount paid does not match the booking total.'],
      [{ status: 'success', currency: 'USD' }, 'The payment was not made in rand (ZAR).'],
      [{ status: 'failed' }, 'The payment was not successful.'],
      [{ status: 'abandoned' }, 'The payment was not successful.'],
      [null, 'The payment could not be verified.'],
    ];
    for (const [outcome, reason] of cases) {
      const b = await confirmedBooking(w);
      const { reference } = await started(b);
      if (outcome) stub.settle(reference, { status: 'success', amount: b.total_price_cents, currency: 'ZAR', ...outcome });
      else stub.transactions.delete(reference); // Paystack has never heard of it
      expectError(await pay(w, b.id, w.renter.headers, reference), 402, `Could not activate booking. ${reason}`);
      await expectStillUnpaid(w, b.id);
    }
  });

  it('a reference used for another booking is refused (409)', async () => {
    const a = await confirmedBooking(w);
    const b = await confirmedBooking(w);
    const { reference } = await started(a);
    stub.settle(reference, { status: 'success', amount: a.total_price_cents, currency: 'ZAR' });
    expectOk(await pay(w, a.id, w.renter.headers, reference));
    expectError(await pay(w, b.id, w.renter.headers, reference), 409);
    await expectStillUnpaid(w, b.id);
  });

  it('webhook: a forged signature is refused (401) and changes nothing; a signed charge.success activates', async () => {
    const b = await confirmedBooking(w);
    const { reference } = await started(b);
    stub.settle(reference, { status: 'success', amount: b.total_price_cents, currency: 'ZAR' });
    const body = JSON.stringify({ event: 'charge.success', data: { reference, amount: b.total_price_cents, currency: 'ZAR', status: 'success' } });
    const hook = (signature: string) =>
      w.t.app.inject({ method: 'POST', url: '/api/payments/paystack/webhook', headers: { 'content-type': 'application/json', 'x-paystack-signature': signature }, payload: body });

    expectError(await hook(stub.sign(body, 'sk_forged')), 401, 'Invalid webhook signature.');
    expectError(await hook(''), 401);
    await expectStillUnpaid(w, b.id);
    // A signature over different bytes (re-serialised JSON) does not match either.
    expectError(await hook(stub.sign(JSON.stringify(JSON.parse(body), null, 1))), 401);

    expectOk(await hook(stub.sign(body)));
    expect(await row(w, b.id)).toMatchObject({ status: 'active', payment_status: 'paid', payment_reference: reference });
    // A replay and the browser's own pay call afterwards both succeed without a second activation.
    expectOk(await hook(stub.sign(body)));
    expect(expectOk<Booking>(await pay(w, b.id, w.renter.headers, reference)).status).toBe('active');
  });

  it('the webhook still records a payment during maintenance mode, when the renter cannot write', async () => {
    const b = await confirmedBooking(w);
    const { reference } = await started(b);
    stub.settle(reference, { status: 'success', amount: b.total_price_cents, currency: 'ZAR' });
    const put = (on: boolean) => w.t.app.inject({ method: 'PUT', url: '/api/settings', headers: w.admin.headers, payload: { maintenance_mode: on } });
    expectOk(await put(true));
    try {
      expectError(await pay(w, b.id, w.renter.headers, reference), 503);
      const body = JSON.stringify({ event: 'charge.success', data: { reference } });
      expectOk(await w.t.app.inject({ method: 'POST', url: '/api/payments/paystack/webhook', headers: { 'content-type': 'application/json', 'x-paystack-signature': stub.sign(body) }, payload: body }));
      expect((await row(w, b.id)).status).toBe('active');
    } finally {
      expectOk(await put(false));
    }
  });

  it('webhook: when Paystack cannot be asked (5xx, dropped connection) it answers 5xx so Paystack retries; the retry activates', async () => {
    const b = await confirmedBooking(w);
    const { reference } = await started(b);
    stub.settle(reference, { status: 'success', amount: b.total_price_cents, currency: 'ZAR' });
    const body = JSON.stringify({ event: 'charge.success', data: { reference } });
    const hook = () =>
      w.t.app.inject({ method: 'POST', url: '/api/payments/paystack/webhook', headers: { 'content-type': 'application/json', 'x-paystack-signature': stub.sign(body) }, payload: body });
    try {
      for (const mode of [500, 503, 'reset'] as const) {
        stub.failVerify(mode);
        const res = await hook();
        expect(res.statusCode, `${mode}: ${res.body}`).toBeGreaterThanOrEqual(500);
        expect(res.json()).toMatchObject({ success: false });
        await expectStillUnpaid(w, b.id);
      }
    } finally {
      stub.failVerify(null);
    }
    expectOk(await hook());
    expect(await row(w, b.id)).toMatchObject({ status: 'active', payment_status: 'paid', payment_reference: reference });
  });

  it('webhook: an event that was handled or rightly refused is acknowledged with 200 (no retry)', async () => {
    const b = await confirmedBooking(w);
    const { reference } = await started(b);
    // Paystack says the charge failed: nothing to retry, the booking stays unpaid.
    stub.settle(reference, { status: 'failed', amount: b.total_price_cents, currency: 'ZAR' });
    const body = JSON.stringify({ event: 'charge.success', data: { reference } });
    const res = await w.t.app.inject({ method: 'POST', url: '/api/payments/paystack/webhook', headers: { 'content-type': 'application/json', 'x-paystack-signature': stub.sign(body) }, payload: body });
    expectOk(res);
    await expectStillUnpaid(w, b.id);
  });

  it('the webhook ignores other events and unknown references; the sandbox charge is 404', async () => {
    const body = JSON.stringify({ event: 'transfer.success', data: { reference: 'nope' } });
    expectOk(await w.t.app.inject({ method: 'POST', url: '/api/payments/paystack/webhook', headers: { 'content-type': 'application/json', 'x-paystack-signature': stub.sign(body) }, payload: body }));
    const b = await confirmedBooking(w);
    const { reference } = await started(b);
    expectError(await charge(w, w.renter.headers, { reference, card_number: '4084084084084081', expiry: '12/31', cvv: '123' }), 404);
  });
});
