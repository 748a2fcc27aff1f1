// Payouts through Paystack (issue 35; decision 068), against a local Paystack that answers the
// documented Transfers shapes: a transfer stays under way until Paystack's signed webhook says
// transfer.success, transfer.failed or transfer.reversed (a wrong signature is refused, the same
// event twice changes nothing); with the OTP setting on, a transfer waits for an administrator's
// OTP; while it is under way, "Mark paid" by hand is refused.
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PayoutTransfer } from '@karoo/shared';
import type { CarRow } from '../src/db/schema';
import { hostBalanceCents } from '../src/modules/ledger';
import { runPayouts } from '../src/modules/payouts';
import { authHeader, createSignedInUser, createTestApp, expectError, expectOk, login, type TestApp } from './helpers';
import { recordTestCharge } from './helpers/ledger';
import { createTestBooking, createTestCar } from './helpers/vehicles';

const SECRET = 'sk_test_payouts_webhook';
type Signed = Awaited<ReturnType<typeof createSignedInUser>>;

let server: Server;
let t: TestApp;
let admin: Signed;
let renter: Signed;
let nextStatus: 'pending' | 'otp' = 'pending';
const transfers = new Map<string, { status: string; code: string }>();
let n = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      const send = (status: number, payload: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(payload));
      };
      if (req.headers.authorization !== `Bearer ${SECRET}`) return send(401, { status: false, message: 'Invalid key' });
      const path = req.url!;
      if (path.startsWith('/bank?')) return send(200, { status: true, message: 'Banks retrieved', data: [{ name: 'Capitec Bank Limited', code: '470010', active: true, country: 'South Africa', currency: 'ZAR', type: 'basa', is_deleted: false }] });
      if (path.startsWith('/bank/resolve?')) return send(200, { status: true, message: 'Account number resolved', data: { account_number: '1234567890', account_name: 'T MOKOENA', bank_id: 142 } });
      if (path === '/transferrecipient') return send(201, { status: true, message: 'Transfer recipient created successfully', data: { recipient_code: 'RCP_webhook', type: 'basa', currency: 'ZAR', details: { account_number: '1234567890', account_name: 'T MOKOENA', bank_code: '470010', bank_name: 'Capitec Bank Limited' } } });
      if (path === '/transfer') {
        const code = `TRF_${++n}`;
        transfers.set(String(body.reference), { status: nextStatus, code });
        return send(200, { status: true, message: 'Transfer has been queued', data: { amount: body.amount, currency: 'ZAR', source: 'balance', reason: body.reason, status: nextStatus, transfer_code: code, reference: body.reference } });
      }
      if (path === '/transfer/finalize_transfer') {
        const found = [...transfers.entries()].find(([, v]) => v.code === body.transfer_code);
        if (!found || body.otp !== '928783') return send(400, { status: false, message: 'Invalid OTP' });
        found[1].status = 'pending';
        return send(200, { status: true, message: 'Transfer has been queued', data: { status: 'pending', transfer_code: found[1].code, reference: found[0] } });
      }
      const verify = /^\/transfer\/verify\/(.+)$/.exec(path);
      if (verify) {
        const found = transfers.get(decodeURIComponent(verify[1]!));
        return found ? send(200, { status: true, message: 'Transfer retrieved', data: { status: found.status, transfer_code: found.code, reference: verify[1] } }) : send(404, { status: false, message: 'Transfer not found' });
      }
      return send(404, { status: false, message: 'Not found' });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t = await createTestApp({ env: { BROWSE_CACHE_MS: '0', PAYSTACK_SECRET_KEY: SECRET, PAYSTACK_PUBLIC_KEY: 'pk_test', PAYSTACK_BASE_URL: url } });
  t.clock.set('2030-04-01T08:00:00.000Z');
  admin = await createSignedInUser(t.app, t.ctx, { role: 'admin', verification_status: 'verified' });
  renter = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' });
});
afterAll(async () => {
  await t?.close();
  await new Promise<void>((r) => server.close(() => r()));
});

let tripCounter = 0;
async function hostOwed(): Promise<{ host: Signed; car: CarRow; bookingId: string; share: number }> {
  const created = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' });
  const token = await login(t.app, created.user.username, undefined, { remember: true });
  const host = { ...created, token, headers: authHeader(token) };
  const car = await createTestCar(t.ctx, host.user);
  tripCounter++;
  const b = await createTestBooking(t.ctx, car, renter.user, { start: `2029-0${tripCounter}-10`, days: 2, status: 'completed' });
  const at = new Date(t.clock.now().getTime() - 5 * 86_400_000);
  const paid = await t.db.updateTable('bookings').set({ paid_at: at, completed_at: at }).where('id', '=', b.id).returningAll().executeTakeFirstOrThrow();
  await recordTestCharge(t.ctx, paid, at);
  expectOk(await t.app.inject({ method: 'PUT', url: '/api/payouts/bank-account', headers: host.headers, payload: { bank_code: '470010', account_number: '1234567890', confirmed_account_name: 't mokoena' } }));
  expectOk(await t.app.inject({ method: 'PUT', url: '/api/payouts/schedule', headers: host.headers, payload: { schedule: 'trip' } }));
  return { host, car, bookingId: b.id, share: paid.car_owner_earnings_cents };
}

