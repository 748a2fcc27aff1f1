// Paying for a booking (decisions.md section 6; docs/decisions/024-one-charge-per-booking.md): the
// server issues a reference tied to one booking, asks the provider for the verdict, checks status,
// amount and currency itself, and activates the booking. One charge per booking:
// - a booking has at most one open checkout; a second (or concurrent) initialise answers the same
//   reference and checkout (payments_one_open_per_booking decides, across instances);
// - every successful charge that arrives (the pay call, Paystack's webhook, the sandbox checkout)
//   goes through settleCharge(), which locks the booking: the first charge activates it, and a
//   charge that cannot stay on it (already paid by another charge, expired or cancelled, a wrong
//   amount) is refunded in full through the provider and the renter is told. The same charge
//   delivered again answers what was decided the first time: no second activation, no refund.
// - a refund the provider did not accept stays 'pending' and is asked again with backoff
//   (refund-retry.job.ts), so every rand that came in is on a booking or refunded.
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  formatRand,
  isAdmin,
  PAYMENT_MESSAGES,
  SANDBOX_DECLINED_CARD,
  SANDBOX_DECLINES_LATER_CARD,
  SANDBOX_SUCCESS_CARD,
  type AdminRefundRow,
  type PaymentSession,
  type sandboxChargeBodySchema,
} from '@karoo/shared';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import { inTransaction } from '../../events/domain-events';
import type { PaymentRow, RefundReasonCode, UserRow } from '../../db/schema';
import { AppError, conflict, forbidden, notFound } from '../../lib/app-error';
import { PaymentProviderError, SANDBOX_AUTH_PREFIX, SANDBOX_NOFUNDS_PREFIX, type PaymentProvider, type VerifiedPayment } from '../../lib/payments';
import {
  expireOverdueBookings,
  findBookingById,
  findVisibleBooking,
  lockBookingForPayment,
  transition,
  type BookingRecord,
  type BookingLedgerView,
  type BookingRefundRecord,
} from '../bookings';
import * as ledger from '../ledger';
import type { ClaimChargeSettlement } from './claim-checkouts';
import * as repo from './payments.repository';
import { enqueueRefundAttempt } from './refund-queue';

const NOT_PAYABLE = 'Payment is offered only for confirmed bookings not yet paid.';
const OTHER_BOOKING = 'Could not activate booking. This payment reference belongs to another booking.';

/** 502: the provider gave no verdict (unreachable or failing); nothing was recorded. */
export const PROVIDER_UNAVAILABLE = 502;

/** How long a second initialise waits for the first one's checkout (Paystack's call times out at 10 s). */
const CHECKOUT_WAIT_MS = 15_000;
const CHECKOUT_POLL_MS = 50;

/** While one ask is with the provider, no other ask (another instance, the job) takes the same refund. */
const REFUND_LEASE_MS = 5 * 60_000;
/** The soonest the refund job asks again (pg-boss's backoff decides the rest: refund.job.ts). */
const REFUND_NEXT_ASK_MS = 60_000;
/** A refund's reason when none was recorded (every refund recorded since migration 0014 has one). */
const DEFAULT_REFUND_REASON = 'Refund of a charge that could not be used.';

/** 402: the payment was not verified; the booking stays confirmed and unpaid. */
const paymentRefused = (reason: string) => new AppError(402, `${PAYMENT_MESSAGES.couldNotActivate} ${reason}`);

function requireRenter(viewer: UserRow, booking: BookingRecord) {
  if (booking.renter_id !== viewer.id) throw forbidden('Only the renter can pay for this booking.');
}

export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: string }).code === '23505';
}

const isPayable = (b: Pick<BookingRecord, 'status' | 'payment_status'>) => b.status === 'confirmed' && b.payment_status === 'unpaid';

// ---- The checkout: one open session per booking ----

export function toSession(provider: PaymentProvider, row: Pick<PaymentRow, 'reference' | 'amount_cents' | 'access_code' | 'authorization_url'>, email: string): PaymentSession {
  return {
    provider: provider.name,
    ...(provider.publicKey ? { public_key: provider.publicKey } : {}),
    reference: row.reference,
    amount: row.amount_cents,
    currency: 'ZAR',
    email,
    ...(row.access_code ? { access_code: row.access_code } : {}),
    ...(row.authorization_url ? { authorization_url: row.authorization_url } : {}),
  };
}

