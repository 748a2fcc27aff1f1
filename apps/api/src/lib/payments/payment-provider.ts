// The payment provider interface (decisions.md section 6). The booking code never talks to a
// provider directly: it asks for a checkout, then for a verdict on a reference, and trusts only
// that verdict (amount, currency and status are checked again by the caller).
import type { PaymentProviderName } from '@karoo/shared';

export interface CheckoutInput {
  reference: string;
  /** Cents. */
  amountCents: number;
  currency: 'ZAR';
  email: string;
}

export interface VerifiedPayment {
  /** The provider's own status for the reference: 'success' is the only one that pays. */
  status: 'success' | 'failed' | 'pending' | 'not_found';
  reference: string;
  amountCents: number;
  currency: string;
  message?: string;
  /** The card's reusable authorisation (Paystack `authorization.authorization_code` when `reusable`), kept to charge a claim later. */
  authorizationCode?: string;
}

/** A charge of a saved card without the renter at the checkout (Paystack POST /transaction/charge_authorization). */
export interface AuthorizationChargeInput {
  authorizationCode: string;
  email: string;
  amountCents: number;
  currency: 'ZAR';
  reference: string;
}

/** The bank's answer: taken, or declined (with its words for people). */
export interface AuthorizationCharge {
  status: 'success' | 'failed';
  reference: string;
  message: string;
}

export interface CheckoutSession {
  /** Paystack's access code: the pop-up resumes this transaction. */
  accessCode?: string;
  /** Paystack's hosted checkout page for the reference. */
  authorizationUrl?: string;
}

export interface RefundInput {
  /** The charge's reference. */
  reference: string;
  /** Cents to give back: the whole charge or part of it. */
  amountCents: number;
  reason: string;
  /** Our id of this refund (its ledger row): the same refund asked again is recognised, never paid twice. */
  refundId: string;
}

/** Where a refund stands at the provider: paid out to the card, accepted and under way, or failed. */
export type RefundStatus = 'processed' | 'pending' | 'failed';

/** A refund the provider accepted (Paystack queues it, then pays it back to the card). */
export interface AcceptedRefund {
  /** The provider's id of the refund, when it gives one. */
  id: string | null;
  status: RefundStatus;
}

export interface PaymentProvider {
  readonly name: PaymentProviderName;
  /** What the browser needs to open the provider's checkout (Paystack's public key). */
  readonly publicKey?: string;
  /** Registers a checkout with the provider before the browser opens it. */
  initialize(input: CheckoutInput): Promise<CheckoutSession>;
  /** Asks the provider what happened to a reference. */
  verify(reference: string): Promise<VerifiedPayment>;
  /**
   * Refunds a successful charge, in full or in part (many refunds per charge). Answers once the
   * provider has accepted the refund (also when this refund, known by `refundId`, had already been
   * accepted); throws PaymentProviderError when it did not, so the caller keeps it pending and asks
   * again later.
   */
  refund(input: RefundInput): Promise<AcceptedRefund>;
  /** How an accepted refund stands now; throws PaymentProviderError when the provider cannot say. */
  refundStatus(input: { reference: string; providerRefundId: string }): Promise<RefundStatus>;
  /** Charges a saved card (a claim beyond the deposit); throws PaymentProviderError when the provider gives no verdict. */
  chargeAuthorization(input: AuthorizationChargeInput): Promise<AuthorizationCharge>;
  /** True when a webhook body carries the provider's signature; providers without webhooks answer false. */
  isSignedWebhook(rawBody: Buffer, signature: string | undefined): boolean;
}

/**
 * The provider could not give a verdict: unreachable, timed out or answering 5xx/429. Nothing is
 * known about the payment, so the caller must not record an outcome (a webhook answers 5xx, and
 * Paystack retries it).
 */
export class PaymentProviderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PaymentProviderError';
  }
}
