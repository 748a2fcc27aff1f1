// The payout columns of a booking (payout_status, payout_reference, payout_at): the bookings
// module owns the bookings table and alone writes it; the earnings module decides when a payout
// changes and calls these in its transaction.
import type { Db } from '../../db/connection';
import type { PayoutStatusValue } from '../../db/schema';

/** The payout state of one booking, locked for the caller's transaction: payout changes of a booking happen one at a time. */
export function lockPayout(db: Db, bookingId: string) {
  return db
    .selectFrom('bookings')
    .select(['id', 'booking_number', 'status', 'payout_status', 'payout_reference', 'payout_at', 'car_owner_earnings_cents'])
    .where('id', '=', bookingId)
    .forUpdate()
    .executeTakeFirst();
}
export type PayoutState = NonNullable<Awaited<ReturnType<typeof lockPayout>>>;

/** The payout state of one earning (stored on its booking). A paid payout is never overwritten: false when it was paid. */
export async function updatePayout(db: Db, bookingId: string, payout: { payout_status: PayoutStatusValue; payout_reference?: string | null }, now: Date): Promise<boolean> {
  const row = await db
    .updateTable('bookings')
    .set({
      payout_status: payout.payout_status,
      ...(payout.payout_reference !== undefined ? { payout_reference: payout.payout_reference } : {}),
      payout_at: payout.payout_status === 'paid' ? now : null,
      updated_at: now,
    })
    .where('id', '=', bookingId)
    .where('payout_status', '!=', 'paid')
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** A paid payout taken back: the booking's payout is pending again. False when it was not paid. */
export async function clearPaidPayout(db: Db, bookingId: string, now: Date): Promise<boolean> {
  const row = await db
    .updateTable('bookings')
    .set({ payout_status: 'pending', payout_reference: null, payout_at: null, updated_at: now })
    .where('id', '=', bookingId)
    .where('payout_status', '=', 'paid')
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}
