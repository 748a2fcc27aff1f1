// Paystack (https://paystack.com/docs/api/transaction): transactions are initialised and verified
// server-side with the secret key; webhooks are signed with HMAC SHA512 of the raw body.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { PaymentProviderError, type AcceptedRefund, type CheckoutInput, type CheckoutSession, type PaymentProvider, type VerifiedPayment } from './payment-provider';

const TIMEOUT_MS = 10_000;

interface PaystackAnswer<T> {
  status: boolean;
  message?: string;
  data?: T;
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

  /** POST /refund with the transaction's reference: a full refund, queued by Paystack. */
  async refund(input: { reference: string; amountCents: number; reason: string }): Promise<AcceptedRefund> {
    const { answer } = await this.call<{ id?: number | string }>('POST', '/refund', {
      transaction: input.reference,
      amount: input.amountCents,
      merchant_note: input.reason,
      customer_note: input.reason,
    });
    if (answer.status) return { id: answer.data?.id === undefined ? null : String(answer.data.id) };
    // Asked again after a refund that went through (a retry after a lost answer): already done.
    if (/fully reversed|already (been )?refunded/i.test(answer.message ?? '')) return { id: null };
    throw new PaymentProviderError(answer.message || 'The refund was not accepted by Paystack.');
  }

  async verify(reference: string): Promise<VerifiedPayment> {
    const { httpStatus, answer } = await this.call<{ status?: string; reference?: string; amount?: number; currency?: string; gateway_response?: string }>(
      'GET',
      `/transaction/verify/${encodeURIComponent(reference)}`,
    );
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
    };
  }

  isSignedWebhook(rawBody: Buffer, signature: string | undefined): boolean {
    if (!signature) return false;
    const expected = createHmac('sha512', this.secretKey).update(rawBody).digest('hex');
    const given = Buffer.from(signature, 'utf8');
    const wanted = Buffer.from(expected, 'utf8');
    return given.length === wanted.length && timingSafeEqual(given, wanted);
  }
}
