// A refund's life as a ledger row on the job queue (issue 20; decisions 038 and 039), against a
// local Paystack: accepted and under way, it stays pending until Paystack pays it out (its job
// checks GET /refund/{id}, or the refund.processed webhook says so); a refund Paystack keeps
// refusing ends failed after the job's last try, is listed for administrators and counted in
// /metrics, and an administrator's audited Retry asks again as a new row while the failed one stays.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminRefundRow, Booking, PaymentSession } from '@karoo/shared';
import type { CarRow } from '../src/db/schema';
import { REFUND_RETRY } from '../src/modules/payments/refund-queue';
import { authHeader, createSignedInUser, createTestApp, expectError, expectOk, login, type TestApp } from './helpers';
import { startPaystackStub, type PaystackStub } from './helpers/bookings';
import { refundOfCharge, refundsOfCharge, runRefundJobs } from './helpers/refunds';
import { createTestBooking, createTestCar } from './helpers/vehicles';

type Signed = Awaited<ReturnType<typeof createSignedInUser>>;
const NOW = '2030-05-01T08:00:00.000Z';
const HOUR = 3_600_000;

let t: TestApp;
let stub: PaystackStub;
let admin: Signed;
let host: Signed;
let renter: Signed;
let car: CarRow;
let day = 0;
const w = { get t() { return t; } };

