// The bookings module's front door: creating bookings and who sees them, the status machine applied,
// returns and force returns, the expiry job, and which bookings earn money. The only file other
// modules and the app import.
import type { AppContext } from '../../context';
import type { Subscriptions } from '../../events/domain-events';
import { bookingCancelled, bookingCompleted, bookingConfirmed, bookingPaid, bookingRejected, bookingRequested, carForceReturned } from './bookings.notices';
import { cancelRemovedCarBookings } from './bookings.service';

export type { CancelCause, ForceReturnedBooking } from './bookings.events';
export { createBookingAnswers, type BookingLedgerView, type BookingMoneyView, type BookingRefundRecord, type LedgerOf } from './booking-answers';
export { bookingExpiryJob } from './booking-expiry.job';
export { bookingRemindersJob, sendBookingReminders } from './booking-reminders';
export { transition } from './booking-status';
export { hostCancellations, paidTripOf } from './host-cancellations';
export { clearPaidPayout, lockPayout, updatePayout, type PayoutState } from './booking-payouts';
export { applyTripTerms, cancelRenterBookings, expireOverdueBookings, findBookingById, findVisibleBooking, lockBookingForPayment, type BookingRecord, type NewTripTerms } from './bookings.service';
export { instantBookingCheck } from './instant-booking';
export { bookingsRoutes, type BookingsRoutesDeps } from './bookings.routes';

export const bookingsSubscriptions: Subscriptions<AppContext> = {
  within: {
    'car.removing': [cancelRemovedCarBookings],
    'booking.requested': [bookingRequested],
    'booking.confirmed': [bookingConfirmed],
    'booking.rejected': [bookingRejected],
    'booking.cancelled': [bookingCancelled],
    'booking.paid': [bookingPaid],
    'booking.completed': [bookingCompleted],
    'car.force_returned': [carForceReturned],
  },
};
