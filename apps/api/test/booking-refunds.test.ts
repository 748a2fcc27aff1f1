// Refunds on the booking answer (docs/decisions/024-one-charge-per-booking.md, "Refunds on the
// booking answer"): a charge refunded because the booking was already paid (or had expired) shows
// in the booking's `refunds` for the renter and admins, never for the car owner; every list that
// answers bookings carries them, fetched for the whole list in one query.
import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Booking, BookingRefund, PaymentSession } from '@karoo/shared';
import type { BookingRow, CarRow } from '../src/db/schema';
import { createSignedInUser, createTestApp, expectError, expectOk, type TestApp } from './helpers';
import { runRefundJobs } from './helpers/refunds';
import { startPaystackStub, type PaystackStub } from './helpers/bookings';
import { createTestBooking, createTestCar } from './helpers/vehicles';

type Signed = Awaited<ReturnType<typeof createSignedInUser>>;
const NOW = '2030-03-10T08:00:00.000Z';

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

const get = (w: World, url: string, who: Signed) => w.t.app.inject({ method: 'GET', url, headers: who.headers });
const bookingAs = async (w: World, id: string, who: Signed) => expectOk<Booking>(await get(w, `/api/booking/${id}`, who));
const session = (w: World, id: string) => w.t.app.inject({ method: 'POST', url: `/api/booking/${id}/payment-session`, headers: w.renter.headers });
const pay = (w: World, id: string, reference: string) =>
  w.t.app.inject({ method: 'POST', url: `/api/booking/pay/${id}`, headers: w.renter.headers, payload: { paystack_reference: reference } });
const charge = (w: World, reference: string, card_number = '4084084084084081') =>
  w.t.app.inject({ method: 'POST', url: '/api/payments/sandbox/charge', headers: w.renter.headers, payload: { reference, card_number, expiry: '12/31', cvv: '123' } });
const refundsIn = (list: Booking[], id: string) => list.find((b) => b.id === id)?.refunds;