/**
 * The open checkout as it can be answered again: at once for the sandbox (nothing to start), else
 * once the request that opened it has its checkout from the provider. Undefined when it was closed
 * (its start failed, it no longer charges what is due, or it cannot be paid through any more): the
 * caller opens a new one.
 */
export async function readyCheckout(ctx: AppContext, provider: PaymentProvider, amountDueCents: number, open: PaymentRow): Promise<PaymentRow | undefined> {
  if (open.provider !== provider.name || open.amount_cents !== amountDueCents) {
    await repo.closeOpenPayment(ctx.db, open.reference, 'Superseded: the checkout no longer matched what is due or the payment provider.', ctx.clock.now());
    return undefined;
  }
  if (provider.name === 'sandbox' || open.access_code || open.authorization_url) return open;
  // Opened long ago and never given a checkout (its request stopped, or it predates migration 0014).
  const stale = ctx.clock.now().getTime() - new Date(open.created_at).getTime() > CHECKOUT_WAIT_MS;
  const deadline = stale ? 0 : Date.now() + CHECKOUT_WAIT_MS;
  let row: PaymentRow | undefined = open;
  while (Date.now() < deadline) {
    await sleep(CHECKOUT_POLL_MS);
    row = await repo.findPayment(ctx.db, open.reference);
    if (!row || row.status !== 'initialized') return undefined;
    if (row.access_code || row.authorization_url) return row;
  }
  // The request that opened it never got a checkout: nobody can pay through it.
  await repo.closeOpenPayment(ctx.db, open.reference, 'The checkout was never started.', ctx.clock.now());
  return undefined;
}

/** What one card charge takes for a booking: the trip and its deposit (decision 064). */
export function amountToPay(booking: Pick<BookingRecord, 'total_price_cents' | 'deposit_cents'>): number {
  return booking.total_price_cents + booking.deposit_cents;
}

/**
 * POST /booking/{id}/payment-session: the booking's open checkout, or a new one. Two requests at
 * once (two tabs, two instances) get the same reference: the unique partial index lets one insert,
 * and the other answers what that one opened.
 */
export async function createPaymentSession(ctx: AppContext, viewer: UserRow, idOrNumber: string): Promise<PaymentSession> {
  await expireOverdueBookings(ctx);
  const booking = await findVisibleBooking(ctx, viewer, idOrNumber);
  requireRenter(viewer, booking);
  if (!isPayable(booking)) throw conflict(NOT_PAYABLE);
  const provider = ctx.payments;
  const amount = amountToPay(booking);
  for (let attempt = 0; attempt < 5; attempt++) {
    const open = await repo.findOpenPayment(ctx.db, booking.id);
    if (open) {
      const ready = await readyCheckout(ctx, provider, amount, open);
      if (ready) return toSession(provider, ready, viewer.email);
      continue;
    }
    const reference = `KAROO-${booking.booking_number}-${randomBytes(6).toString('hex').toUpperCase()}`;
    // Another request opened one between the read and this insert: answer that one.
    if (!(await repo.insertOpenPayment(ctx.db, { reference, booking_id: booking.id, provider: provider.name, amount_cents: amount }, ctx.clock.now()))) continue;
    let checkout;
    try {
      checkout = await provider.initialize({ reference, amountCents: amount, currency: 'ZAR', email: viewer.email });
    } catch (error) {
      await repo.closeOpenPayment(ctx.db, reference, 'The checkout could not be started.', ctx.clock.now());
      if (error instanceof PaymentProviderError) throw new AppError(PROVIDER_UNAVAILABLE, error.message);
      throw error;
    }
    const saved = { access_code: checkout.accessCode ?? null, authorization_url: checkout.authorizationUrl ?? null };
    if (saved.access_code || saved.authorization_url) await repo.saveCheckout(ctx.db, reference, saved, ctx.clock.now());
    return toSession(provider, { reference, amount_cents: amount, ...saved }, viewer.email);
  }
  throw conflict('The payment could not be started right now. Please try again.');
}

// ---- Settling a charge: on the booking, or refunded ----

type Settlement =
  | { kind: 'paid'; booking: BookingRecord }
  | { kind: 'refunded'; booking: BookingRecord; reason: string; amountCents: number; refusal: AppError; refundId?: string };

