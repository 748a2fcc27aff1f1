// Paystack (https://paystack.com/docs/api/transaction): transactions are initialised and verified
// server-side with the secret key; webhooks are signed with HMAC SHA512 of the raw body. What
// Paystack says is read from its structured fields (HTTP status, `status`, a transaction's or a
// refund's `status`), never from the wording of its `message`, which is only passed on for people.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { PaymentProviderError, type AcceptedRefund, type AuthorizationCharge, type AuthorizationChargeInput, type CheckoutInput, type CheckoutSession, type PaymentProvider, type RefundInput, type RefundStatus, type VerifiedPayment } from './payment-provider';

const TIMEOUT_MS = 10_000;

interface PaystackAnswer<T> {
  status: boolean;
  message?: string;
  data?: T;
}

/** A transaction as GET /transaction/verify answers it ('reversed' once a refund has been processed). */
interface PaystackTransaction {
  id?: number;
  status?: string;
  reference?: string;
  amount?: number;
  currency?: string;
  gateway_response?: string;
  /** The card used, and whether it can be charged again (https://paystack.com/docs/payments/recurring-charges). */
  authorization?: { authorization_code?: string; reusable?: boolean };
}

/** Paystack's refund states: accepted and under way, done, or not (failed, or waiting for the customer's bank details). */
const REFUND_UNDER_WAY = new Set(['pending', 'processing', 'processed']);

/** Paystack's refund status in ours: 'processed' is paid back to the card; 'failed' is not coming; anything else is under way. */
function refundStatusOf(status: string | undefined): RefundStatus {
  if (status === 'processed') return 'processed';
  if (status === 'failed') return 'failed';
  return 'pending';
}

export class PaystackProvider implements PaymentProvider {
  readonly name = 'paystack' as const;

  constructor(
    private readonly secretKey: string,
    readonly publicKey: string | undefined,
    private readonly baseUrl: string,
  ) {}

