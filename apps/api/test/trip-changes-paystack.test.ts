// A trip change charged through Paystack (decision 081), with Paystack played by the local stub
// (helpers/bookings.ts): the longer trip is charged to the saved authorisation
// (POST /transaction/charge_authorization, Paystack's documented request), and Paystack's
// charge.success for that charge, delivered afterwards and again, is acknowledged without a second
// record or a refund: it is the change's charge, not a wrong payment of the trip.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TripChangeView } from '@karoo/shared';
import { createSignedInUser, createTestApp, expectOk, rememberedSession, type TestApp } from './helpers';
import { startPaystackStub, type PaystackStub } from './helpers/bookings';
import { createTestCar } from './helpers/vehicles';
import { entriesOfBookings, sumBookingMoney } from '../src/modules/ledger';

type Signed = Awaited<ReturnType<typeof createSignedInUser>>;

let stub: PaystackStub;
let t: TestApp;
let host: Signed;
let renter: Signed;

const hook = async (reference: string, amount: number) => {
  const body = JSON.stringify({ event: 'charge.success', data: { reference, amount, currency: 'ZAR', status: 'success' } });
  const res = await t.app.inject({ method: 'POST', url: '/api/payments/paystack/webhook', headers: { 'content-type': 'application/json', 'x-paystack-signature': stub.sign(body) }, payload: body });
  expectOk(res);
  return res.json<{ message: string }>().message;
};

beforeAll(async () => {
  stub = await startPaystackStub();
  t = await createTestApp({ env: { PAYSTACK_SECRET_KEY: stub.secret, PAYSTACK_PUBLIC_KEY: 'pk_test_karoo', PAYSTACK_BASE_URL: stub.url } });
  t.clock.set('2030-05-01T08:00:00.000Z');
  host = await rememberedSession(t.app, await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' }));
  renter = await rememberedSession(t.app, await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' }));
});
afterAll(async () => {
  await t?.close();
  await stub?.close();
});

describe('a trip change through Paystack', () => {
  it('charges the saved card once; the charge.success that follows is acknowledged, never refunded', async () => {
    const car = await createTestCar(t.ctx, host.user);
    const created = await t.app.inject({ method: 'POST', url: '/api/booking/create', headers: renter.headers, payload: { car_username: car.car_username, start_date: '2030-05-10', end_date: '2030-05-12', start_time: '09:00', end_time: '17:00' } });
    const bookingId = expectOk<{ id: string }>(created, 201).id;
    expectOk(await t.app.inject({ method: 'PATCH', url: `/api/booking/approve/${bookingId}`, headers: host.headers }));
    const trip = expectOk<{ reference: string; amount: number }>(await t.app.inject({ method: 'POST', url: `/api/booking/${bookingId}/payment-session`, headers: renter.headers }));
    stub.settle(trip.reference, { status: 'success', amount: trip.amount, currency: 'ZAR', authorization: { authorization_code: 'AUTH_karoo_card', reusable: true } });
    expectOk(await t.app.inject({ method: 'POST', url: `/api/booking/pay/${bookingId}`, headers: renter.headers, payload: { paystack_reference: trip.reference } }));

    // Two days (R 1 100) become three (R 1 650): R 550 on the saved card.
    const change = expectOk<TripChangeView>(await t.app.inject({ method: 'POST', url: `/api/booking/${bookingId}/changes`, headers: renter.headers, payload: { start_date: '2030-05-10', end_date: '2030-05-13', start_time: '09:00', end_time: '17:00', expected_net: 550 } }));
    expect(expectOk<TripChangeView>(await t.app.inject({ method: 'PATCH', url: `/api/booking/changes/${change.id}/accept`, headers: host.headers, payload: {} })).status).toBe('accepted');
    const charged = stub.requests.filter((r) => r.path === '/transaction/charge_authorization').map((r) => r.body as { authorization_code: string; amount: number; currency: string; reference: string });
    expect(charged).toEqual([expect.objectContaining({ authorization_code: 'AUTH_karoo_card', amount: 55_000, currency: 'ZAR' })]);
    const reference = charged[0]!.reference;

    const before = await entriesOfBookings(t.ctx.db, [bookingId]);
    expect(await hook(reference, 55_000)).toBe('Charge already recorded');
    expect(await hook(reference, 55_000)).toBe('Charge already recorded');
    // The trip's own charge delivered again still answers as it did.
    expect(await hook(trip.reference, trip.amount)).toBe('Booking activated');
    const after = await entriesOfBookings(t.ctx.db, [bookingId]);
    expect(after).toHaveLength(before.length);
    expect(stub.allRefunds.get(reference)).toBeUndefined();
    const m = sumBookingMoney(after);
    expect(m.chargedCents).toBe(165_000);
    expect(m.refundedCents + m.refundPendingCents).toBe(0);
  });
});