const webhook = (event: string, data: Record<string, unknown>, signature?: string) => {
  const body = JSON.stringify({ event, data });
  return t.app.inject({
    method: 'POST',
    url: '/api/payments/paystack/webhook',
    headers: { 'content-type': 'application/json', 'x-paystack-signature': signature ?? createHmac('sha512', SECRET).update(body).digest('hex') },
    payload: body,
  });
};
const transferOf = (hostId: string) => t.db.selectFrom('payout_transfers').selectAll().where('host_id', '=', hostId).executeTakeFirstOrThrow();

describe('Paystack transfer webhooks', () => {
  it('keep a transfer under way until transfer.success; a wrong signature is refused; the same event twice changes nothing', async () => {
    nextStatus = 'pending';
    const { host, bookingId, share } = await hostOwed();
    await runPayouts(t.ctx);
    const sent = await transferOf(host.user.id);
    expect(sent).toMatchObject({ state: 'pending', transfer_code: expect.stringMatching(/^TRF_/) });
    // Under way counts as paid: the balance is 0 and a hand "Mark paid" is refused.
    expect(await hostBalanceCents(t.db, host.user.id)).toBe(0);
    const headers = authHeader(await login(t.app, admin.user.username));
    expectError(await t.app.inject({ method: 'PATCH', url: `/api/earnings/earning/updatePayout/${bookingId}`, headers, payload: { payout_status: 'paid' } }), 409, /being sent by transfer/);
    expectError(await webhook('transfer.success', { reference: sent.reference, status: 'success' }, 'f'.repeat(128)), 401);
    expect((await transferOf(host.user.id)).state).toBe('pending');
    expectOk(await webhook('transfer.success', { reference: sent.reference, transfer_code: sent.transfer_code, status: 'success', amount: share }));
    expectOk(await webhook('transfer.success', { reference: sent.reference, transfer_code: sent.transfer_code, status: 'success', amount: share }));
    expect((await transferOf(host.user.id)).state).toBe('success');
    const rows = await t.db.selectFrom('ledger_entries').select(['kind', 'state', 'amount_cents']).where('host_id', '=', host.user.id).where('kind', '=', 'payout').execute();
    expect(rows).toEqual([{ kind: 'payout', state: 'succeeded', amount_cents: share }]);
    // Then reversed by the bank: owed again.
    expectOk(await webhook('transfer.reversed', { reference: sent.reference, status: 'reversed' }));
    expect((await transferOf(host.user.id)).state).toBe('reversed');
    expect(await hostBalanceCents(t.db, host.user.id)).toBe(share);
  });

  it('transfer.failed: the payout rows fail and the money is owed again', async () => {
    nextStatus = 'pending';
    const { host, share } = await hostOwed();
    await runPayouts(t.ctx);
    const sent = await transferOf(host.user.id);
    expectOk(await webhook('transfer.failed', { reference: sent.reference, status: 'failed' }));
    expect(await transferOf(host.user.id)).toMatchObject({ state: 'failed', failure_reason: 'The bank did not accept the transfer.' });
    expect(await hostBalanceCents(t.db, host.user.id)).toBe(share);
  });

  it('with the OTP setting on, waits for the OTP an administrator gives (audited)', async () => {
    nextStatus = 'otp';
    const { host } = await hostOwed();
    await runPayouts(t.ctx);
    const waiting = await transferOf(host.user.id);
    expect(waiting.state).toBe('otp');
    const headers = authHeader(await login(t.app, admin.user.username));
    expectError(await t.app.inject({ method: 'POST', url: `/api/admin/payouts/transfers/${waiting.id}/finalize`, headers, payload: { otp: '111111' } }), 400, /Invalid OTP/);
    const done = expectOk<PayoutTransfer>(await t.app.inject({ method: 'POST', url: `/api/admin/payouts/transfers/${waiting.id}/finalize`, headers, payload: { otp: '928783' } }));
    expect(done.state).toBe('pending');
    expectError(await t.app.inject({ method: 'POST', url: `/api/admin/payouts/transfers/${waiting.id}/finalize`, headers, payload: { otp: '928783' } }), 409);
  });
});
