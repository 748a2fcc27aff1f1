// Booking lifecycle helpers: a local HTTP server that answers like Paystack's API (initialize,
// verify, refund) for the payment tests, and small wrappers around the booking calls.
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StubTransaction {
  reference: string;
  status: 'success' | 'failed' | 'abandoned';
  /** Paystack's numeric id of the transaction (what GET /refund?transaction= filters on); given by the stub. */
  id?: number;
  amount: number;
  currency: string;
  email?: string;
  /** The card's reusable authorisation, as verify answers it after a card payment (charge_authorization charges it again). */
  authorization?: { authorization_code: string; reusable: boolean };
}

export interface PaystackStub {
  url: string;
  secret: string;
  transactions: Map<string, StubTransaction>;
  /** Sets what verify answers for a reference (as if the customer paid, or not). */
  settle(reference: string, patch: Partial<StubTransaction>): void;
  /** The x-paystack-signature of a body, with the stub's secret (or another). */
  sign(body: string, secret?: string): string;
  requests: { method: string; path: string; authorization: string | undefined; body: unknown }[];
  /** Makes verify fail as a network would: an HTTP 5xx answer, a dropped connection, or normal again (null). */
  failVerify(mode: 500 | 503 | 'reset' | null): void;
  /**
   * Refunds Paystack accepted, by transaction reference (POST /refund), listed by GET
   * /refund?transaction={id}; status 'pending' unless set. A 'processed' refund makes verify answer
   * the transaction as 'reversed', as Paystack does.
   */
  refunds: Map<string, StubRefund>;
  /**
   * Every refund by transaction, as Paystack takes several partial refunds of one charge (a
   * cancellation's refund and its deposit's release) while they add up to no more than it; `refunds`
   * holds the first of each.
   */
  allRefunds: Map<string, StubRefund[]>;
  /** Makes POST /refund fail (5xx, dropped connection, or a 400 refusal with that message), or normal again (null). */
  failRefund(mode: 500 | 503 | 'reset' | 400 | null, message?: string): void;
  /** The message of Paystack's 400 to a second refund of the same transaction (only people read it). */
  alreadyRefundedMessage: string;
  /** The status POST /refund gives a new refund: 'processed' (paid out at once) unless set; 'pending' as Paystack queues most. */
  newRefundStatus: 'pending' | 'processing' | 'processed';
  close(): Promise<void>;
}

export interface StubRefund {
  id: number;
  amount: number;
  status?: 'pending' | 'processing' | 'processed' | 'failed' | 'needs-attention';
}

