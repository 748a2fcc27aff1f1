// The payout provider adapter (issue 35; decision 068) against Paystack's documented Transfers API
// shapes (https://paystack.com/docs/api/transfer-recipient, /transfer, /verification): a local
// server answers the documented bodies and records what the adapter sent; and the sandbox's cases.
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentProviderError, PayoutRefusedError } from '../src/lib/payments';
import { PaystackTransfers, transferStatusOf } from '../src/lib/payments/paystack-transfers';
import { SANDBOX_OTP, SandboxTransfers } from '../src/lib/payments/sandbox-transfers';
import { createTestApp, type TestApp } from './helpers';
import { DAY } from './helpers/clock';

const SECRET = 'sk_test_transfers';

/** Documented answers (trimmed of fields Karoo does not read), keyed by method and path. */
const documented = {
  banks: {
    status: true,
    message: 'Banks retrieved',
    data: [
      { name: 'Absa Bank Limited, South Africa', slug: 'absa-za', code: '632005', longcode: '632005', gateway: null, pay_with_bank: false, active: true, country: 'South Africa', currency: 'ZAR', type: 'basa', is_deleted: false, id: 140 },
      { name: 'Capitec Bank Limited', slug: 'capitec-bank-limited-za', code: '470010', longcode: '470010', gateway: null, pay_with_bank: false, active: true, country: 'South Africa', currency: 'ZAR', type: 'basa', is_deleted: false, id: 142 },
      { name: 'Old Bank', slug: 'old-bank', code: '999999', longcode: '', gateway: null, pay_with_bank: false, active: false, country: 'South Africa', currency: 'ZAR', type: 'basa', is_deleted: false, id: 1 },
    ],
  },
  resolved: { status: true, message: 'Account number resolved', data: { account_number: '0001234567', account_name: 'T MOKOENA', bank_id: 142 } },
  unresolved: { status: false, message: 'Could not resolve account name. Check parameters or try again.' },
  recipient: {
    status: true,
    message: 'Transfer recipient created successfully',
    data: {
      active: true,
      createdAt: '2030-05-01T08:00:00.000Z',
      currency: 'ZAR',
      domain: 'test',
      id: 6788170,
      integration: 463433,
      name: 'T MOKOENA',
      recipient_code: 'RCP_t0ya41mp35flk40',
      type: 'basa',
      updatedAt: '2030-05-01T08:00:00.000Z',
      is_deleted: false,
      details: { authorization_code: null, account_number: '0001234567', account_name: 'T MOKOENA', bank_code: '470010', bank_name: 'Capitec Bank Limited' },
    },
  },
  transfer: (status: string, reference: string) => ({
    status: true,
    message: status === 'otp' ? 'Transfer requires OTP to continue' : 'Transfer has been queued',
    data: { integration: 463433, domain: 'test', amount: 421000, currency: 'ZAR', source: 'balance', reason: 'Karoo payout', recipient: 6788170, status, transfer_code: 'TRF_1ptvuv321ahaa7q', id: 14938, reference, createdAt: '2030-05-01T08:00:00.000Z', updatedAt: '2030-05-01T08:00:00.000Z' },
  }),
  duplicate: { status: false, message: 'Please provide a unique reference. Reference already exists on a transfer', type: 'validation_error', code: 'duplicate_transfer_reference' },
};

