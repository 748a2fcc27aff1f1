// The payment link of trip charges a saved card declined (issue 34; decision 073), with Paystack
// played by the local stub (helpers/bookings.ts), as payments.test.ts does: the link is a Paystack
// initialize of exactly what is owed, a failed charge leaves it owed and the next link is a new
// checkout, a charge of the wrong amount is refunded and pays nothing, the right one is recorded
// once however often the webhook or the verify call delivers it, and a late second charge after the
// claim is paid is refunded in full. The sandbox's link is in trip-charges.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { createSignedInUser, createTestApp, expectError, expectOk, multipart, rememberedSession, type TestApp } from './helpers';
import { startPaystackStub, type PaystackStub } from './helpers/bookings';
import { createTestCar } from './helpers/vehicles';
import { entriesOfBookings, sumBookingMoney } from '../src/modules/ledger';

type Signed = Awaited<ReturnType<typeof createSignedInUser>>;
type Session = { provider: string; reference: string; amount: number; authorization_url?: string; access_code?: string };
type Claim = { id: string; owed: number; from_card: number; from_deposit: number; payment_state: string };

let stub: PaystackStub;
let t: TestApp;
let host: Signed;
let renter: Signed;
let bookingId: string;
let claim: Claim;

const webhook = (reference: string, amount: number) => {
  const body = JSON.stringify({ event: 'charge.success', data: { reference, amount, currency: 'ZAR', status: 'success' } });
  return t.app.inject({ method: 'POST', url: '/api/payments/paystack/webhook', headers: { 'content-type': 'application/json', 'x-paystack-signature': stub.sign(body) }, payload: body });
};
/** Paystack's charge.success delivered, signed: what the webhook said it did (always 200 for a verdict). */
async function hook(reference: string, amount: number): Promise<string> {
  const res = await webhook(reference, amount);
  expectOk(res);
  return res.json<{ message: string }>().message;
}
const link = () => t.app.inject({ method: 'POST', url: `/api/claims/${claim.id}/payment`, headers: renter.headers });
const verify = (reference: string) => t.app.inject({ method: 'POST', url: `/api/claims/${claim.id}/payment/verify`, headers: renter.headers, payload: { reference } });
const claimRows = async () =>
  (await t.ctx.db.selectFrom('ledger_entries').select(['kind', 'code', 'amount_cents', 'state']).where('booking_id', '=', bookingId).orderBy('seq').execute()).filter((r) => r.code.startsWith('claim') || r.kind === 'refund');
const initialized = () => stub.requests.filter((r) => r.path === '/transaction/initialize').map((r) => r.body as { reference: string; amount: number });

