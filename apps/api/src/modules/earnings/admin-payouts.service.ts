// Payouts an admin records by hand (money sent outside Karoo; the payouts module pays by itself,
// decision 068): a final trip's only (completed, or cancelled with a fee kept); a payout is the host's
// share less any penalty still owed, written to the ledger; paid is final, and a mistake is corrected
// by an audited reversal (its own row, and a ledger row).
import type { Earning, updatePayoutBodySchema } from '@karoo/shared';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import type { Db } from '../../db/connection';
import { inTransaction } from '../../events/domain-events';
import type { UserRow } from '../../db/schema';
import { conflict, notFound } from '../../lib/app-error';
import { clearPaidPayout, findBookingById, lockPayout, updatePayout as setBookingPayout, type BookingRecord } from '../bookings';
import * as ledger from '../ledger';
import * as repo from './earnings.repository';
import { rand, iso, earningRecordOf, toEarning } from './earnings.money';

/** Why a paid payout cannot be changed, and what to do instead. */
const paidIsFinal = (bookingNumber: string) =>
  `A paid payout is final. To correct it, reverse it with a reason: POST /api/earnings/admin/payouts/${bookingNumber}/reverse.`;

/** Whose money a booking's payout moves. */
const partiesOf = (b: Pick<BookingRecord, 'id' | 'renter_id' | 'owner_id'>): ledger.LedgerParties => ({ bookingId: b.id, renterId: b.renter_id, hostId: b.owner_id });

/** Trips that are over and keep their money: a completed trip, or a cancelled one (its fee, or a penalty). */
const FINAL_STATUSES: readonly string[] = ['completed', 'cancelled'];

/**
 * What marking this booking paid transfers: its host's share, less any penalty the host still owes
 * (their balance, which includes this share), never less than nothing: min(share, max(0, balance)).
 * Called under lockHostPayouts, so two payouts of one host never use one balance.
 */
async function payableNow(db: Db, booking: Pick<BookingRecord, 'id' | 'owner_id'>): Promise<number> {
  // What a transfer already paid or is paying of this booking (payouts module) is not paid again.
  const [shares, paid, balance] = await Promise.all([ledger.sharesOfBooking(db, booking.id), ledger.paidOutOfBooking(db, booking.id), ledger.hostBalanceCents(db, booking.owner_id)]);
  return Math.max(0, Math.min(shares.hostCents - paid, balance));
}

/**
 * PATCH /earnings/earning/updatePayout/{id} (admin): the payout of one earning (a booking). Only a
 * final trip is payable (processing or paid): completed, or cancelled with a share for its host.
 * Marked paid, the amount transferred is written to the ledger. A paid payout is final: the same
 * request again answers it unchanged, anything else is a 409 naming the reversal.
 */
export async function updatePayout(ctx: AppContext, admin: UserRow, bookingIdOrNumber: string, body: z.output<typeof updatePayoutBodySchema>): Promise<Earning> {
  const booking = await findBookingById(ctx, bookingIdOrNumber);
  if (!booking) throw notFound('Earning not found');
  if (booking.status !== 'completed' && booking.payment_status !== 'paid') throw conflict('Only completed or paid bookings have a payout.');
  await inTransaction(
    ctx,
    async (tx) => {
      const current = await lockPayout(tx.db, booking.id);
      if (!current) throw notFound('Earning not found');
      if (current.payout_status === 'paid') {
        const sameReference = body.payout_reference === undefined || body.payout_reference === current.payout_reference;
        // A retried "mark paid" (the Finance tab marks a host's bookings one by one) changes nothing.
        if (body.payout_status === 'paid' && sameReference) return;
        throw conflict(paidIsFinal(current.booking_number));
      }
      // A transfer under way is answered by the bank (decision 068); marking it by hand would pay it twice.
      if (current.payout_status === 'processing' && current.payout_reference?.startsWith('KAROO-PO-')) {
        throw conflict(`This payout is being sent by transfer ${current.payout_reference}: its outcome is recorded when the bank answers.`);
      }
      if (body.payout_status !== 'pending' && !FINAL_STATUSES.includes(current.status)) {
        throw conflict(`Only a completed trip can be paid out: this booking is ${current.status}.`);
      }
      let paidCents = 0;
      if (body.payout_status === 'paid') {
        await ledger.lockHostPayouts(tx.db, booking.owner_id);
        paidCents = await payableNow(tx.db, booking);
      }
      if (!(await setBookingPayout(tx.db, booking.id, { payout_status: body.payout_status, payout_reference: body.payout_reference }, tx.now))) {
        throw conflict(paidIsFinal(current.booking_number));
      }
      const reference = body.payout_reference ?? current.payout_reference;
      if (paidCents > 0) await ledger.recordPayout(tx.db, partiesOf(booking), { amountCents: paidCents, reference, at: tx.now, actorId: admin.id });
      tx.emit({
        type: 'payout.updated',
        bookingId: booking.id,
        bookingNumber: booking.booking_number,
        before: { payout_status: current.payout_status, payout_reference: current.payout_reference },
        after: { payout_status: body.payout_status, payout_reference: reference, ...(body.payout_status === 'paid' ? { amount: rand(paidCents) } : {}) },
      });
    },
    { by: admin },
  );
  const updated = await earningRecordOf(ctx.db, booking.id);
  if (!updated) throw notFound('Earning not found');
  return toEarning(updated);
}

/**
 * POST /earnings/admin/payouts/{id}/reverse (admin): the one way a paid payout changes. The
 * reversal is kept as its own row (what was paid, its reference and time, the reason, who, when)
 * and as a ledger row of what was transferred, and audited with the payout before and after; the
 * trip's payout is pending (owed) again.
 */
export async function reversePayout(ctx: AppContext, admin: UserRow, bookingIdOrNumber: string, reason: string): Promise<Earning> {
  const booking = await findBookingById(ctx, bookingIdOrNumber);
  if (!booking) throw notFound('Payout not found');
  await inTransaction(
    ctx,
    async (tx) => {
      const current = await lockPayout(tx.db, booking.id);
      if (!current) throw notFound('Payout not found');
      if (current.payout_status !== 'paid' || !(await clearPaidPayout(tx.db, current.id, tx.now))) {
        throw conflict(`Only a paid payout can be reversed: this one is ${current.payout_status}.`);
      }
      await ledger.lockHostPayouts(tx.db, booking.owner_id);
      const paidCents = await ledger.paidOutOfBooking(tx.db, booking.id);
      await repo.insertPayoutReversal(tx.db, current, { amountCents: paidCents, reason, by: admin }, tx.now);
      if (paidCents > 0) {
        await ledger.recordPayoutReversal(tx.db, partiesOf(booking), { amountCents: paidCents, reference: current.payout_reference, reason, at: tx.now, actorId: admin.id });
      }
      tx.emit({
        type: 'payout.reversed',
        bookingId: booking.id,
        bookingNumber: booking.booking_number,
        hostId: booking.owner_id,
        amountCents: paidCents,
        before: { payout_status: 'paid', payout_reference: current.payout_reference, payout_at: iso(current.payout_at), amount: rand(paidCents) },
        after: { payout_status: 'pending', payout_reference: null, payout_at: null },
        reason,
      });
    },
    { by: admin },
  );
  const updated = await earningRecordOf(ctx.db, booking.id);
  if (!updated) throw notFound('Payout not found');
  return toEarning(updated);
}