let server: Server;
let url: string;
const seen: { method: string; path: string; body: Record<string, unknown> | undefined; auth: string | undefined }[] = [];
let transferStatus = 'pending';
const known = new Map<string, string>();

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : undefined;
      seen.push({ method: req.method!, path: req.url!, body, auth: req.headers.authorization });
      const send = (status: number, payload: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(payload));
      };
      const path = req.url!;
      if (path.startsWith('/bank?')) return send(200, documented.banks);
      if (path.startsWith('/bank/resolve?')) return path.includes('account_number=0000000000') ? send(422, documented.unresolved) : send(200, documented.resolved);
      if (path === '/transferrecipient') return send(201, documented.recipient);
      if (path === '/transfer') {
        const ref = String(body!.reference);
        if (known.has(ref)) return send(400, documented.duplicate);
        known.set(ref, transferStatus);
        if (transferStatus === 'down') return send(503, { status: false, message: 'Service unavailable' });
        return send(200, documented.transfer(transferStatus, ref));
      }
      if (path === '/transfer/finalize_transfer') return body!.otp === '928783' ? send(200, documented.transfer('success', 'r')) : send(400, { status: false, message: 'Invalid OTP' });
      const verify = /^\/transfer\/verify\/(.+)$/.exec(path);
      if (verify) {
        const ref = decodeURIComponent(verify[1]!);
        return known.has(ref) ? send(200, { status: true, message: 'Transfer retrieved', data: { ...documented.transfer('success', ref).data } }) : send(404, { status: false, message: 'Transfer not found' });
      }
      return send(404, { status: false, message: 'Not found' });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('Paystack Transfers adapter', () => {
  const provider = () => new PaystackTransfers(SECRET, url);

  it('lists the active South African banks (GET /bank?country=south africa)', async () => {
    expect(await provider().listBanks()).toEqual([
      { code: '632005', name: 'Absa Bank Limited, South Africa' },
      { code: '470010', name: 'Capitec Bank Limited' },
    ]);
    const call = seen.at(-1)!;
    expect(call.path).toBe('/bank?country=south%20africa&currency=ZAR');
    expect(call.auth).toBe(`Bearer ${SECRET}`);
  });

  it('resolves the holder of an account, and refuses one the bank does not know', async () => {
    expect(await provider().resolveAccount({ accountNumber: '0001234567', bankCode: '470010' })).toEqual({ accountNumber: '0001234567', accountName: 'T MOKOENA' });
    expect(seen.at(-1)!.path).toBe('/bank/resolve?account_number=0001234567&bank_code=470010');
    await expect(provider().resolveAccount({ accountNumber: '0000000000', bankCode: '470010' })).rejects.toBeInstanceOf(PayoutRefusedError);
  });

  it('creates a basa recipient in ZAR and answers its code', async () => {
    expect(await provider().createRecipient({ name: 'T MOKOENA', accountNumber: '0001234567', bankCode: '470010' })).toBe('RCP_t0ya41mp35flk40');
    expect(seen.at(-1)).toMatchObject({ method: 'POST', path: '/transferrecipient', body: { type: 'basa', name: 'T MOKOENA', account_number: '0001234567', bank_code: '470010', currency: 'ZAR' } });
  });

  it('initiates a transfer from the balance with our reference; the same reference again is the transfer Paystack has', async () => {
    transferStatus = 'pending';
    const first = await provider().initiateTransfer({ reference: 'KAROO-PO-A1', amountCents: 421000, recipientCode: 'RCP_t0ya41mp35flk40', reason: 'Karoo payout KAROO-PO-A1' });
    expect(first).toEqual({ status: 'pending', transferCode: 'TRF_1ptvuv321ahaa7q', reason: null });
    expect(seen.at(-1)).toMatchObject({ method: 'POST', path: '/transfer', body: { source: 'balance', amount: 421000, recipient: 'RCP_t0ya41mp35flk40', reference: 'KAROO-PO-A1', currency: 'ZAR' } });
    // Asked again (an answer lost): Paystack refuses the duplicate reference, and its verify answer is used.
    const again = await provider().initiateTransfer({ reference: 'KAROO-PO-A1', amountCents: 421000, recipientCode: 'RCP_t0ya41mp35flk40', reason: 'Karoo payout' });
    expect(again.status).toBe('success');
    expect(seen.at(-1)!.path).toBe('/transfer/verify/KAROO-PO-A1');
  });

  it('reports the OTP step and finalizes with the OTP', async () => {
    transferStatus = 'otp';
    const waiting = await provider().initiateTransfer({ reference: 'KAROO-PO-OTP', amountCents: 100, recipientCode: 'RCP_x', reason: 'r' });
    expect(waiting.status).toBe('otp');
    await expect(provider().finalizeTransfer({ transferCode: 'TRF_1ptvuv321ahaa7q', otp: '000000' })).rejects.toBeInstanceOf(PayoutRefusedError);
    const done = await provider().finalizeTransfer({ transferCode: 'TRF_1ptvuv321ahaa7q', otp: '928783' });
    expect(done.status).toBe('success');
    expect(seen.at(-1)).toMatchObject({ path: '/transfer/finalize_transfer', body: { transfer_code: 'TRF_1ptvuv321ahaa7q', otp: '928783' } });
  });

  it('treats 5xx as "ask again" (nothing known), and an unknown reference as none', async () => {
    transferStatus = 'down';
    await expect(provider().initiateTransfer({ reference: 'KAROO-PO-DOWN', amountCents: 100, recipientCode: 'RCP_x', reason: 'r' })).rejects.toBeInstanceOf(PaymentProviderError);
    expect(await provider().verifyTransfer('KAROO-PO-NEVER')).toBeNull();
  });

  it("reads Paystack's transfer states into ours", () => {
    expect(['success', 'failed', 'reversed', 'otp', 'pending', 'received', 'processing', 'abandoned', 'blocked'].map(transferStatusOf)).toEqual(['success', 'failed', 'reversed', 'otp', 'pending', 'pending', 'pending', 'failed', 'failed']);
  });

  it('checks the webhook signature as the payment webhook does (HMAC SHA512 of the raw body)', () => {
    const body = Buffer.from(JSON.stringify({ event: 'transfer.success', data: { reference: 'KAROO-PO-A1' } }));
    const signature = createHmac('sha512', SECRET).update(body).digest('hex');
    expect(provider().isSignedWebhook(body, signature)).toBe(true);
    expect(provider().isSignedWebhook(body, signature.replace(/.$/, (c) => (c === '0' ? '1' : '0')))).toBe(false);
    expect(provider().isSignedWebhook(body, undefined)).toBe(false);
  });
});

