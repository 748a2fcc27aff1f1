// SQL for payment attempts: each reference the server issues, tied to one booking (and, for a
// claim's payment link, to that claim), and its outcome; at most one open checkout per booking
// (payments_one_open_per_booking) and per claim (payments_one_open_per_claim), and the refund of a
// charge that could not stay on its booking or claim.
import type { Db } from '../../db/connection';
import type { PaymentRow, RefundReasonCode } from '../../db/schema';

export type PaymentOutcome = 'success' | 'failed';

/**
 * Opens a checkout for a booking (or one of its claims, with claim_id); false when it already has an
 * open one (the unique partial index decides, also between two instances at once), and nothing is written.
 */
export async function insertOpenPayment(
  db: Db,
  payment: { reference: string; booking_id: string; provider: PaymentRow['provider']; amount_cents: number; claim_id?: string },
  now: Date,
): Promise<boolean> {
  const row = await db
    .insertInto('payments')
    .values({ ...payment, currency: 'ZAR', status: 'initialized', message: null, created_at: now, updated_at: now })
    .onConflict((oc) => oc.doNothing())
    .returning('reference')
    .executeTakeFirst();
  return row !== undefined;
}

/** The booking's own open checkout (status 'initialized'), if any: there is at most one. */
export function findOpenPayment(db: Db, bookingId: string): Promise<PaymentRow | undefined> {
  return db.selectFrom('payments').selectAll().where('booking_id', '=', bookingId).where('claim_id', 'is', null).where('status', '=', 'initialized').executeTakeFirst();
}

/** A claim's open payment link (status 'initialized'), if any: there is at most one. */
export function findOpenClaimPayment(db: Db, claimId: string): Promise<PaymentRow | undefined> {
  return db.selectFrom('payments').selectAll().where('claim_id', '=', claimId).where('status', '=', 'initialized').executeTakeFirst();
}

/** Keeps what the provider answered to initialise, so that the same session is answered again. */
export async function saveCheckout(db: Db, reference: string, checkout: { access_code: string | null; authorization_url: string | null }, now: Date): Promise<void> {
  await db.updateTable('payments').set({ ...checkout, updated_at: now }).where('reference', '=', reference).execute();
}

/** Closes an open checkout that can no longer be paid through (never started, another provider). */
export async function closeOpenPayment(db: Db, reference: string, message: string, now: Date): Promise<void> {
  await db.updateTable('payments').set({ status: 'failed', message, updated_at: now }).where('reference', '=', reference).where('status', '=', 'initialized').execute();
}

export function findPayment(db: Db, reference: string): Promise<PaymentRow | undefined> {
  return db.selectFrom('payments').selectAll().where('reference', '=', reference).executeTakeFirst();
}

/** The payment row, locked for the caller's transaction (one settlement of a reference at a time). */
export function lockPayment(db: Db, reference: string): Promise<PaymentRow | undefined> {
  return db.selectFrom('payments').selectAll().where('reference', '=', reference).forUpdate().executeTakeFirst();
}

/** Records what happened to a reference; a success is final and never overwritten. */
export async function recordOutcome(db: Db, reference: string, status: PaymentOutcome, message: string | null, now: Date): Promise<void> {
  await db
    .updateTable('payments')
    .set({ status, message, updated_at: now })
    .where('reference', '=', reference)
    .where('status', '!=', 'success')
    .execute();
}

/**
 * A successful charge that cannot stay on its booking: recorded as a success not kept (refund_status
 * 'pending'), with why; its refund is a ledger row. Once only: false when it was already recorded.
 */
export async function recordRefundDue(db: Db, reference: string, refund: { amount_cents: number; reason: string; code: RefundReasonCode }, now: Date): Promise<boolean> {
  const row = await db
    .updateTable('payments')
    .set({
      status: 'success',
      message: null,
      refund_status: 'pending',
      refund_amount_cents: refund.amount_cents,
      refund_reason: refund.reason,
      refund_reason_code: refund.code,
      refund_requested_at: now,
      updated_at: now,
    })
    .where('reference', '=', reference)
    .where('refund_status', 'is', null)
    .returning('reference')
    .executeTakeFirst();
  return row !== undefined;
}

/** The card's reusable authorisation a successful charge returned (decision 064): kept to charge a claim beyond the deposit. */
export async function saveAuthorization(db: Db, reference: string, authorizationCode: string): Promise<void> {
  await db.updateTable('payments').set({ authorization_code: authorizationCode }).where('reference', '=', reference).execute();
}

/** The authorisation of the charge that paid a booking, and the email it was charged for, if the card left one. */
export function findBookingAuthorization(db: Db, bookingId: string): Promise<{ reference: string; authorization_code: string } | undefined> {
  return db
    .selectFrom('payments')
    .select(['reference', 'authorization_code'])
    .where('booking_id', '=', bookingId)
    .where('status', '=', 'success')
    .where('authorization_code', 'is not', null)
    .orderBy('created_at', 'desc')
    .executeTakeFirst() as Promise<{ reference: string; authorization_code: string } | undefined>;
}