/** Whose money a booking's ledger rows move. */
export const partiesOf = (b: Pick<BookingRecord, 'id' | 'renter_id' | 'owner_id'>): ledger.LedgerParties => ({ bookingId: b.id, renterId: b.renter_id, hostId: b.owner_id });

/** The stored price a trip's charge is shared by (decisions.md section 5). */
export const breakdownOf = (b: Pick<BookingRecord, 'total_price_cents' | 'service_fee_cents' | 'insurance_fee_cents' | 'car_owner_earnings_cents'>): ledger.ChargeBreakdown => ({
  totalCents: b.total_price_cents,
  serviceFeeCents: b.service_fee_cents,
  insuranceFeeCents: b.insurance_fee_cents,
  hostEarningsCents: b.car_owner_earnings_cents,
});

/**
 * Why a successful charge cannot stay on its booking: a code (stored as
 * payments.refund_reason_code), which decides what the pay call answers, and the sentence the renter
 * reads. The code comes from the booking's stored state (payment_status, status, cancel_cause) and
 * the verdict, never from any message's wording: rewording a sentence moves no money.
 */
const REFUND_REASONS: Record<RefundReasonCode, (b: Pick<BookingRecord, 'status'>) => string> = {
  already_paid: () => 'This booking was already paid with another payment.',
  booking_expired: () => 'This booking had expired before the payment arrived.',
  booking_cancelled: () => 'This booking was cancelled before the payment arrived.',
  booking_not_payable: (b) => `This booking is ${b.status} and cannot be paid.`,
  wrong_amount: () => 'The amount paid does not match the booking total.',
  wrong_currency: () => 'The payment was not made in rand (ZAR).',
};

/** The charge did not pay for the booking at all (answered 402, like a failed payment), rather than arriving too late (409). */
const isWrongPayment = (code: RefundReasonCode) => code === 'wrong_amount' || code === 'wrong_currency';

/** Why a charge of the right amount cannot stay on this booking. */
function notPayableCode(b: Pick<BookingRecord, 'status' | 'payment_status' | 'cancel_cause'>): RefundReasonCode {
  if (b.payment_status === 'paid') return 'already_paid';
  if (b.status === 'cancelled') return b.cancel_cause === 'expired' ? 'booking_expired' : 'booking_cancelled';
  return 'booking_not_payable';
}

/** What the pay call answers for a refunded charge: 409 (402 for a wrong amount or currency). */
function refundRefusal(code: RefundReasonCode, reason: string, amountCents: number): AppError {
  if (isWrongPayment(code)) return paymentRefused(reason);
  return conflict(`${PAYMENT_MESSAGES.couldNotActivate} ${reason} Your payment of ${formatRand(amountCents / 100)} is being refunded in full.`);
}

export async function verifyWithProvider(ctx: AppContext, reference: string): Promise<VerifiedPayment> {
  try {
    return await ctx.payments.verify(reference);
  } catch (error) {
    if (error instanceof PaymentProviderError) throw new AppError(PROVIDER_UNAVAILABLE, error.message);
    throw error;
  }
}

/**
 * The one code path that turns a charge into an active booking or a refund (pay call, webhook,
 * sandbox checkout). Throws 402 when no money came in, 502 when the provider gave no verdict.
 */
