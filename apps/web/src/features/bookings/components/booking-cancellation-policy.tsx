// The renter's cancellation policy on a trip card: for a confirmed trip waiting for payment, read
// as paid now (what paying now would give); for a paid trip not yet started, by its real payment
// time, saying so when the free window has ended. Nothing for the host, or once the trip starts.
import type { Booking } from '@karoo/shared';
import { CancellationPolicyNote } from '@/components/cancellation-policy-note';
import { bookedTripPolicy, paidTripPolicy, policyTripOf } from '@/lib/cancellation-policy';
import type { BookingRole } from '../utils/booking-actions';

/** The policy sentence for this booking as the renter sees it now, or null when none applies. */
export function renterCancellationPolicy(booking: Booking, now: Date): string | null {
  const trip = policyTripOf(booking);
  if (booking.payment_status === 'paid') {
    return booking.status === 'active' && booking.paid_at ? paidTripPolicy({ ...trip, paidAt: new Date(booking.paid_at) }, now) : null;
  }
  return booking.status === 'confirmed' ? bookedTripPolicy(trip, now) : null;
}

export function BookingCancellationPolicy({ booking, role }: { booking: Booking; role: BookingRole }) {
  const policy = role === 'renter' ? renterCancellationPolicy(booking, new Date()) : null;
  return policy ? <CancellationPolicyNote text={policy} className="mt-3" /> : null;
}
