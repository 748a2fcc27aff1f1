// Deposits after the trip (issue 34; docs/decisions/064-deposits-charged-with-the-trip.md): the
// deposit was taken with the trip's card charge (settleCharge); it goes back as a refund of that
// charge on the refund queue (released in full, or the part no claim took), and a claim larger than
// what is left of it is charged to the card's saved authorisation (Paystack charge_authorization).
import { randomBytes } from 'node:crypto';
import type { AppContext } from '../../context';
import type { Tx } from '../../events/domain-events';
import { PaymentProviderError } from '../../lib/payments';
import { AppError } from '../../lib/app-error';
import * as ledger from '../ledger';
import { attemptRefund, partiesOf } from './payments.service';
import * as repo from './payments.repository';
import { enqueueRefundAttempt } from './refund-queue';

type DepositBooking = { id: string; renter_id: string; owner_id: string; booking_number: string };

/** Records the release of what is held of a booking's deposit (in the caller's transaction) and queues its refund; the id to ask at once after the commit. */
export async function releaseDeposit(ctx: AppContext, tx: Tx, booking: DepositBooking, reason: string, actorId: string | null = null): Promise<{ id: string; amountCents: number } | null> {
  const held = await ledger.depositHeldCents(tx.db, booking.id);
  if (held <= 0) return null;
  const chargeReference = await ledger.depositChargeReference(tx.db, booking.id);
  const row = await ledger.recordDepositRelease(tx.db, partiesOf(booking), { amountCents: held, chargeReference, at: tx.now, reason, actorId });
  if (!row) return null;
  await enqueueRefundAttempt(ctx, tx, row.id);
  return { id: row.id, amountCents: held };
}

/** Asks the provider for a release at once (the queued job is the next ask). */
export function askReleaseNow(ctx: AppContext, releaseId: string) {
  return attemptRefund(ctx, releaseId);
}

export type SavedCardCharge = { status: 'success'; reference: string } | { status: 'declined'; message: string };

/**
 * Charges the card that paid the trip for the part of a claim beyond the deposit, through its saved
 * authorisation. Declined when the bank says no, or when the card left no reusable authorisation.
 * A provider that gives no verdict is a 502: nothing is recorded, the caller may ask again.
 */
export async function chargeSavedCard(ctx: AppContext, booking: DepositBooking, input: { amountCents: number; email: string }): Promise<SavedCardCharge> {
  const saved = await repo.findBookingAuthorization(ctx.db, booking.id);
  if (!saved) return { status: 'declined', message: 'The card that paid the trip cannot be charged again.' };
  const reference = `KAROO-${booking.booking_number}-CLAIM-${randomBytes(5).toString('hex').toUpperCase()}`;
  try {
    const answer = await ctx.payments.chargeAuthorization({ authorizationCode: saved.authorization_code, email: input.email, amountCents: input.amountCents, currency: 'ZAR', reference });
    return answer.status === 'success' ? { status: 'success', reference: answer.reference } : { status: 'declined', message: answer.message };
  } catch (error) {
    if (error instanceof PaymentProviderError) throw new AppError(502, error.message);
    throw error;
  }
}