async function settleCharge(ctx: AppContext, booking: BookingRecord, payment: PaymentRow): Promise<Settlement> {
  const reference = payment.reference;
  // The same charge again (a retried webhook, a second pay call): what was decided the first time.
  if (booking.payment_status === 'paid' && booking.payment_reference === reference) return { kind: 'paid', booking };
  if (payment.refund_status) return refunded(booking, payment);

  const verdict = await verifyWithProvider(ctx, reference);
  if (verdict.status !== 'success' || verdict.reference !== reference) {
    // No money came in: nothing to keep or refund.
    if (!isPayable(booking)) throw conflict(NOT_PAYABLE);
    const problem = verdict.status === 'failed' ? 'The payment was not successful.' : verdict.status !== 'success' ? 'The payment could not be verified.' : 'The payment reference does not match.';
    // A failed charge closes the checkout (the next one starts afresh); a pending one stays open.
    if (verdict.status === 'failed' && payment.provider !== 'sandbox') await repo.recordOutcome(ctx.db, reference, 'failed', problem, ctx.clock.now());
    throw paymentRefused(problem);
  }
  // Money came in, but not what this booking costs: it cannot pay the booking and goes back.
  const wrongPayment: RefundReasonCode | null =
    verdict.amountCents !== amountToPay(booking) ? 'wrong_amount' : verdict.currency !== 'ZAR' ? 'wrong_currency' : null;

  let settlement: Settlement;
  try {
    settlement = await inTransaction(ctx, async (tx): Promise<Settlement> => {
      // Charges of one booking settle one at a time; each sees what the one before it did.
      const current = await lockBookingForPayment(tx, booking.id);
      const locked = await repo.lockPayment(tx.db, reference);
      if (!locked) throw notFound('Payment reference not found');
      if (current.payment_status === 'paid' && current.payment_reference === reference) return { kind: 'paid', booking: current };
      if (locked.refund_status) return refunded(current, locked);
      if (!wrongPayment && isPayable(current)) {
        const paid = await transition(tx, current, {
          to: 'active',
          actor: 'payment',
          set: { payment_status: 'paid', paid_at: tx.now, payment_reference: reference, payment_provider: locked.provider },
        });
        await repo.recordOutcome(tx.db, reference, 'success', null, tx.now);
        await ledger.recordTripCharge(tx.db, partiesOf(paid), { reference, at: tx.now, breakdown: breakdownOf(paid), depositCents: paid.deposit_cents });
        if (verdict.authorizationCode) await repo.saveAuthorization(tx.db, reference, verdict.authorizationCode);
        return { kind: 'paid', booking: paid };
      }
      const code = wrongPayment ?? notPayableCode(current);
      const reason = REFUND_REASONS[code](current);
      await repo.recordRefundDue(tx.db, reference, { amount_cents: verdict.amountCents, reason, code }, tx.now);
      const refund = await ledger.recordRefundedCharge(tx.db, partiesOf(current), { reference, amountCents: verdict.amountCents, at: tx.now, code, reason });
      await enqueueRefundAttempt(ctx, tx, refund.id);
      tx.emit({ type: 'payment.refund_due', booking: current, reference, amountCents: verdict.amountCents, reason });
      return { kind: 'refunded', booking: current, reason, amountCents: verdict.amountCents, refusal: refundRefusal(code, reason, verdict.amountCents), refundId: refund.id };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(OTHER_BOOKING);
    throw error;
  }
  // Asked at once; when the provider does not pay it out, the refund job asks again.
  if (settlement.kind === 'refunded' && settlement.refundId) await attemptRefund(ctx, settlement.refundId);
  return settlement;
}

/** A charge whose refund was already recorded: answered from its stored code (its sentence is only shown). */
function refunded(booking: BookingRecord, payment: PaymentRow): Settlement {
  const amountCents = payment.refund_amount_cents ?? payment.amount_cents;
  // Every refund row has a code (payments_refund_reason_code_present); the fallback is for the type.
  const code = payment.refund_reason_code ?? notPayableCode(booking);
  const reason = payment.refund_reason ?? REFUND_REASONS[code](booking);
  return { kind: 'refunded', booking, reason, amountCents, refusal: refundRefusal(code, reason, amountCents) };
}

/** POST /booking/pay/{id}: the renter reports a reference; it is verified, then the booking is activated. */
export async function payBooking(ctx: AppContext, viewer: UserRow, idOrNumber: string, reference: string): Promise<BookingRecord> {
  await expireOverdueBookings(ctx);
  const booking = await findVisibleBooking(ctx, viewer, idOrNumber);
  requireRenter(viewer, booking);
  // Idempotent: the reference that already paid this booking answers the booking again.
  if (booking.payment_status === 'paid' && booking.payment_reference === reference) return booking;
  const payment = await repo.findPayment(ctx.db, reference);
  if (payment && payment.booking_id !== booking.id) throw conflict(OTHER_BOOKING);
  if (!payment) {
    if (!isPayable(booking)) throw conflict(NOT_PAYABLE);
    throw paymentRefused('This payment reference was not issued for this booking.');
  }
  const settlement = await settleCharge(ctx, booking, payment);
  if (settlement.kind === 'refunded') throw settlement.refusal;
  return settlement.booking;
}

/**
 * POST /payments/paystack/webhook: a signed charge.success is settled through the same path as the
 * pay call (activated, or refunded). A handled or rightly refused event answers 200; when Paystack's
 * verify call cannot be made (network, Paystack's 5xx) it answers 503, so that Paystack sends the
 * event again rather than leave a charge unsettled.
 */
/** Reads Paystack's transfer.* events (the payouts module's, passed in by the app). */
export type TransferEventHandler = (ctx: AppContext, event: string, data: { reference?: string; transfer_code?: string; status?: string; reason?: string }) => Promise<{ handled: boolean; message: string }>;

/** Settles a charge of a claim's payment link (claim-checkouts.ts settleClaimCharge, bound by the routes to the trips module's handler). */
export type ClaimChargeSettler = (ctx: AppContext, payment: PaymentRow) => Promise<ClaimChargeSettlement>;

/** What the routes pass in for the charges and events other modules read: transfers (payouts) and a claim's payment link (trips). */
export interface WebhookHandlers {
  onTransferEvent?: TransferEventHandler | undefined;
  settleClaimCharge?: ClaimChargeSettler | undefined;
}

export async function handlePaystackWebhook(ctx: AppContext, rawBody: Buffer, signature: string | undefined, handlers: WebhookHandlers = {}): Promise<{ handled: boolean; message: string }> {
  const { onTransferEvent, settleClaimCharge } = handlers;
  const provider = ctx.payments;
  if (provider.name !== 'paystack') throw notFound('Route not found');
  if (!provider.isSignedWebhook(rawBody, signature)) throw new AppError(401, 'Invalid webhook signature.');
  let event: { event?: string; data?: { reference?: string } & PaystackRefundEventData };
  try {
    event = JSON.parse(rawBody.toString('utf8')) as typeof event;
  } catch {
    throw new AppError(400, 'The request body is not valid JSON.');
  }
  if (event.event === 'refund.processed' || event.event === 'refund.failed') return handleRefundEvent(ctx, event.event, event.data ?? {});
  if (event.event?.startsWith('transfer.') && onTransferEvent) return onTransferEvent(ctx, event.event, (event.data ?? {}) as Parameters<TransferEventHandler>[2]);
  const reference = event.data?.reference;
  if (event.event !== 'charge.success' || !reference) return { handled: false, message: 'Event ignored' };
  const payment = await repo.findPayment(ctx.db, reference);
  if (!payment) return { handled: false, message: 'Unknown reference' };
  try {
    if (payment.claim_id) {
      if (!settleClaimCharge) return { handled: false, message: 'Trip charges are not handled here' };
      const settlement = await settleClaimCharge(ctx, payment);
      return settlement.kind === 'paid' ? { handled: true, message: 'Trip charges paid' } : { handled: true, message: 'Charge refunded' };
    }
    await expireOverdueBookings(ctx);
    const booking = await findBookingById(ctx, payment.booking_id);
    if (!booking) return { handled: false, message: 'Unknown booking' };
    // A charge the ledger holds already that is not the trip's own checkout: a trip change's charge
    // of the saved card (decision 081), recorded with the change (or refunded whole when it could not
    // be made). Settling it as the trip's payment would refund it as the wrong amount.
    if (booking.payment_reference !== reference && (await ledger.isChargeRecorded(ctx.db, reference))) return { handled: true, message: 'Charge already recorded' };
    const settlement = await settleCharge(ctx, booking, payment);
    return settlement.kind === 'paid' ? { handled: true, message: 'Booking activated' } : { handled: true, message: 'Charge refunded' };
  } catch (error) {
    if (error instanceof AppError && error.status === PROVIDER_UNAVAILABLE) {
      throw new AppError(503, 'The payment could not be verified with Paystack right now; send the event again later.');
    }
    // A verdict was reached (refused, not payable): 200, so Paystack stops retrying.
    if (error instanceof AppError) return { handled: false, message: error.message };
    throw error;
  }
}

/** What Paystack's refund events carry that names the refund: its id, or the transaction's reference and the amount. */
interface PaystackRefundEventData {
  id?: number | string;
  transaction_reference?: string;
  amount?: number;
  status?: string;
}

/**
 * refund.processed and refund.failed: the refund (matched by Paystack's id of it, or by its charge
 * and amount) is settled now, or failed for an administrator to retry. One already settled, or not
 * ours, is acknowledged (200) so that Paystack stops sending it.
 */
async function handleRefundEvent(ctx: AppContext, type: 'refund.processed' | 'refund.failed', data: PaystackRefundEventData): Promise<{ handled: boolean; message: string }> {
  const refund = await ledger.findPendingRefund(ctx.db, {
    ...(data.id !== undefined ? { providerReference: String(data.id) } : {}),
    ...(data.transaction_reference ? { chargeReference: data.transaction_reference } : {}),
    ...(data.amount !== undefined ? { amountCents: Number(data.amount) } : {}),
  });
  const match = refund ?? (data.id !== undefined && data.transaction_reference ? await ledger.findPendingRefund(ctx.db, { chargeReference: data.transaction_reference, amountCents: Number(data.amount ?? -1) }) : undefined);
  if (!match) return { handled: false, message: 'No pending refund matches this event' };
  if (type === 'refund.processed') {
    await settleRefund(ctx, match, data.id === undefined ? match.provider_reference : String(data.id));
    return { handled: true, message: 'Refund recorded as paid out' };
  }
  await ledger.failRefund(ctx.db, match.id, 'Paystack reports that this refund failed. Check it in the Paystack dashboard, then retry.');
  return { handled: true, message: 'Refund recorded as failed' };
}

// ---- Refunds: ledger rows, asked at once, then by the refund job until the provider pays them ----

/** What one ask for a refund came to. */
export type RefundAttempt =
  /** The provider paid it out: the ledger row succeeded now. */
  | 'refunded'
  /** Refused, or accepted and not yet paid out: asked or checked again later. */
  | 'pending'
  /** Refused for the last time, or the provider reports it failed: a person must look (Retry). */
  | 'failed'
  /** Another ask holds it right now. */
  | 'busy'
  /** Nothing to do: it was settled already (or is not a refund). */
  | 'settled';

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 500);

/**
 * Asks the provider for one pending refund (a ledger row), or, once the provider has accepted it,
 * how it stands; records what happened. Never throws for the provider's failure: the refund stays
 * pending for the next ask, unless this was the last try (then it is failed).
 */
export async function attemptRefund(ctx: AppContext, refundId: string, options: { lastTry?: boolean } = {}): Promise<RefundAttempt> {
  const now = ctx.clock.now();
  const current = await ledger.findEntry(ctx.db, refundId);
  if (!current || current.kind !== 'refund' || current.state !== 'pending') return 'settled';
  const claimed = await ledger.claimRefund(ctx.db, refundId, now, new Date(now.getTime() + REFUND_LEASE_MS));
  if (!claimed) return 'busy';
  const nextAsk = new Date(now.getTime() + REFUND_NEXT_ASK_MS);
  try {
    const charge = claimed.charge_reference ? await repo.findPayment(ctx.db, claimed.charge_reference) : undefined;
    if (!charge) throw new PaymentProviderError('The charge of this refund is not known to the payment provider.');
    const provider = ctx.payments;
    if (charge.provider !== provider.name) throw new PaymentProviderError(`The ${charge.provider} provider is not configured on this server.`);
    // Accepted by an earlier ask: only how it stands is asked, never a second refund.
    const answer = claimed.provider_reference
      ? { id: claimed.provider_reference, status: await provider.refundStatus({ reference: charge.reference, providerRefundId: claimed.provider_reference }) }
      : await provider.refund({ reference: charge.reference, amountCents: claimed.amount_cents, reason: claimed.reason ?? DEFAULT_REFUND_REASON, refundId: claimed.id });
    if (answer.status === 'processed') {
      await settleRefund(ctx, claimed, answer.id);
      return 'refunded';
    }
    if (answer.status === 'failed') {
      await ledger.failRefund(ctx.db, claimed.id, 'The payment provider reports that this refund failed. Check it in the provider dashboard, then retry.');
      return 'failed';
    }
    await ledger.noteRefundAccepted(ctx.db, claimed.id, answer.id, nextAsk);
    return 'pending';
  } catch (error) {
    if (options.lastTry) {
      await ledger.failRefund(ctx.db, claimed.id, errorText(error));
      return 'failed';
    }
    await ledger.noteRefundError(ctx.db, claimed.id, errorText(error), nextAsk);
    return 'pending';
  }
}

/** The provider paid a refund out: its row succeeds now, once; a refund that took more than one ask is announced to the renter. */
async function settleRefund(ctx: AppContext, refund: ledger.LedgerEntry, providerReference: string | null): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    const settled = await ledger.settleRefund(tx.db, refund.id, { providerReference, at: tx.now });
    // Paid at the first ask, the renter's notice of the cancellation or refund already said it is on its way.
    if (settled && refund.attempts > 1) {
      tx.emit({ type: 'payment.refunded', bookingId: refund.booking_id, renterId: refund.renter_id, amountCents: refund.amount_cents, reason: refund.reason });
    }
  });
}