beforeAll(async () => {
  stub = await startPaystackStub();
  t = await createTestApp({ env: { BROWSE_CACHE_MS: '0', PAYSTACK_SECRET_KEY: stub.secret, PAYSTACK_PUBLIC_KEY: 'pk_test_karoo', PAYSTACK_BASE_URL: stub.url } });
  t.clock.set(NOW);
  const remembered = async (who: Signed) => {
    const token = await login(t.app, who.user.username, undefined, { remember: true });
    return { ...who, token, headers: authHeader(token) };
  };
  admin = await remembered(await createSignedInUser(t.app, t.ctx, { role: 'admin', verification_status: 'verified' }));
  host = await remembered(await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' }));
  renter = await remembered(await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' }));
  car = await createTestCar(t.ctx, host.user);
});
afterAll(async () => {
  await t?.close();
  await stub?.close();
});

/** A trip two weeks ahead, paid through Paystack, then cancelled free by the renter: a full refund is asked for. */
async function cancelledPaidTrip() {
  t.clock.set(NOW);
  day += 5;
  const start = new Date(Date.parse(NOW) + (14 + day) * 24 * HOUR).toISOString().slice(0, 10);
  const booking = await createTestBooking(t.ctx, car, renter.user, { start, days: 2, status: 'confirmed' });
  const { reference } = expectOk<PaymentSession>(await t.app.inject({ method: 'POST', url: `/api/booking/${booking.id}/payment-session`, headers: renter.headers }));
  stub.settle(reference, { status: 'success', amount: booking.total_price_cents, currency: 'ZAR' });
  expectOk(await t.app.inject({ method: 'POST', url: `/api/booking/pay/${booking.id}`, headers: renter.headers, payload: { paystack_reference: reference } }));
  const cancelled = expectOk<Booking>(await t.app.inject({ method: 'PATCH', url: `/api/booking/${booking.id}/cancel`, headers: renter.headers, payload: {} }));
  return { booking, reference, cancelled };
}

const webhook = (event: string, data: Record<string, unknown>) => {
  const body = JSON.stringify({ event, data });
  return t.app.inject({ method: 'POST', url: '/api/payments/paystack/webhook', headers: { 'content-type': 'application/json', 'x-paystack-signature': stub.sign(body) }, payload: body });
};
const metric = async (state: string) => {
  const text = (await t.app.inject({ method: 'GET', url: '/metrics', headers: admin.headers })).body;
  const line = text.split('\n').find((l) => l.startsWith(`karoo_refunds{state="${state}"}`));
  return line ? Number(line.split(' ').at(-1)) : NaN;
};

describe('a refund Paystack accepts and pays out later', () => {
  it('stays pending with Paystack\'s id; the job checks it and records it paid out when Paystack says processed', async () => {
    stub.newRefundStatus = 'pending';
    try {
      const { reference, cancelled, booking } = await cancelledPaidTrip();
      expect(cancelled.refunds).toEqual([expect.objectContaining({ status: 'pending', amount: booking.total_price_cents / 100 })]);
      const accepted = await refundOfCharge(t.db, reference);
      expect(accepted).toMatchObject({ state: 'pending', provider_reference: String(stub.refunds.get(reference)!.id), moved_at: null });
      // Still under way at Paystack: checked, not asked again.
      t.clock.advance(60_000);
      await runRefundJobs(w);
      expect((await refundOfCharge(t.db, reference)).state).toBe('pending');
      stub.refunds.get(reference)!.status = 'processed';
      t.clock.advance(2 * 60_000);
      await runRefundJobs(w);
      const paid = await refundOfCharge(t.db, reference);
      expect(paid).toMatchObject({ state: 'succeeded' });
      expect(paid.moved_at!.getTime()).toBe(t.clock.now().getTime());
      expect(stub.requests.filter((r) => r.method === 'POST' && r.path === '/refund' && (r.body as { transaction: string }).transaction === reference)).toHaveLength(1);
    } finally {
      stub.newRefundStatus = 'processed';
    }
  });

  it('refund.processed and refund.failed webhooks settle it or fail it; a repeat is acknowledged and changes nothing', async () => {
    stub.newRefundStatus = 'pending';
    try {
      const first = await cancelledPaidTrip();
      const id = stub.refunds.get(first.reference)!.id;
      expectOk(await webhook('refund.processed', { id, transaction_reference: first.reference, amount: first.booking.total_price_cents, status: 'processed' }));
      expect(await refundOfCharge(t.db, first.reference)).toMatchObject({ state: 'succeeded' });
      expectOk(await webhook('refund.processed', { id, transaction_reference: first.reference, amount: first.booking.total_price_cents, status: 'processed' }));
      expect(await refundsOfCharge(t.db, first.reference)).toHaveLength(1);

      const second = await cancelledPaidTrip();
      expectOk(await webhook('refund.failed', { id: stub.refunds.get(second.reference)!.id, transaction_reference: second.reference, amount: second.booking.total_price_cents, status: 'failed' }));
      expect(await refundOfCharge(t.db, second.reference)).toMatchObject({ state: 'failed', last_error: expect.stringMatching(/Paystack reports that this refund failed/) });
    } finally {
      stub.newRefundStatus = 'processed';
    }
  });
});

describe('a refund Paystack keeps refusing', () => {
  it('ends failed after the job\'s last try, is listed and counted, and an audited Retry asks again as a new row', async () => {
    stub.failRefund(503);
    let failedId: string;
    try {
      const { reference } = await cancelledPaidTrip();
      // The request's own ask, then the job and each of its retries (backoff at most 6 h).
      for (let attempt = 0; attempt <= REFUND_RETRY.limit; attempt++) {
        t.clock.advance(7 * HOUR);
        await runRefundJobs(w);
      }
      const failed = await refundOfCharge(t.db, reference);
      expect(failed).toMatchObject({ state: 'failed', attempts: REFUND_RETRY.limit + 2, moved_at: null });
      expect(failed.last_error).toMatch(/not answering/);
      failedId = failed.id;
      // Its job is failed too, and a copy waits in the dead-letter queue (decision 038), not 'completed'.
      const { rows: jobs } = await sql<{ name: string; state: string }>`SELECT name, state FROM ${sql.table(`${t.ctx.jobs.schema}.job`)} WHERE data->>'refundId' = ${failed.id} ORDER BY name`.execute(t.db);
      expect(jobs).toEqual([
        { name: 'refunds.attempt', state: 'failed' },
        { name: 'refunds.attempt.dead', state: 'created' },
      ]);
      expect(await metric('failed')).toBeGreaterThanOrEqual(1);
      const listed = expectOk<AdminRefundRow[]>(await t.app.inject({ method: 'GET', url: '/api/payments/admin/refunds?state=failed', headers: admin.headers }));
      expect(listed).toEqual(expect.arrayContaining([expect.objectContaining({ id: failed.id, retried: false, attempts: REFUND_RETRY.limit + 2 })]));
      expectError(await t.app.inject({ method: 'GET', url: '/api/payments/admin/refunds?state=failed', headers: renter.headers }), 403);
    } finally {
      stub.failRefund(null);
    }
    const retried = expectOk<{ outcome: string }>(await t.app.inject({ method: 'POST', url: `/api/payments/admin/refunds/${failedId}/retry`, headers: admin.headers }));
    expect(retried.outcome).toBe('refunded');
    const rows = await t.db.selectFrom('ledger_entries').selectAll().where('kind', '=', 'refund').where('booking_id', '=', (await t.db.selectFrom('ledger_entries').select('booking_id').where('id', '=', failedId).executeTakeFirstOrThrow()).booking_id).orderBy('seq').execute();
    expect(rows.map((r) => r.state)).toEqual(['failed', 'succeeded']);
    expectError(await t.app.inject({ method: 'POST', url: `/api/payments/admin/refunds/${failedId}/retry`, headers: admin.headers }), 409, /already been asked for again/);
    const audit = await t.db.selectFrom('audit_log').selectAll().where('action', '=', 'payment.refund_retried').execute();
    expect(audit).toHaveLength(1);
    expect((await t.app.inject({ method: 'GET', url: '/api/payments/admin/refunds?state=failed', headers: admin.headers })).json().data).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: failedId, retried: true })]),
    );
  });
});
