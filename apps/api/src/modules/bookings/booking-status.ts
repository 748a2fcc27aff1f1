// The booking status machine applied (decisions.md section 5): the one place that writes a booking's
// status. Every caller (host, renter, admin, payment, expiry, return, force return, a car's or an
// account's removal) goes through transition(), which asks the shared machine whether that part may
// make that change, updates conditionally (whoever changed the booking first wins), keeps
// expires_at, and raises the event the rest of Karoo reacts to.
import {
  BOOKING_STATUSES,
  bookingExpiresAt,
  canActorTransition,
  canTransition,
  expiryReason,
  type BookingActor,
  type BookingStatus,
} from '@karoo/shared';
import type { Updateable } from 'kysely';
import type { AppContext } from '../../context';
import type { BookingRow, BookingsTable } from '../../db/schema';
import { inTransaction, type Tx } from '../../events/domain-events';
import type { CancelCause } from './bookings.events';
import { conflict, forbidden, notFound } from '../../lib/app-error';
import * as repo from './bookings.repository';
import type { BookingRecord } from './bookings.repository';

const STATUS_VERB: Record<BookingStatus, string> = {
  pending: 'made pending',
  confirmed: 'accepted',
  rejected: 'rejected',
  cancelled: 'cancelled',
  active: 'activated',
  completed: 'completed',
};

/** The statuses from which the machine allows a cancellation (pending, confirmed): what a removal cancels. */
export const CANCELLABLE_STATUSES = BOOKING_STATUSES.filter((status) => canTransition(status, 'cancelled'));

export interface TransitionInput {
  to: BookingStatus;
  actor: BookingActor;
  /** Why: stored as host_response (a host's message, a cancellation or expiry reason). */
  reason?: string | null;
  /** For a cancellation: who is told what. */
  cause?: CancelCause;
  /** Columns the change records besides the status (payment, return details). */
  set?: Omit<Updateable<BookingsTable>, 'status' | 'expires_at'>;
  /** A completion forced by an administrator, and why (for the renter's notice). */
  forced?: { reason: string | null };
}

/** Refuses what the machine forbids (409) and what this part may not do (403). */
export function checkTransition(from: BookingStatus, to: BookingStatus, actor: BookingActor): void {
  if (from === to) throw conflict(`This booking is already ${from}.`);
  if (!canTransition(from, to)) throw conflict(`A ${from} booking cannot be ${STATUS_VERB[to]}.`);
  if (!canActorTransition(from, to, actor)) {
    throw forbidden(to === 'cancelled' ? 'Only the renter can cancel this booking.' : 'Only the car owner or an administrator can do this.');
  }
}

/**
 * Moves one booking to `to` inside the caller's unit of work: checked against the machine, written
 * with one conditional UPDATE (409 when another request changed it first), and announced.
 */
export async function transition(tx: Tx, booking: Pick<BookingRow, 'id' | 'status' | 'start_date' | 'created_at'>, input: TransitionInput): Promise<BookingRecord> {
  const { to, actor } = input;
  const from = booking.status;
  checkTransition(from, to, actor);
  const now = tx.now;
  const cause = cancelCauseOf(input);
  const changed = await repo.updateBookingStatus(
    tx.db,
    booking.id,
    from,
    {
      ...input.set,
      status: to,
      updated_at: now,
      ...(input.reason !== undefined ? { host_response: input.reason, host_response_date: now } : {}),
      ...(to === 'confirmed' ? { confirmed_at: now } : {}),
      // Why, as a code: what a late payment's refund branches on, never the reason's wording.
      ...(to === 'cancelled' ? { cancelled_at: now, cancel_cause: cause } : {}),
      ...(to === 'completed' ? { completed_at: now } : {}),
      // Accepted and unpaid, a booking has a new deadline; in any other state it cannot expire.
      expires_at:
        to === 'confirmed'
          ? bookingExpiresAt({ status: 'confirmed', payment_status: 'unpaid', start_date: booking.start_date, created_at: booking.created_at, confirmed_at: now })
          : null,
    },
    // A confirmed booking moves on (paid, or cancelled) only while it is unpaid.
    { unpaidOnly: from === 'confirmed' },
  );
  if (!changed) throw conflict('This booking was changed in the meantime. Reload it and try again.');
  const record = await repo.findBookingRecord(tx.db, booking.id);
  if (!record) throw notFound('Booking not found');
  announce(tx, record, input);
  return record;
}

/** Who or what cancelled: the caller's cause, else the renter or an administrator. */
function cancelCauseOf(input: TransitionInput): CancelCause {
  return input.cause ?? (input.actor === 'renter' ? 'renter' : 'admin');
}

function announce(tx: Tx, booking: BookingRecord, input: TransitionInput): void {
  const reason = input.reason ?? null;
  switch (input.to) {
    case 'confirmed':
      return tx.emit({ type: 'booking.confirmed', booking, by: input.actor });
    case 'rejected':
      return tx.emit({ type: 'booking.rejected', booking, response: reason });
    case 'cancelled':
      return tx.emit({ type: 'booking.cancelled', booking, cause: cancelCauseOf(input), reason });
    case 'active':
      return tx.emit({ type: 'booking.paid', booking });
    case 'completed':
      return tx.emit({ type: 'booking.completed', booking, forced: !!input.forced, forcedReason: input.forced?.reason ?? null });
  }
}

/** The moment a new booking expires if nobody acts (pending, or confirmed straight away and unpaid). */
export function initialExpiry(b: { status: BookingStatus; start_date: string; created_at: Date; confirmed_at: Date | null }): Date | null {
  return bookingExpiresAt({ ...b, payment_status: 'unpaid' });
}

/**
 * Pending and unpaid confirmed bookings of a car, or of a renter, are cancelled in the caller's
 * unit of work (a car taken off Karoo, an account closed). Paid bookings are records, never touched.
 */
export async function cancelUnpaidBookings(tx: Tx, of: { carId: string } | { renterId: string }, cause: CancelCause, reason: string): Promise<BookingRecord[]> {
  const rows = await repo.findUnpaidBookings(tx.db, of, CANCELLABLE_STATUSES);
  const cancelled: BookingRecord[] = [];
  for (const row of rows) cancelled.push(await transition(tx, row, { to: 'cancelled', actor: 'system', cause, reason }));
  return cancelled;
}

/**
 * Cancels every booking whose expires_at has passed and tells both parties (through the event).
 * The background job calls it every minute; writes that depend on a car's dates (create, accept,
 * pay) call it first, so an expired request never blocks dates or gets accepted or paid in the gap
 * between two sweeps. Rows are taken with FOR UPDATE SKIP LOCKED: several instances sweeping at
 * once each cancel (and announce) a booking at most once.
 */
export async function expireOverdueBookings(ctx: AppContext): Promise<number> {
  return inTransaction(ctx, async (tx) => {
    const overdue = await repo.lockOverdueBookings(tx.db, tx.now);
    for (const row of overdue) {
      await transition(tx, row, { to: 'cancelled', actor: 'system', cause: 'expired', reason: expiryReason({ ...row, expires_at: row.expires_at! }) });
    }
    return overdue.length;
  });
}