/**
 * POST /payments/refunds/{id}/retry (administrators): a failed refund is asked for again as a new
 * pending row (the failed one stays, as the record of what happened), audited, and tried at once.
 */
export async function retryFailedRefund(ctx: AppContext, admin: UserRow, refundId: string): Promise<RefundAttempt> {
  const retry = await inTransaction(
    ctx,
    async (tx) => {
      const failed = await ledger.findEntry(tx.db, refundId);
      if (!failed || failed.kind !== 'refund') throw notFound('Refund not found');
      if (failed.state !== 'failed') throw conflict(failed.state === 'pending' ? 'This refund is still being asked for.' : 'This refund has already been paid back.');
      const already = await ledger.retryOf(tx.db, failed);
      if (already) throw conflict('This refund has already been asked for again.');
      const row = await ledger.recordRefundRetry(tx.db, failed, tx.now, admin.id);
      await enqueueRefundAttempt(ctx, tx, row.id);
      tx.emit({ type: 'payment.refund_retried', failed, retry: row });
      return row;
    },
    { by: admin },
  );
  return attemptRefund(ctx, retry.id);
}

/** GET /payments/admin/refunds: refunds waiting for the provider, or failed and waiting for a person. */
export async function listUnsettledRefunds(ctx: AppContext, state: 'pending' | 'failed'): Promise<AdminRefundRow[]> {
  const rows = await ledger.listRefunds(ctx.db, state);
  return rows.map((r) => ({
    id: r.id,
    booking_id: r.booking_id,
    booking_number: r.booking_number,
    renter_username: r.renter_username,
    amount: r.amount_cents / 100,
    state,
    reason: r.reason,
    last_error: r.last_error,
    attempts: r.attempts,
    requested_at: new Date(r.recorded_at).toISOString(),
    retried: !!r.retried,
  }));
}

