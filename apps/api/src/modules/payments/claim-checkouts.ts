// A payment link for trip charges the saved card declined (issue 34; docs/decisions/073-claim-payment-links.md).
// - A checkout of its own (payments.claim_id), through the same provider as the trip's checkout
//   (Paystack initialize, or the sandbox's card form), of the amount the claims module says is owed:
//   one open per claim, answered again while it can be paid through (a second tab, a renter who
//   closed the window and asks again), a new one once it failed or no longer matches.
// - Every successful charge of it (the verify call, Paystack's webhook, the sandbox checkout) goes
//   through settleClaimCharge: verified with the provider, the amount and currency checked here, and
//   recorded on the claim by the claims module's handler (passed in by the app, in this module's
//   transaction with the payment row locked). A charge the claim cannot keep (already paid, the wrong
//   amount) is refunded in full as every such charge is, and the renter told.
import { randomBytes } from 'node:crypto';
import { formatRand, type PaymentSession } from '@karoo/shared';
import type { AppContext } from '../../context';
import type { PaymentRow, RefundReasonCode } from '../../db/schema';
import { inTransaction, type Tx } from '../../events/domain-events';
import { AppError, conflict, notFound } from '../../lib/app-error';
import { PaymentProviderError } from '../../lib/payments';
import { findBookingById, type BookingRecord } from '../bookings';
import * as ledger from '../ledger';
import { attemptRefund, isUniqueViolation, partiesOf, PROVIDER_UNAVAILABLE, readyCheckout, toSession, verifyWithProvider } from './payments.service';
import * as repo from './payments.repository';
import { enqueueRefundAttempt } from './refund-queue';

/** What the claims module answers for a verified charge of a claim's link: kept on the claim, or not owed any more (refunded). */
export type ClaimChargeOutcome = { kind: 'paid' } | { kind: 'not_owed'; reason: string };

/**
 * Records a verified charge of a claim's link on the claim (the trips module's, passed in by the
 * app): called in the payments transaction, the payment row locked; the same reference again must
 * answer 'paid' without recording twice.
 */
export type ClaimChargeHandler = (ctx: AppContext, tx: Tx, charge: { claimId: string; reference: string; amountCents: number }) => Promise<ClaimChargeOutcome>;

export type ClaimChargeSettlement = { kind: 'paid' } | { kind: 'refunded'; reason: string; amountCents: number; refusal: AppError };

/** What a claim's link is for: the claim, its booking, what is owed now (the claims module's sum) and whose card. */
export interface ClaimDue {
  claimId: string;
  booking: Pick<BookingRecord, 'id' | 'booking_number'>;
  amountCents: number;
  email: string;
}

const CHARGE_CODE = 'claim';
const NOT_PAID = 'The trip charges were not paid.';

/** 402: no money came in (or none this claim can keep); the claim stays owed. */
const paymentRefused = (reason: string) => new AppError(402, `${NOT_PAID} ${reason}`);

/** Why a claim's charge went back, in the renter's words (the code is what is stored and branched on). */
const CLAIM_REFUND_REASONS: Partial<Record<RefundReasonCode, string>> = {
  already_paid: 'These trip charges were already paid.',
  wrong_amount: 'The amount paid does not match what is owed on these trip charges.',
  wrong_currency: 'The payment was not made in rand (ZAR).',
};

/** POST /claims/{id}/payment (through the claims module, which checks who may and what is owed): the claim's open link, or a new one. */
export async function openClaimCheckout(ctx: AppContext, due: ClaimDue): Promise<PaymentSession> {
  const provider = ctx.payments;
  for (let attempt = 0; attempt < 5; attempt++) {
    const open = await repo.findOpenClaimPayment(ctx.db, due.claimId);
    if (open) {
      const ready = await readyCheckout(ctx, provider, due.amountCents, open);
      if (ready) return toSession(provider, ready, due.email);
      continue;
    }
    const reference = `KAROO-${due.booking.booking_number}-CLAIM-${randomBytes(6).toString('hex').toUpperCase()}`;
    const opened = await repo.insertOpenPayment(ctx.db, { reference, booking_id: due.booking.id, claim_id: due.claimId, provider: provider.name, amount_cents: due.amountCents }, ctx.clock.now());
    if (!opened) continue;
    let checkout;
    try {
      checkout = await provider.initialize({ reference, amountCents: due.amountCents, currency: 'ZAR', email: due.email });
    } catch (error) {
      await repo.closeOpenPayment(ctx.db, reference, 'The checkout could not be started.', ctx.clock.now());
      if (error instanceof PaymentProviderError) throw new AppError(PROVIDER_UNAVAILABLE, error.message);
      throw error;
    }
    const saved = { access_code: checkout.accessCode ?? null, authorization_url: checkout.authorizationUrl ?? null };
    if (saved.access_code || saved.authorization_url) await repo.saveCheckout(ctx.db, reference, saved, ctx.clock.now());
    return toSession(provider, { reference, amount_cents: due.amountCents, ...saved }, due.email);
  }
  throw conflict('The payment could not be started right now. Please try again.');
}

