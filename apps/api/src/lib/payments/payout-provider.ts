// The payout provider interface (issue 35; docs/decisions/068-payouts-by-themselves.md): the money
// Karoo sends to hosts' bank accounts, beside the payment provider that takes renters' money. The
// payouts module checks an account (the bank's name for its holder), keeps a recipient for it, and
// sends one transfer per host per run under a reference of its own, so that a request asked again is
// the same transfer. What happened to a transfer is read from the provider (its verify answer or its
// signed webhook), never assumed.
import type { PaymentProviderName } from '@karoo/shared';

export interface PayoutBank {
  code: string;
  name: string;
}

export interface ResolvedAccount {
  accountNumber: string;
  /** The holder's name as the bank has it ("T MOKOENA"). */
  accountName: string;
}

/** Where a transfer stands at the provider: waiting for the OTP, under way, paid, failed, or paid and taken back by the bank. */
export type ProviderTransferStatus = 'otp' | 'pending' | 'success' | 'failed' | 'reversed';

export interface ProviderTransfer {
  status: ProviderTransferStatus;
  /** The provider's code of the transfer (TRF_…), when it gives one. */
  transferCode: string | null;
  /** The provider's words when it failed. */
  reason: string | null;
}

export interface TransferInput {
  /** Ours, unique per transfer: the provider refuses a second transfer with it. */
  reference: string;
  amountCents: number;
  recipientCode: string;
  /** Shown on the host's statement. */
  reason: string;
}

export interface PayoutProvider {
  readonly name: PaymentProviderName;
  listBanks(): Promise<PayoutBank[]>;
  /** The holder's name of an account; throws PayoutRefusedError when the bank does not know it. */
  resolveAccount(input: { accountNumber: string; bankCode: string }): Promise<ResolvedAccount>;
  /** A transfer recipient of type basa (South African bank account) in ZAR; answers its code. */
  createRecipient(input: { name: string; accountNumber: string; bankCode: string }): Promise<string>;
  /** Sends a transfer (or finds the one already made with this reference); PayoutRefusedError when refused. */
  initiateTransfer(input: TransferInput): Promise<ProviderTransfer>;
  /** Completes a transfer waiting for its OTP. */
  finalizeTransfer(input: { transferCode: string; otp: string }): Promise<ProviderTransfer>;
  /** How a transfer stands now, by our reference; null when the provider has none with it. */
  verifyTransfer(reference: string): Promise<ProviderTransfer | null>;
  /** True when a webhook body carries the provider's signature. */
  isSignedWebhook(rawBody: Buffer, signature: string | undefined): boolean;
}

/** The provider answered, and said no (an unknown account, a refused transfer): its words are for people. */
export class PayoutRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PayoutRefusedError';
  }
}