// ---- A booking's money on its answer ----

/**
 * What each booking's answer shows of its money, for the whole list in one query of the ledger:
 * - refunds: the renter sees the refunds of their own charges and administrators see every one
 *   (support); the car owner does not: it is the renter's card and money;
 * - money: the sums of its rows, each party seeing their side: the renter what they paid, got back
 *   and were charged as a fee; the host their share and any penalty; administrators all.
 */
export async function findVisibleLedger(
  ctx: AppContext,
  viewer: UserRow,
  bookings: readonly Pick<BookingRecord, 'id' | 'renter_id' | 'owner_id'>[],
): Promise<Map<string, BookingLedgerView>> {
  const views = new Map<string, BookingLedgerView>();
  const entries = await ledger.entriesOfBookings(ctx.db, bookings.map((b) => b.id));
  if (entries.length === 0) return views;
  const byBooking = new Map<string, ledger.LedgerEntry[]>();
  for (const e of entries) byBooking.set(e.booking_id, [...(byBooking.get(e.booking_id) ?? []), e]);
  for (const b of bookings) {
    const rows = byBooking.get(b.id);
    if (!rows) continue;
    const renterSide = isAdmin(viewer) || b.renter_id === viewer.id;
    const hostSide = isAdmin(viewer) || b.owner_id === viewer.id;
    const m = ledger.sumBookingMoney(rows);
    views.set(b.id, {
      refunds: renterSide ? rows.filter((r) => r.kind === 'refund').map((r) => toRefundRecord(r, isAdmin(viewer))) : [],
      money: {
        charged_cents: renterSide ? m.chargedCents : null,
        refunded_cents: renterSide ? m.refundedCents : null,
        refund_pending_cents: renterSide ? m.refundPendingCents : null,
        cancellation_fee_cents: m.cancellationFeeCents,
        host_share_cents: hostSide ? m.hostShareCents : null,
        host_penalty_cents: hostSide ? m.hostPenaltyCents : null,
      },
    });
  }
  return views;
}