function refundedClaimCharge(payment: PaymentRow): ClaimChargeSettlement {
  const amountCents = payment.refund_amount_cents ?? payment.amount_cents;
  const code = payment.refund_reason_code ?? 'already_paid';
  const reason = payment.refund_reason ?? CLAIM_REFUND_REASONS[code] ?? CLAIM_REFUND_REASONS.already_paid!;
  return { kind: 'refunded', reason, amountCents, refusal: claimRefusal(code, reason, amountCents) };
}

function claimRefusal(code: RefundReasonCode, reason: string, amountCents: number): AppError {
  if (code === 'wrong_amount' || code === 'wrong_currency') return paymentRefused(reason);
  return conflict(`${reason} Your payment of ${formatRand(amountCents / 100)} is being refunded in full.`);
}

/**
 * The one path that turns a charge of a claim's link into a paid claim or a refund (the verify call,
 * the webhook, the sandbox checkout). Throws 402 when no money came in, 502 when the provider gave no verdict.
 */
export async function settleClaimCharge(ctx: AppContext, payment: PaymentRow, onClaimCharge: ClaimChargeHandler): Promise<ClaimChargeSettlement> {
  const claimId = payment.claim_id;
  if (!claimId) throw notFound('Payment reference not found');
  if (payment.refund_status) return refundedClaimCharge(payment);
  const reference = payment.reference;
  const verdict = await verifyWithProvider(ctx, reference);
  if (verdict.status !== 'success' || verdict.reference !== reference) {
    const problem = verdict.status === 'failed' ? 'The payment was not successful.' : verdict.status !== 'success' ? 'The payment could not be verified.' : 'The payment reference does not match.';
    if (verdict.status === 'failed' && payment.provider !== 'sandbox') await repo.recordOutcome(ctx.db, reference, 'failed', problem, ctx.clock.now());
    throw paymentRefused(problem);
  }
  // The link charges what was owed when it was opened; anything else cannot pay the claim and goes back.
  const wrongPayment: RefundReasonCode | null = verdict.amountCents !== payment.amount_cents ? 'wrong_amount' : verdict.currency !== 'ZAR' ? 'wrong_currency' : null;
  const booking = await findBookingById(ctx, payment.booking_id);
  if (!booking) throw notFound('Payment reference not found');

  let settlement: ClaimChargeSettlement & { refundId?: string };
  try {
    settlement = await inTransaction(ctx, async (tx): Promise<ClaimChargeSettlement & { refundId?: string }> => {
      // One settlement of a reference at a time; the claims module's conditional UPDATE decides between references.
      const locked = await repo.lockPayment(tx.db, reference);
      if (!locked) throw notFound('Payment reference not found');
      if (locked.refund_status) return refundedClaimCharge(locked);
      let code: RefundReasonCode | null = wrongPayment;
      let reason = code ? CLAIM_REFUND_REASONS[code]! : '';
      if (!code) {
        const outcome = await onClaimCharge(ctx, tx, { claimId, reference, amountCents: verdict.amountCents });
        if (outcome.kind === 'paid') {
          await repo.recordOutcome(tx.db, reference, 'success', null, tx.now);
          // The card that paid last is the one a later claim charges (findBookingAuthorization: the newest).
          if (verdict.authorizationCode) await repo.saveAuthorization(tx.db, reference, verdict.authorizationCode);
          return { kind: 'paid' };
        }
        code = 'already_paid';
        reason = outcome.reason;
      }
      await repo.recordRefundDue(tx.db, reference, { amount_cents: verdict.amountCents, reason, code }, tx.now);
      const refund = await ledger.recordRefundedCharge(tx.db, partiesOf(booking), { reference, amountCents: verdict.amountCents, at: tx.now, code, reason, chargeCode: CHARGE_CODE });
      await enqueueRefundAttempt(ctx, tx, refund.id);
      tx.emit({ type: 'payment.refund_due', booking, reference, amountCents: verdict.amountCents, reason });
      return { kind: 'refunded', reason, amountCents: verdict.amountCents, refusal: claimRefusal(code, reason, verdict.amountCents), refundId: refund.id };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict('This payment reference belongs to another payment.');
    throw error;
  }
  if (settlement.kind === 'refunded' && settlement.refundId) await attemptRefund(ctx, settlement.refundId);
  return settlement;
}

/** POST /claims/{id}/payment/verify (through the claims module): the renter reports the link's reference; verified, then recorded. */
export async function verifyClaimPayment(ctx: AppContext, claimId: string, reference: string, onClaimCharge: ClaimChargeHandler): Promise<void> {
  const payment = await repo.findPayment(ctx.db, reference);
  if (!payment || payment.claim_id !== claimId) throw paymentRefused('This payment reference was not issued for these trip charges.');
  const settlement = await settleClaimCharge(ctx, payment, onClaimCharge);
  if (settlement.kind === 'refunded') throw settlement.refusal;
}
