// The cancellation policy in the renter's words (issue 20; decision 037), for the car page, the
// booking request, checkout and My Bookings. The dates and the fee come from the shared
// cancellation.ts, the rules the server refunds by; this file only chooses the sentence. It imports
// no zod: the car page must stay light.
import {
  describeCancellationPolicy,
  FREE_CANCELLATION_HOURS,
  formatPolicyMoment,
  formatRand,
  freeCancellationUntil,
  LATE_BOOKING_GRACE_HOURS,
  LATE_BOOKING_HOURS,
  lateCancellationFee,
  tripStart,
  type Booking,
  type PaidTrip,
} from '@karoo/shared';

/** What the policy reads of a trip, paid or not yet. */
export type PolicyTrip = Pick<PaidTrip, 'isHourly' | 'durationDays' | 'subtotalCents' | 'startDate' | 'startTime'>;

const hours = (n: number) => `${n} ${n === 1 ? 'hour' : 'hours'}`;

/** The policy before the renter has picked dates: the rules without a date or an amount. */
export const GENERAL_CANCELLATION_POLICY =
  `Free cancellation until ${hours(FREE_CANCELLATION_HOURS)} before the trip starts ` +
  `(booked less than ${hours(LATE_BOOKING_HOURS)} ahead: for ${hours(LATE_BOOKING_GRACE_HOURS)} after paying). ` +
  "After that, cancelling costs one day's average price (half of one day's for trips of one or two days, half the rental for hourly trips); the rest is refunded.";

const hasStarted = (trip: PolicyTrip, now: Date) => tripStart(trip).getTime() <= now.getTime();

/**
 * A trip being booked or paid for now (the car page, the request, checkout): read as paid now, so a
 * trip starting within 25 hours gets its free hour from now. Null once the start has passed.
 */
export function bookedTripPolicy(trip: PolicyTrip, now: Date): string | null {
  return hasStarted(trip, now) ? null : describeCancellationPolicy({ ...trip, paidAt: now });
}

/** A paid, upcoming trip (My Bookings), by its real payment time; a free window that has ended is said so. */
export function paidTripPolicy(trip: PolicyTrip & Pick<PaidTrip, 'paidAt'>, now: Date): string | null {
  if (hasStarted(trip, now)) return null;
  const freeUntil = freeCancellationUntil(trip);
  if (now < freeUntil) return describeCancellationPolicy(trip);
  return `Free cancellation ended ${formatPolicyMoment(freeUntil)}. Cancelling now costs ${formatRand(lateCancellationFee(trip) / 100)}; the rest is refunded.`;
}

/** A booking answer (rand) as the policy reads it (cents). */
export function policyTripOf(booking: Pick<Booking, 'is_hourly_booking' | 'duration_days' | 'subtotal' | 'start_date' | 'start_time'>): PolicyTrip {
  return {
    isHourly: booking.is_hourly_booking,
    durationDays: booking.duration_days,
    subtotalCents: Math.round(booking.subtotal * 100),
    startDate: booking.start_date,
    startTime: booking.start_time,
  };
}
