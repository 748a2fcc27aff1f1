// SQL for payment attempts: each reference the server issues, tied to one booking, and its outcome;
// at most one open checkout per booking (payments_one_open_per_booking), and the refund of a charge
// that could not stay on its booking.
import type { NotNull } from 'kysely';
import type { Db } from '../../db/connection';
import type { PaymentRow, RefundReasonCode } from '../../db/schema';

export type PaymentOutcome = 'success' | 'failed';

/**
 * Opens a checkout for a booking; false when the booking already has an open one (the unique
 * partial index decides, also between two instances at once), and nothing is written.
 */
export async function insertOpenPayment(
  db: Db,
  payment: { reference: string; booking_id: string; provider: PaymentRow['provider']; amount_cents: number },
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

/** The booking's open checkout (status 'initialized'), if any: there is at most one. */
export function findOpenPayment(db: Db, bookingId: string): Promise<PaymentRow | undefined> {
  return db.selectFrom('payments').selectAll().where('booking_id', '=', bookingId).where('status', '=', 'initialized').executeTakeFirst();
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
 * A successful charge that cannot stay on its booking: recorded as a success owed back in full,
 * refund 'pending' and due now. Once only: false when its refund was already recorded.
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
      refund_next_attempt_at: now,
      updated_at: now,
    })
    .where('reference', '=', reference)
    .where('refund_status', 'is', null)
    .returning('reference')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Takes a due refund for one attempt: the next attempt moves to `leaseUntil`, so another instance
 * (or the retry job) does not ask the provider at the same time. Undefined when not due or done.
 */
export function claimRefund(db: Db, reference: string, now: Date, leaseUntil: Date): Promise<PaymentRow | undefined> {
  return db
    .updateTable('payments')
    .set((eb) => ({ refund_attempts: eb('refund_attempts', '+', 1), refund_next_attempt_at: leaseUntil, updated_at: now }))
    .where('reference', '=', reference)
    .where('refund_status', '=', 'pending')
    .where('refund_next_attempt_at', '<=', now)
    .returningAll()
    .executeTakeFirst();
}

export async function recordRefunded(db: Db, reference: string, providerId: string | null, now: Date): Promise<void> {
  await db
    .updateTable('payments')
    .set((eb) => ({
      refund_status: 'refunded',
      refunded_at: now,
      refund_next_attempt_at: null,
      refund_error: null,
      refund_provider_id: providerId ?? eb.ref('refund_provider_id'),
      updated_at: now,
    }))
    .where('reference', '=', reference)
    .where('refund_status', '=', 'pending')
    .execute();
}

export async function recordRefundFailure(db: Db, reference: string, error: string, nextAttemptAt: Date, now: Date): Promise<void> {
  await db
    .updateTable('payments')
    .set({ refund_error: error, refund_next_attempt_at: nextAttemptAt, updated_at: now })
    .where('reference', '=', reference)
    .where('refund_status', '=', 'pending')
    .execute();
}

/** Pending refunds whose next attempt is due, oldest first. */
export async function findDueRefunds(db: Db, now: Date, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('payments')
    .select('reference')
    .where('refund_status', '=', 'pending')
    .where('refund_next_attempt_at', '<=', now)
    .orderBy('refund_next_attempt_at')
    .limit(limit)
    .execute();
  return rows.map((r) => r.reference);
}

/**
 * The refunded charges (pending or done) of these bookings, oldest first: one query for a whole
 * list of bookings (payments_booking_idx), never one per booking.
 */
export function findRefundsOfBookings(db: Db, bookingIds: readonly string[]) {
  return db
    .selectFrom('payments')
    .select(['booking_id', 'reference', 'amount_cents', 'refund_status', 'refund_amount_cents', 'refund_reason', 'refund_requested_at', 'refunded_at', 'updated_at'])
    .where('booking_id', 'in', bookingIds)
    .where('refund_status', 'is not', null)
    .$narrowType<{ refund_status: NotNull }>()
    .orderBy('refund_requested_at')
    .orderBy('reference')
    .execute();
}
