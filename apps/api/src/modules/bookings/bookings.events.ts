// What happens to bookings, in the words the rest of Karoo reacts to (events/domain-events.ts).
import type { BookingActor } from '@karoo/shared';
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
    /** An administrator ended the car's rental at once (the bookings module completes it). */
    'car.force_returned': { car: CarRef; reason: string | null; affected: number };
  }
}

/** Why a booking was cancelled: it decides who is told what. */
export type CancelCause = 'renter' | 'admin' | 'expired' | 'car_removed' | 'renter_closed';