describe('the sandbox payout provider', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    t.clock.set('2030-05-01T08:00:00.000Z');
  });
  afterAll(async () => t?.close());

  it('resolves names, refuses …0000, pays, fails the first transfer to …1111 and reverses …2222 three days later', async () => {
    const sandbox = new SandboxTransfers(t.db, t.clock, false);
    expect((await sandbox.resolveAccount({ accountNumber: '62012345678', bankCode: '250655' })).accountName).toBe('T MOKOENA');
    await expect(sandbox.resolveAccount({ accountNumber: '62012340000', bankCode: '250655' })).rejects.toBeInstanceOf(PayoutRefusedError);
    const paid = await sandbox.createRecipient({ name: 'T MOKOENA', accountNumber: '62012345678', bankCode: '250655' });
    const failing = await sandbox.createRecipient({ name: 'X', accountNumber: '62012341111', bankCode: '250655' });
    const reversing = await sandbox.createRecipient({ name: 'X', accountNumber: '62012342222', bankCode: '250655' });
    expect((await sandbox.initiateTransfer({ reference: 'S1', amountCents: 100, recipientCode: paid, reason: 'r' })).status).toBe('success');
    expect((await sandbox.initiateTransfer({ reference: 'S2', amountCents: 100, recipientCode: failing, reason: 'r' })).status).toBe('failed');
    expect((await sandbox.initiateTransfer({ reference: 'S3', amountCents: 100, recipientCode: reversing, reason: 'r' })).status).toBe('success');
    t.clock.advance(3 * DAY);
    expect((await sandbox.verifyTransfer('S3'))!.status).toBe('reversed');
    expect((await sandbox.verifyTransfer('S1'))!.status).toBe('success');
    // A later transfer to the account that failed is paid (the host sorted it out with the bank).
    expect((await sandbox.initiateTransfer({ reference: 'S4', amountCents: 100, recipientCode: failing, reason: 'r' })).status).toBe('success');
    expect((await sandbox.verifyTransfer('S2'))!.status).toBe('failed');
    // The same reference again is the same transfer.
    await sandbox.initiateTransfer({ reference: 'S1', amountCents: 100, recipientCode: paid, reason: 'r' });
    expect(await t.db.selectFrom('sandbox_transfers').select('reference').where('reference', '=', 'S1').execute()).toHaveLength(1);
  });

  it('with the OTP setting on, waits for the OTP', async () => {
    const sandbox = new SandboxTransfers(t.db, t.clock, true);
    const recipient = await sandbox.createRecipient({ name: 'T MOKOENA', accountNumber: '62012345678', bankCode: '250655' });
    const waiting = await sandbox.initiateTransfer({ reference: 'S-OTP', amountCents: 100, recipientCode: recipient, reason: 'r' });
    expect(waiting.status).toBe('otp');
    await expect(sandbox.finalizeTransfer({ transferCode: waiting.transferCode!, otp: '000000' })).rejects.toBeInstanceOf(PayoutRefusedError);
    expect((await sandbox.finalizeTransfer({ transferCode: waiting.transferCode!, otp: SANDBOX_OTP })).status).toBe('success');
  });
});
