// Which actions a user sees on a booking: derived from the shared status machine and who may act
// (packages/shared/src/bookings.ts), never from ad-hoc status checks.
import { canActorTransition, hasDayStarted, reviewWindowEnd, type Booking, type User } from '@karoo/shared';
import { hasTripStarted } from '@/lib/cancellation';

export type BookingRole = 'renter' | 'owner';
/** `cancel` withdraws an unpaid booking; `cancel-trip` and `report-no-show` cancel a paid one by the policy. */
export type BookingAction = 'accept' | 'reject' | 'cancel' | 'cancel-trip' | 'report-no-show' | 'pay' | 'return' | 'review';

/**
 * The user's relation to this booking: the car owner sees it as received, the renter as their
 * request, and anyone else (an admin looking at other people's trips) has none: My Bookings shows
 * only the viewer's own, and the admin's oversight actions belong to the admin panel.
 */
export function roleOf(booking: Pick<Booking, 'car_owner' | 'user_username'>, user: Pick<User, 'username'> | null | undefined): BookingRole | null {
  if (!user) return null;
  const me = user.username.toLowerCase();
  if (booking.user_username.toLowerCase() === me) return 'renter';
  if (booking.car_owner.toLowerCase() === me) return 'owner';
  return null;
}

/** True once the booking's start date has begun in Johannesburg (the shared calendar). */
export function hasStarted(startDate: string, now: Date = new Date()): boolean {
  return hasDayStarted(startDate, now);
}

/** A completed trip can be reviewed until its review window ends (the shared rule; the server refuses later). */
export function isReviewOpen(booking: Pick<Booking, 'status' | 'completed_at'>, now: Date = new Date()): boolean {
  if (booking.status !== 'completed') return false;
  if (!booking.completed_at) return true;
  return now.getTime() < reviewWindowEnd(booking.completed_at).getTime();
}

export function bookingActions(
  booking: Pick<Booking, 'status' | 'payment_status' | 'start_date' | 'start_time'> & Partial<Pick<Booking, 'completed_at'>>,
  role: BookingRole,
  options: { reviewed?: boolean; now?: Date } = {},
): BookingAction[] {
  const { status } = booking;
  const unpaid = booking.payment_status === 'unpaid';
  // A paid trip is cancelled by the policy: before its pickup time by either side, after it only by
  // the host reporting that the renter never came (the server decides the same way).
  const paidTrip = status === 'active' && booking.payment_status === 'paid';
  const started = hasTripStarted(booking, options.now);
  const actions: BookingAction[] = [];
  if (role === 'owner') {
    if (canActorTransition(status, 'confirmed', 'owner')) actions.push('accept');
    if (canActorTransition(status, 'rejected', 'owner')) actions.push('reject');
    if (canActorTransition(status, 'completed', 'owner') && hasStarted(booking.start_date, options.now)) actions.push('return');
    if (paidTrip && canActorTransition(status, 'cancelled', 'owner')) actions.push(started ? 'report-no-show' : 'cancel-trip');
    return actions;
  }
  if (canActorTransition(status, 'active', 'payment') && unpaid) actions.push('pay');
  if (canActorTransition(status, 'cancelled', 'renter') && (status === 'pending' || unpaid)) actions.push('cancel');
  if (paidTrip && !started && canActorTransition(status, 'cancelled', 'renter')) actions.push('cancel-trip');
  if (isReviewOpen({ status, completed_at: booking.completed_at ?? null }, options.now) && !options.reviewed) actions.push('review');
  return actions;
}
