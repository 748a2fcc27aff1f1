// What happens to bookings, in the words the rest of Karoo reacts to (events/domain-events.ts).
import type { BookingActor } from '@karoo/shared';
import type { CancelCauseValue } from '../../db/schema';
import type { CarRef } from '../cars';
import type { BookingRecord } from './bookings.repository';

declare module '../../events/domain-events' {
  interface DomainEvents {
    'booking.requested': { booking: BookingRecord };
    'booking.confirmed': { booking: BookingRecord; by: BookingActor | 'instant' };
    'booking.rejected': { booking: BookingRecord; response: string | null };
    'booking.cancelled': { booking: BookingRecord; cause: CancelCause; reason: string | null };
    'booking.paid': { booking: BookingRecord };
    'booking.completed': { booking: BookingRecord; forcedReason: string | null; forced: boolean };
    /** An administrator ended the car's rental at once: each booking it ended, with its state before and after. */
    'car.force_returned': { car: CarRef; reason: string | null; affected: number; bookings: ForceReturnedBooking[] };
  }
}

/** Why a booking was cancelled: it decides who is told what, and is stored with it (bookings.cancel_cause). */
export type CancelCause = CancelCauseValue;

/** A booking a force return ended: what it was and what it became (the audit row names each). */
export interface ForceReturnedBooking {
  id: string;
  booking_number: string;
  before: Record<string, unknown>;
  after: Record<string, unknown>;
}
