// Paystack Transfers (https://paystack.com/docs/transfers): South African bank accounts are
// recipients of type `basa` in ZAR; an account's holder is resolved with GET /bank/resolve, a
// transfer sent with POST /transfer under our reference (Paystack refuses a second transfer with
// it), finalized with the OTP when the integration asks for one, and its outcome read from
// GET /transfer/verify/{reference} or the signed transfer.success / transfer.failed /
// transfer.reversed webhooks. As for payments, Paystack's structured fields decide (HTTP status,
// `status`, the transfer's `status`), never the wording of its `message`.
import { PaymentProviderError } from './payment-provider';
import { isPaystackSigned } from './paystack';
import { PayoutRefusedError, type PayoutBank, type PayoutProvider, type ProviderTransfer, type ProviderTransferStatus, type ResolvedAccount, type TransferInput } from './payout-provider';

const TIMEOUT_MS = 10_000;

interface PaystackAnswer<T> {
  status: boolean;
  message?: string;
  data?: T;
}

/** A transfer as POST /transfer, /transfer/finalize_transfer and GET /transfer/verify answer it. */
interface PaystackTransfer {
  status?: string;
  transfer_code?: string;
  reference?: string;
  reason?: string;
  failures?: unknown;
}

/** Paystack's transfer states in ours: 'received' and 'processing' (and 'queued') are under way; 'abandoned' and 'blocked' did not go. */
export function transferStatusOf(status: string | undefined): ProviderTransferStatus {
  switch (status) {
    case 'success':
    case 'otp':
    case 'reversed':
    case 'failed':
      return status;
    case 'abandoned':
    case 'blocked':
    case 'rejected':
      return 'failed';
    default:
      return 'pending';
  }
}

export class PaystackTransfers implements PayoutProvider {
  readonly name = 'paystack' as const;

  constructor(
    private readonly secretKey: string,
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
      throw new PaymentProviderError('The payout provider could not be reached. Please try again.');
    }
    if (res.status >= 500 || res.status === 429) throw new PaymentProviderError('The payout provider is not answering right now. Please try again in a moment.');
    const answer = (await res.json().catch(() => ({ status: false }))) as PaystackAnswer<T>;
    return { httpStatus: res.status, answer };
  }

  /** GET /bank?country=south africa: the banks Paystack pays, active ones only. */
  async listBanks(): Promise<PayoutBank[]> {
    const { answer } = await this.call<{ name?: string; code?: string; active?: boolean; is_deleted?: boolean }[]>('GET', `/bank?country=${encodeURIComponent('south africa')}&currency=ZAR`);
    if (!answer.status || !Array.isArray(answer.data)) throw new PaymentProviderError(answer.message || 'Paystack did not list the banks.');
    return answer.data.filter((b) => b.code && b.name && b.active !== false && !b.is_deleted).map((b) => ({ code: b.code!, name: b.name! }));
  }

  /** GET /bank/resolve: the holder's name; a 4xx answer means the bank does not know the account. */
  async resolveAccount(input: { accountNumber: string; bankCode: string }): Promise<ResolvedAccount> {
    const query = `account_number=${encodeURIComponent(input.accountNumber)}&bank_code=${encodeURIComponent(input.bankCode)}`;
    const { answer } = await this.call<{ account_number?: string; account_name?: string }>('GET', `/bank/resolve?${query}`);
    if (!answer.status || !answer.data?.account_name) throw new PayoutRefusedError(answer.message || 'The bank could not find this account.');
    return { accountNumber: answer.data.account_number ?? input.accountNumber, accountName: answer.data.account_name };
  }

  /** POST /transferrecipient, type basa in ZAR (Paystack answers the existing recipient for an account it has). */
  async createRecipient(input: { name: string; accountNumber: string; bankCode: string }): Promise<string> {
    const { answer } = await this.call<{ recipient_code?: string }>('POST', '/transferrecipient', {
      type: 'basa',
      name: input.name,
      account_number: input.accountNumber,
      bank_code: input.bankCode,
      currency: 'ZAR',
    });
    if (!answer.status || !answer.data?.recipient_code) throw new PayoutRefusedError(answer.message || 'Paystack did not accept this bank account.');
    return answer.data.recipient_code;
  }

  /**
   * POST /transfer from the balance. Refused, it may be a retry of a transfer Paystack already has
   * (an answer lost on the way): its verify answer for our reference says so, whatever the refusal's words.
   */
  async initiateTransfer(input: TransferInput): Promise<ProviderTransfer> {
    const { answer } = await this.call<PaystackTransfer>('POST', '/transfer', {
      source: 'balance',
      amount: input.amountCents,
      recipient: input.recipientCode,
      reference: input.reference,
      reason: input.reason,
      currency: 'ZAR',
    });
    if (answer.status && answer.data) return this.toTransfer(answer.data);
    const existing = await this.verifyTransfer(input.reference);
    if (existing) return existing;
    throw new PayoutRefusedError(answer.message || 'Paystack refused the transfer.');
  }

  /** POST /transfer/finalize_transfer with the OTP Paystack sent to the business. */
  async finalizeTransfer(input: { transferCode: string; otp: string }): Promise<ProviderTransfer> {
    const { answer } = await this.call<PaystackTransfer>('POST', '/transfer/finalize_transfer', { transfer_code: input.transferCode, otp: input.otp });
    if (!answer.status || !answer.data) throw new PayoutRefusedError(answer.message || 'Paystack did not accept the OTP.');
    return this.toTransfer(answer.data);
  }

  /** GET /transfer/verify/{reference}: null when Paystack has no transfer with it (404). */
  async verifyTransfer(reference: string): Promise<ProviderTransfer | null> {
    const { httpStatus, answer } = await this.call<PaystackTransfer>('GET', `/transfer/verify/${encodeURIComponent(reference)}`);
    if (answer.status && answer.data) return this.toTransfer(answer.data);
    if (httpStatus === 404 || httpStatus === 400) return null;
    throw new PaymentProviderError(answer.message || 'Paystack did not say how this transfer stands.');
  }

  private toTransfer(data: PaystackTransfer): ProviderTransfer {
    const status = transferStatusOf(data.status);
    // `reason` is our own narration; a failure's cause, when Paystack gives one, is in `failures`.
    const cause = typeof data.failures === 'string' ? data.failures : null;
    return { status, transferCode: data.transfer_code ?? null, reason: status === 'failed' || status === 'reversed' ? cause : null };
  }

  isSignedWebhook(rawBody: Buffer, signature: string | undefined): boolean {
    return isPaystackSigned(this.secretKey, rawBody, signature);
  }
}