function toRefundRecord(row: ledger.LedgerEntry, forAdmin: boolean): BookingRefundRecord {
  return {
    id: row.id,
    reference: row.charge_reference ?? '',
    amount_cents: row.amount_cents,
    status: row.state === 'succeeded' ? 'refunded' : row.state,
    reason: row.reason ?? DEFAULT_REFUND_REASON,
    of: row.code === ledger.DEPOSIT_RELEASE_CODE ? 'deposit' : 'trip',
    requested_at: row.recorded_at,
    refunded_at: row.moved_at,
    ...(forAdmin && row.last_error ? { last_error: row.last_error } : {}),
  };
}

// ---- The sandbox checkout ----

type SandboxChargeInput = z.output<typeof sandboxChargeBodySchema>;

function isExpired(expiry: string, now: Date): boolean {
  const [mm, yy] = expiry.split('/') as [string, string];
  const year = yy.length === 2 ? 2000 + Number(yy) : Number(yy);
  // A card is valid until the end of its expiry month.
  return Date.UTC(year, Number(mm), 1) <= now.getTime();
}

/**
 * POST /payments/sandbox/charge: the local test-card checkout records the outcome and, like
 * Paystack's webhook, settles a successful charge at once (activated, or refunded), so no charge is
 * left unsettled when the browser never makes the pay call.
 */