beforeAll(async () => {
  stub = await startPaystackStub();
  t = await createTestApp({ env: { PAYSTACK_SECRET_KEY: stub.secret, PAYSTACK_PUBLIC_KEY: 'pk_test_karoo', PAYSTACK_BASE_URL: stub.url } });
  t.clock.set('2030-05-01T08:00:00.000Z');
  host = await rememberedSession(t.app, await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' }));
  renter = await rememberedSession(t.app, await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' }));
  const car = await createTestCar(t.ctx, host.user, { price: 600, overrides: { deposit_cents: 350_000 } });
  const created = await t.app.inject({ method: 'POST', url: '/api/booking/create', headers: renter.headers, payload: { car_username: car.car_username, start_date: '2030-05-03', end_date: '2030-05-04', start_time: '09:00', end_time: '17:00' } });
  bookingId = expectOk<{ id: string }>(created, 201).id;
  expectOk(await t.app.inject({ method: 'PATCH', url: `/api/booking/approve/${bookingId}`, headers: host.headers }));
  const trip = expectOk<Session>(await t.app.inject({ method: 'POST', url: `/api/booking/${bookingId}/payment-session`, headers: renter.headers }));
  // Paystack's answer carries no reusable authorisation: a claim beyond the deposit is declined.
  stub.settle(trip.reference, { status: 'success', amount: trip.amount, currency: 'ZAR' });
  expectOk(await t.app.inject({ method: 'POST', url: `/api/booking/pay/${bookingId}`, headers: renter.headers, payload: { paystack_reference: trip.reference } }));
  t.clock.set('2030-05-04T14:50:00.000Z');
  expectOk(await t.app.inject({ method: 'PATCH', url: `/api/car/returnCar/${car.car_username}`, headers: host.headers, payload: {} }));
  t.clock.set('2030-05-04T16:00:00.000Z');
  const photo = await sharp({ create: { width: 320, height: 240, channels: 3, background: '#2e86c1' } }).jpeg().toBuffer();
  const body = multipart([
    { name: 'claim', value: JSON.stringify({ items: [{ kind: 'damage', amount: 5000 }], statement: 'The quote for the bumper is attached.' }) },
    { name: 'evidence', filename: 'quote.jpg', data: photo, contentType: 'image/jpeg' },
  ]);
  const filed = expectOk<Claim>(await t.app.inject({ method: 'POST', url: `/api/booking/${bookingId}/claims`, headers: { ...host.headers, ...body.headers }, payload: body.payload }), 201);
  claim = expectOk<Claim>(await t.app.inject({ method: 'POST', url: `/api/claims/${filed.id}/answer`, headers: renter.headers, payload: { answer: 'accept' } }));
});
afterAll(async () => {
  await t?.close();
  await stub?.close();
});

describe('a claim payment link through Paystack', () => {
  it('pays exactly what is owed once, refunds a wrong amount and a late second charge', async () => {
    expect(claim).toMatchObject({ from_deposit: 3500, from_card: 0, owed: 1500, payment_state: 'card_declined' });

    // A Paystack checkout of R 1 500, its hosted page answered to the browser.
    const a = expectOk<Session>(await link());
    expect(a).toMatchObject({ provider: 'paystack', amount: 150_000, access_code: `AC_${a.reference}`, authorization_url: `https://checkout.paystack.test/${a.reference}` });
    expect(initialized().at(-1)).toMatchObject({ reference: a.reference, amount: 150_000 });
    expect(expectOk<Session>(await link()).reference).toBe(a.reference);
    expect(initialized()).toHaveLength(2);

    // Declined on Paystack's page: nothing paid, and the next link is a new checkout.
    stub.settle(a.reference, { status: 'failed', amount: 150_000, currency: 'ZAR' });
    expectError(await verify(a.reference), 402, /not paid/);
    const b = expectOk<Session>(await link());
    expect(b.reference).not.toBe(a.reference);

    // Charged another amount (not what the link asked): refunded in full, the claim still owed.
    stub.settle(b.reference, { status: 'success', amount: 100_000, currency: 'ZAR' });
    expect(await hook(b.reference, 100_000)).toBe('Charge refunded');
    expectError(await verify(b.reference), 402, /does not match what is owed/);
    expect(stub.allRefunds.get(b.reference)?.map((r) => r.amount)).toEqual([100_000]);
    const c = expectOk<Session>(await link());
    expect(c.reference).not.toBe(b.reference);

    stub.settle(c.reference, { status: 'success', amount: 150_000, currency: 'ZAR' });
    expect(await hook(c.reference, 150_000)).toBe('Trip charges paid');
    const once = await claimRows();
    // A replayed webhook and the browser's verify call afterwards: paid once.
    expect(await hook(c.reference, 150_000)).toBe('Trip charges paid');
    expect(expectOk<Claim>(await verify(c.reference))).toMatchObject({ from_card: 1500, owed: 0, payment_state: 'paid' });
    expect(await claimRows()).toEqual(once);

    // The first checkout's page was retried and charged after all: the claim is paid, so it goes back.
    stub.settle(a.reference, { status: 'success', amount: 150_000, currency: 'ZAR' });
    expect(await hook(a.reference, 150_000)).toBe('Charge refunded');
    expect(stub.allRefunds.get(a.reference)?.map((r) => r.amount)).toEqual([150_000]);
    expectError(await verify(a.reference), 409, /already paid[\s\S]*refunded in full/);

    expect((await claimRows()).map((r) => [r.kind, r.code, r.amount_cents, r.state])).toEqual([
      ['deposit_applied', 'claim_damage', 350_000, 'succeeded'],
      ['host_earning', 'claim_damage', 297_500, 'succeeded'],
      ['platform_fee', 'claim_fee', 52_500, 'succeeded'],
      ['charge', 'claim', 100_000, 'succeeded'],
      ['refund', 'wrong_amount', 100_000, 'succeeded'],
      // R 1 500 of damage by card: 15 % (R 225) to the platform, so that the line's shares are those of R 5 000.
      ['charge', 'claim', 150_000, 'succeeded'],
      ['host_earning', 'claim_damage', 127_500, 'succeeded'],
      ['platform_fee', 'claim_fee', 22_500, 'succeeded'],
      ['charge', 'claim', 150_000, 'succeeded'],
      ['refund', 'already_paid', 150_000, 'succeeded'],
    ]);
    const money = sumBookingMoney(await entriesOfBookings(t.ctx.db, [bookingId]));
    expect(money.chargedCents + money.depositAppliedCents - money.refundedCents - money.refundPendingCents).toBe(money.hostShareCents + money.platformShareCents);
    const refundNotices = await t.ctx.db.selectFrom('notifications').select('message').where('user_id', '=', renter.user.id).where('type', '=', 'payment_refunded').execute();
    expect(refundNotices.map((n) => n.message)).toEqual([expect.stringMatching(/does not match what is owed/), expect.stringMatching(/already paid/)]);
  });
});
