// Returns (document 2 host dashboard, document 3): a return completes the rental that is under way
// in a car. The owner (or an admin) marks it returned with the return details; an admin may force
// a return at once. Either way each started active booking goes active -> completed through the
// one transition, the renter's trip count and the car's odometer and status follow in the same
// transaction, and the events tell the renter (and, for a forced return, the owner).
import { DEFAULT_RETURN_NOTES, localInstant, type returnCarBodySchema } from '@karoo/shared';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import type { BookingRow, UserRow } from '../../db/schema';
import { inTransaction } from '../../events/domain-events';
import type { ForceReturnedBooking } from './bookings.events';
import { badRequest, conflict } from '../../lib/app-error';
import { findCarForAdmin, findManageableCar, markCarReturned, reload, today, type CarRecord } from '../cars';
import { recordCompletedTrip } from '../users';
import { transition } from './booking-status';
import * as repo from './bookings.repository';

type ReturnCarInput = z.output<typeof returnCarBodySchema>;

/** The actual return moment: a date alone is the return day at noon, Johannesburg time. */
function parseReturnDate(value: string | undefined, now: Date): Date {
  if (!value) return now;
  return /^\d{4}-\d{2}-\d{2}$/.test(value) ? localInstant(value, '12:00') : new Date(value);
}

/**
 * The owner (or an admin) marks the current rental returned: the active booking that has started
 * becomes completed with the return details, and the car is available again.
 */
export async function returnRental(ctx: AppContext, viewer: UserRow, carIdOrUsername: string, body: ReturnCarInput): Promise<CarRecord> {
  const car = await findManageableCar(ctx, viewer, carIdOrUsername);
  const odometer = body.odometer_reading ?? null;
  if (odometer !== null && odometer < car.car_odometer) {
    throw badRequest(`The odometer reading cannot be less than the car's current odometer (${car.car_odometer} km).`, {
      odometer_reading: 'Must not be less than the current odometer',
    });
  }
  const actor = car.owner_id === viewer.id ? 'owner' : 'admin';
  await inTransaction(ctx, async (tx) => {
    const active = await repo.findStartedActiveBookings(tx.db, car.id, today(ctx));
    if (active.length === 0) throw conflict('This car has no rental to return.');
    const details = {
      actual_return_date: parseReturnDate(body.actual_return_date, tx.now),
      condition_notes: body.condition_notes || DEFAULT_RETURN_NOTES,
      odometer_reading: odometer,
    };
    for (const booking of active) {
      await transition(tx, booking, { to: 'completed', actor, set: details });
      await recordCompletedTrip(tx.db, booking.renter_id);
    }
    await markCarReturned(tx, car, odometer);
  }, { by: viewer });
  return reload(ctx, car.id);
}

/** What a return changes on a booking, as the audit log records it before and after. */
function returnState(b: Pick<BookingRow, 'status' | 'end_date' | 'completed_at' | 'actual_return_date' | 'condition_notes'>) {
  const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
  return { status: b.status, end_date: b.end_date, completed_at: iso(b.completed_at), actual_return_date: iso(b.actual_return_date), condition_notes: b.condition_notes };
}

/** An admin ends a rental at once (document 3): the car's started active bookings complete. */
export async function forceReturn(ctx: AppContext, admin: UserRow, carIdOrUsername: string, reason: string | undefined): Promise<{ affected_bookings: number; car: CarRecord }> {
  const car = await findCarForAdmin(ctx, carIdOrUsername);
  const note = reason ? `Force returned by an administrator: ${reason}` : 'Force returned by an administrator';
  const affected = await inTransaction(ctx, async (tx) => {
    const active = await repo.findStartedActiveBookings(tx.db, car.id, today(ctx));
    if (active.length === 0) throw conflict('This car has no active rental to end.');
    const ended: ForceReturnedBooking[] = [];
    for (const booking of active) {
      const completed = await transition(tx, booking, {
        to: 'completed',
        actor: 'admin',
        forced: { reason: reason ?? null },
        set: { actual_return_date: tx.now, condition_notes: note, odometer_reading: null },
      });
      await recordCompletedTrip(tx.db, booking.renter_id);
      ended.push({ id: booking.id, booking_number: booking.booking_number, before: returnState(booking), after: returnState(completed) });
    }
    await markCarReturned(tx, car, null);
    tx.emit({ type: 'car.force_returned', car, reason: reason ?? null, affected: active.length, bookings: ended });
    return active.length;
  }, { by: admin });
  return { affected_bookings: affected, car: await reload(ctx, car.id) };
}