export async function sandboxCharge(ctx: AppContext, viewer: UserRow, body: SandboxChargeInput, settleClaimCharge?: ClaimChargeSettler): Promise<{ status: 'success' | 'failed'; message: string }> {
  if (ctx.payments.name !== 'sandbox') throw notFound('Route not found');
  const payment = await repo.findPayment(ctx.db, body.reference);
  if (!payment || payment.provider !== 'sandbox') throw notFound('Payment reference not found');
  const booking = await findVisibleBooking(ctx, viewer, payment.booking_id);
  requireRenter(viewer, booking);
  if (isExpired(body.expiry, ctx.clock.now())) throw new AppError(400, 'This card has expired.', { expiry: 'The card has expired' });
  if (payment.status !== 'success') {
    const outcome: { status: 'success' | 'failed'; message: string } =
      body.card_number === SANDBOX_SUCCESS_CARD || body.card_number === SANDBOX_DECLINES_LATER_CARD
        ? { status: 'success', message: 'Payment approved.' }
        : body.card_number === SANDBOX_DECLINED_CARD
          ? { status: 'failed', message: PAYMENT_MESSAGES.declined }
          : { status: 'failed', message: `This is not a sandbox test card. Use ${SANDBOX_SUCCESS_CARD} to pay.` };
    await repo.recordOutcome(ctx.db, body.reference, outcome.status, outcome.status === 'failed' ? outcome.message : null, ctx.clock.now());
    if (outcome.status === 'failed') return outcome;
    // The card's reusable authorisation, as Paystack returns one with a successful charge.
    const prefix = body.card_number === SANDBOX_DECLINES_LATER_CARD ? SANDBOX_NOFUNDS_PREFIX : SANDBOX_AUTH_PREFIX;
    await repo.saveAuthorization(ctx.db, body.reference, `${prefix}${body.reference}`);
  }
  const charged = await repo.findPayment(ctx.db, body.reference);
  if (!charged) throw notFound('Payment reference not found');
  if (charged.claim_id) {
    // A claim's payment link (decision 073): recorded on the claim at once, as Paystack's webhook would.
    if (!settleClaimCharge) throw notFound('Payment reference not found');
    try {
      const settlement = await settleClaimCharge(ctx, charged);
      if (settlement.kind === 'refunded') return { status: 'success', message: `Payment approved. ${settlement.reason} It is being refunded in full.` };
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
    }
    return { status: 'success', message: 'Payment approved.' };
  }
  await expireOverdueBookings(ctx);
  const current = await findBookingById(ctx, payment.booking_id);
  if (!current) throw notFound('Payment reference not found');
  try {
    const settlement = await settleCharge(ctx, current, charged);
    if (settlement.kind === 'refunded') return { status: 'success', message: `Payment approved. ${settlement.reason} It is being refunded in full.` };
  } catch (error) {
    // The pay call reports anything else (a provider hiccup is retried there).
    if (!(error instanceof AppError)) throw error;
  }
  return { status: 'success', message: 'Payment approved.' };
}