/** Runs `fn` and counts the SELECTs that read the ledger meanwhile (the routes read ctx.db per request). */
async function paymentReads(w: World, fn: () => Promise<void>): Promise<number> {
  let reads = 0;
  const counter: KyselyPlugin = {
    transformQuery: ({ node }) => {
      if (node.kind === 'SelectQueryNode' && JSON.stringify(node.from).includes('"ledger_entries"')) reads += 1;
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  const original = w.t.ctx.db;
  w.t.ctx.db = original.withPlugin(counter);
  try {
    await fn();
  } finally {
    w.t.ctx.db = original;
  }
  return reads;
}

describe('sandbox: a booking paid twice', () => {
  let w: World;
  let doubled: BookingRow;
  let paidOnce: BookingRow;
  let unpaid: BookingRow;
  let kept: string;
  let refunded: string;

  beforeAll(async () => {
    w = await makeWorld();
    // Two checkouts of one booking: the first declined, a second opened and charged (the booking is
    // paid), then the first charged too in another tab: that charge is refunded.
    doubled = await confirmedBooking(w);
    const first = expectOk<PaymentSession>(await session(w, doubled.id));
    expectOk(await charge(w, first.reference, '4000000000000002'));
    const second = expectOk<PaymentSession>(await session(w, doubled.id));
    expect(expectOk<{ message: string }>(await charge(w, second.reference)).message).toBe('Payment approved.');
    expect(expectOk<{ message: string }>(await charge(w, first.reference)).message).toMatch(/being refunded in full/);
    kept = second.reference;
    refunded = first.reference;

    paidOnce = await confirmedBooking(w);
    const only = expectOk<PaymentSession>(await session(w, paidOnce.id));
    expectOk(await charge(w, only.reference));
    unpaid = await confirmedBooking(w);
  });
  afterAll(async () => {
    await w?.t.close();
  });

  it('GET /booking/{id} shows the renter the one refund: amount in rand, refunded, with the reason and times', async () => {
    const booking = await bookingAs(w, doubled.id, w.renter);
    expect(booking).toMatchObject({ status: 'active', payment_status: 'paid', payment_reference: kept, total_price: doubled.total_price_cents / 100 });
    expect(booking.refunds).toEqual<BookingRefund[]>([
      {
        id: expect.any(String),
        reference: refunded,
        amount: doubled.total_price_cents / 100,
        status: 'refunded',
        reason: 'This booking was already paid with another payment.',
        of: 'trip',
        requested_at: NOW,
        refunded_at: NOW,
      },
    ]);
    // A booking paid once, and one not paid, have none.
    expect((await bookingAs(w, paidOnce.id, w.renter)).refunds).toEqual([]);
    expect((await bookingAs(w, unpaid.id, w.renter)).refunds).toEqual([]);
    // The pay call's answer (the kept charge again) carries it too.
    expect(expectOk<Booking>(await pay(w, doubled.id, kept)).refunds).toHaveLength(1);
    expectError(await pay(w, doubled.id, refunded), 409, /being refunded in full/);
  });

  it('the car owner does not see the renter’s refund; an administrator does', async () => {
    const owner = await bookingAs(w, doubled.id, w.host);
    expect(owner).toMatchObject({ status: 'active', payment_status: 'paid', refunds: [] });
    const admin = await bookingAs(w, doubled.id, w.admin);
    expect(admin.refunds).toEqual((await bookingAs(w, doubled.id, w.renter)).refunds);

    for (const url of ['/api/booking/getAll', '/api/booking/getList', `/api/user/${w.host.user.id}/hosted-bookings`, '/api/booking/getAll?as=owner']) {
      const list = expectOk<Booking[]>(await get(w, url, w.host));
      expect(list.map((b) => b.id)).toContain(doubled.id);
      expect(list.every((b) => b.refunds.length === 0)).toBe(true);
    }
    for (const url of ['/api/booking/getAll', '/api/booking/getList', `/api/user/${w.renter.user.id}/bookings`, `/api/user/${w.host.user.id}/hosted-bookings`]) {
      expect(refundsIn(expectOk<Booking[]>(await get(w, url, w.admin)), doubled.id)).toEqual(admin.refunds);
    }
  });

  it('every list the renter reads carries the refund, read in one query for the whole list', async () => {
    const expected = (await bookingAs(w, doubled.id, w.renter)).refunds;
    for (const url of ['/api/booking/getAll', '/api/booking/getAll?as=renter', '/api/booking/getList', '/api/booking/getList?limit=2', `/api/user/${w.renter.user.id}/bookings`]) {
      let list: Booking[] = [];
      const reads = await paymentReads(w, async () => {
        list = expectOk<Booking[]>(await get(w, url, w.renter));
      });
      expect(reads, url).toBe(1);
      if (list.some((b) => b.id === doubled.id)) expect(refundsIn(list, doubled.id), url).toEqual(expected);
      else expect(url).toContain('limit=2');
      for (const b of list.filter((b) => b.id !== doubled.id)) expect(b.refunds, url).toEqual([]);
    }
    expect(refundsIn(expectOk<Booking[]>(await get(w, '/api/booking/getList?search=' + doubled.booking_number, w.renter)), doubled.id)).toEqual(expected);
    // The owner's list reads the ledger once too (their share), and shows no refund.
    expect(await paymentReads(w, async () => void expectOk(await get(w, '/api/booking/getAll?as=owner', w.host)))).toBe(1);
  });
});

describe('Paystack (local stub): a refund Paystack has not accepted yet', () => {
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

  it('shows as pending (no refunded_at) until the retry gets it through, then as refunded', async () => {
    const b = await confirmedBooking(w);
    const { reference } = expectOk<PaymentSession>(await session(w, b.id));
    stub.settle(reference, { status: 'success', amount: b.total_price_cents, currency: 'ZAR' });
    // The booking expires before the charge is reported; Paystack refuses the refund for now.
    await w.t.db.updateTable('bookings').set({ expires_at: new Date(w.t.clock.now().getTime() - 60_000) }).where('id', '=', b.id).execute();
    stub.failRefund(503);
    try {
      expectError(await pay(w, b.id, reference), 409, /had expired before the payment arrived/);
      const pending = await bookingAs(w, b.id, w.renter);
      expect(pending).toMatchObject({ status: 'cancelled', payment_status: 'unpaid' });
      expect(pending.refunds).toEqual<BookingRefund[]>([
        { id: expect.any(String), reference, amount: b.total_price_cents / 100, status: 'pending', reason: 'This booking had expired before the payment arrived.', of: 'trip', requested_at: NOW, refunded_at: null },
      ]);
      expect((await bookingAs(w, b.id, w.host)).refunds).toEqual([]);
      const mine = expectOk<Booking[]>(await get(w, `/api/user/${w.renter.user.id}/bookings`, w.renter));
      expect(refundsIn(mine, b.id)).toEqual(pending.refunds);

      stub.failRefund(null);
      w.t.clock.advance(60_000);
      await runRefundJobs(w);
      const done = await bookingAs(w, b.id, w.renter);
      expect(done.refunds).toEqual([{ ...pending.refunds[0], status: 'refunded', refunded_at: new Date(Date.parse(NOW) + 60_000).toISOString() }]);
      expect(refundsIn(expectOk<Booking[]>(await get(w, '/api/booking/getList', w.admin)), b.id)).toEqual(done.refunds);
    } finally {
      stub.failRefund(null);
      w.t.clock.set(NOW);
    }
  });
});