export async function startPaystackStub(secret = 'sk_test_karoo_stub'): Promise<PaystackStub> {
  const transactions = new Map<string, StubTransaction>();
  const requests: PaystackStub['requests'] = [];
  let verifyFailure: 500 | 503 | 'reset' | null = null;
  const refunds = new Map<string, StubRefund>();
  const allRefunds = new Map<string, StubRefund[]>();
  let refundFailure: 500 | 503 | 'reset' | 400 | null = null;
  let refundFailureMessage = 'Refund cannot be processed right now';
  let nextTransactionId = 4_099_260_000;
  const stub: { alreadyRefundedMessage: string; newRefundStatus: PaystackStub['newRefundStatus'] } = { alreadyRefundedMessage: 'Transaction has been fully reversed', newRefundStatus: 'processed' };
  /** Paystack's view of a transaction: 'reversed' once a refund of it is processed. */
  const shown = (tx: StubTransaction) => (refunds.get(tx.reference)?.status === 'processed' ? { ...tx, status: 'reversed' } : tx);
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : undefined;
      requests.push({ method: req.method ?? '', path: req.url ?? '', authorization: req.headers.authorization, body });
      const send = (status: number, payload: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(payload));
      };
      if (req.headers.authorization !== `Bearer ${secret}`) return send(401, { status: false, message: 'Invalid key' });
      if (req.method === 'POST' && req.url === '/transaction/initialize' && body) {
        const reference = String(body.reference);
        transactions.set(reference, { reference, id: nextTransactionId++, status: 'abandoned', amount: Number(body.amount), currency: String(body.currency), email: String(body.email) });
        return send(200, { status: true, message: 'Authorization URL created', data: { authorization_url: `https://checkout.paystack.test/${reference}`, access_code: `AC_${reference}`, reference } });
      }
      if (req.method === 'POST' && req.url === '/transaction/charge_authorization' && body) {
        // A saved card charged again: approved (Paystack's documented answer, the transaction's own status).
        const reference = String(body.reference);
        const tx: StubTransaction = { reference, id: nextTransactionId++, status: 'success', amount: Number(body.amount), currency: String(body.currency), email: String(body.email) };
        transactions.set(reference, tx);
        return send(200, { status: true, message: 'Charge attempted', data: { ...tx, gateway_response: 'Approved' } });
      }
      const verify = /^\/transaction\/verify\/(.+)$/.exec(req.url ?? '');
      if (req.method === 'GET' && verify) {
        if (verifyFailure === 'reset') return req.socket.destroy();
        if (verifyFailure) return send(verifyFailure, { status: false, message: 'Service unavailable' });
        const tx = transactions.get(decodeURIComponent(verify[1]!));
        if (!tx) return send(404, { status: false, message: 'Transaction reference not found' });
        return send(200, { status: true, message: 'Verification successful', data: { ...shown(tx), gateway_response: tx.status === 'success' ? 'Successful' : 'Declined' } });
      }
      if (req.method === 'POST' && req.url === '/refund' && body) {
        if (refundFailure === 'reset') return req.socket.destroy();
        if (refundFailure === 400) return send(400, { status: false, message: refundFailureMessage, type: 'validation_error', code: 'invalid_params' });
        if (refundFailure) return send(refundFailure, { status: false, message: 'Service unavailable' });
        const reference = String(body.transaction);
        const tx = transactions.get(reference);
        if (!tx || tx.status !== 'success') return send(404, { status: false, message: 'Transaction not found' });
        const amount = body.amount === undefined ? tx.amount : Number(body.amount);
        // A refund a test placed in `refunds` directly counts as one Paystack already has.
        const placed = refunds.get(reference);
        const earlier = allRefunds.get(reference) ?? (placed ? [placed] : []);
        const taken = earlier.reduce((total, r) => total + r.amount, 0);
        // A second refund of the same amount is the same refund asked again; more than is left is refused.
        if (placed && !allRefunds.has(reference)) {
          return send(400, { status: false, message: stub.alreadyRefundedMessage, type: 'validation_error', code: 'invalid_params' });
        }
        if (earlier.some((r) => r.amount === amount) || taken + amount > tx.amount || taken >= tx.amount) {
          return send(400, { status: false, message: stub.alreadyRefundedMessage, type: 'validation_error', code: 'invalid_params' });
        }
        const refund: StubRefund = { id: 1000 + [...allRefunds.values()].reduce((n, list) => n + list.length, 0), amount, status: stub.newRefundStatus };
        if (!refunds.has(reference)) refunds.set(reference, refund);
        allRefunds.set(reference, [...earlier, refund]);
        return send(200, { status: true, message: 'Refund has been queued for processing', data: { id: refund.id, amount: refund.amount, status: refund.status, transaction: { reference, amount: tx.amount } } });
      }
      const oneRefund = /^\/refund\/(\d+)$/.exec(req.url ?? '');
      if (req.method === 'GET' && oneRefund) {
        const refund = [...allRefunds.values()].flat().find((r) => r.id === Number(oneRefund[1])) ?? [...refunds.values()].find((r) => r.id === Number(oneRefund[1]));
        if (!refund) return send(404, { status: false, message: 'Refund not found' });
        return send(200, { status: true, message: 'Refund retrieved', data: { id: refund.id, amount: refund.amount, status: refund.status ?? 'pending' } });
      }
      const listRefunds = /^\/refund\?transaction=(\d+)$/.exec(req.url ?? '');
      if (req.method === 'GET' && listRefunds) {
        const data = [...transactions.values()]
          .filter((tx) => tx.id === Number(listRefunds[1]) && (allRefunds.has(tx.reference) || refunds.has(tx.reference)))
          .flatMap((tx) => (allRefunds.get(tx.reference) ?? [refunds.get(tx.reference)!]).map((refund) => ({ id: refund.id, transaction: tx.id, amount: refund.amount, currency: tx.currency, status: refund.status ?? 'pending' })));
        return send(200, { status: true, message: 'Refunds retrieved', data });
      }
      return send(404, { status: false, message: 'Not found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    secret,
    transactions,
    requests,
    settle(reference, patch) {
      const current = transactions.get(reference) ?? { reference, id: nextTransactionId++, status: 'abandoned', amount: 0, currency: 'ZAR' };
      transactions.set(reference, { ...current, ...patch });
    },
    failVerify(mode) {
      verifyFailure = mode;
    },
    refunds,
    allRefunds,
    failRefund(mode, message = 'Refund cannot be processed right now') {
      refundFailure = mode;
      refundFailureMessage = message;
    },
    get alreadyRefundedMessage() {
      return stub.alreadyRefundedMessage;
    },
    set alreadyRefundedMessage(message: string) {
      stub.alreadyRefundedMessage = message;
    },
    get newRefundStatus() {
      return stub.newRefundStatus;
    },
    set newRefundStatus(status: PaystackStub['newRefundStatus']) {
      stub.newRefundStatus = status;
    },
    sign: (body, key = secret) => createHmac('sha512', key).update(body).digest('hex'),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