  private async call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ httpStatus: number; answer: PaystackAnswer<T> }> {
    let res: Response;
    try {
      res = await fetch(`${this.baseUrl.replace(/\/$/, '')}${path}`, {
        method,
        headers: { authorization: `Bearer ${this.secretKey}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch {
      throw new PaymentProviderError('The payment provider could not be reached. Please try again.');
    }
    // Paystack's own trouble says nothing about the payment: the caller must ask again later.
    if (res.status >= 500 || res.status === 429) {
      throw new PaymentProviderError('The payment provider is not answering right now. Please try again in a moment.');
    }
    const answer = (await res.json().catch(() => ({ status: false }))) as PaystackAnswer<T>;
    return { httpStatus: res.status, answer };
  }

  async initialize(input: CheckoutInput): Promise<CheckoutSession> {
    const { answer } = await this.call<{ access_code?: string; authorization_url?: string }>('POST', '/transaction/initialize', {
      email: input.email,
      amount: input.amountCents,
      currency: input.currency,
      reference: input.reference,
    });
    if (!answer.status) throw new PaymentProviderError(answer.message || 'The payment could not be started. Please try again.');
    return {
      ...(answer.data?.access_code ? { accessCode: answer.data.access_code } : {}),
      ...(answer.data?.authorization_url ? { authorizationUrl: answer.data.authorization_url } : {}),
    };
  }

  /** POST /refund with the transaction's reference and the amount (the whole charge or part of it), queued by Paystack. */
  async refund(input: RefundInput): Promise<AcceptedRefund> {
    const { answer } = await this.call<{ id?: number | string; status?: string }>('POST', '/refund', {
      transaction: input.reference,
      amount: input.amountCents,
      merchant_note: `${input.reason} (Karoo refund ${input.refundId})`,
      customer_note: input.reason,
    });
    if (answer.status) return { id: answer.data?.id === undefined ? null : String(answer.data.id), status: refundStatusOf(answer.data?.status) };
    // Refused. When this is a retry after an answer that was lost, the refund already exists and
    // Paystack refuses a second one: its own records say so (the transaction reads 'reversed', or
    // it has a refund of this amount under way), whatever words the refusal used.
    const existing = await this.findRefund(input.reference, input.amountCents);
    if (existing) return existing;
    throw new PaymentProviderError(answer.message || 'The refund was not accepted by Paystack.');
  }

  /** A refund of this amount Paystack already has for the transaction (processed, or accepted and under way); null when it has none. */
  private async findRefund(reference: string, amountCents: number): Promise<AcceptedRefund | null> {
    const { answer: verified } = await this.call<PaystackTransaction>('GET', `/transaction/verify/${encodeURIComponent(reference)}`);
    const transaction = verified.status ? verified.data : undefined;
    if (!transaction) return null;
    if (transaction.status === 'reversed' && Number(transaction.amount ?? 0) === amountCents) return { id: null, status: 'processed' };
    if (transaction.id === undefined) return null;
    const { answer: listed } = await this.call<{ id?: number | string; status?: string; amount?: number }[]>('GET', `/refund?transaction=${encodeURIComponent(String(transaction.id))}`);
    const refunds = (listed.status && Array.isArray(listed.data) ? listed.data : []).filter((r) => r.amount === undefined || Number(r.amount) === amountCents);
    const underWay = refunds.find((r) => r.status !== undefined && REFUND_UNDER_WAY.has(r.status));
    if (underWay) return { id: underWay.id === undefined ? null : String(underWay.id), status: refundStatusOf(underWay.status) };
    const stuck = refunds.find((r) => r.status === 'needs-attention');
    if (stuck) throw new PaymentProviderError(`Paystack's refund ${String(stuck.id ?? '')} needs attention: the customer's bank details are to be given in the Paystack dashboard.`);
    if (transaction.status === 'reversed') return { id: null, status: 'processed' };
    return null;
  }

  /** GET /refund/{id}: processed (paid back to the card), failed, or still under way (pending, processing, needs-attention). */
  async refundStatus(input: { providerRefundId: string }): Promise<RefundStatus> {
    const { answer } = await this.call<{ status?: string }>('GET', `/refund/${encodeURIComponent(input.providerRefundId)}`);
    if (!answer.status || !answer.data) throw new PaymentProviderError(answer.message || 'Paystack did not say how this refund stands.');
    if (answer.data.status === 'needs-attention') {
      throw new PaymentProviderError(`Paystack's refund ${input.providerRefundId} needs attention: the customer's bank details are to be given in the Paystack dashboard.`);
    }
    return refundStatusOf(answer.data.status);
  }

  async verify(reference: string): Promise<VerifiedPayment> {
    const { httpStatus, answer } = await this.call<PaystackTransaction>('GET', `/transaction/verify/${encodeURIComponent(reference)}`);
    if (!answer.status || !answer.data) {
      return { status: httpStatus === 404 ? 'not_found' : 'failed', reference, amountCents: 0, currency: '', message: answer.message ?? 'Payment not verified' };
    }
    const data = answer.data;
    const status = data.status === 'success' ? 'success' : data.status === 'failed' || data.status === 'abandoned' ? 'failed' : 'pending';
    return {
      status,
      reference: data.reference ?? '',
      amountCents: Number(data.amount ?? 0),
      currency: data.currency ?? '',
      ...(data.gateway_response ? { message: data.gateway_response } : {}),
      ...(status === 'success' && data.authorization?.reusable && data.authorization.authorization_code ? { authorizationCode: data.authorization.authorization_code } : {}),
    };
  }

  /**
   * POST /transaction/charge_authorization: the saved card charged for a claim. Paystack answers
   * `status: true` with the transaction's own `status` ('success', or 'failed' with the bank's
   * gateway_response); a refusal (`status: false`) is a decline too when Paystack answered at all.
   */
  async chargeAuthorization(input: AuthorizationChargeInput): Promise<AuthorizationCharge> {
    const { answer } = await this.call<PaystackTransaction>('POST', '/transaction/charge_authorization', {
      authorization_code: input.authorizationCode,
      email: input.email,
      amount: input.amountCents,
      currency: input.currency,
      reference: input.reference,
    });
    const ok = answer.status && answer.data?.status === 'success';
    return {
      status: ok ? 'success' : 'failed',
      reference: answer.data?.reference ?? input.reference,
      message: answer.data?.gateway_response || answer.message || (ok ? 'Approved' : 'The card was declined.'),
    };
  }

  isSignedWebhook(rawBody: Buffer, signature: string | undefined): boolean {
    return isPaystackSigned(this.secretKey, rawBody, signature);
  }
}

/** Paystack's x-paystack-signature: the HMAC SHA512 of the raw body with the secret key, in hex (payments and transfers alike). */
export function isPaystackSigned(secretKey: string, rawBody: Buffer, signature: string | undefined): boolean {
  if (!signature) return false;
  const expected = createHmac('sha512', secretKey).update(rawBody).digest('hex');
  const given = Buffer.from(signature, 'utf8');
  const wanted = Buffer.from(expected, 'utf8');
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}
