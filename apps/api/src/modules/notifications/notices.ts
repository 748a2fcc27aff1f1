// What each domain event tells whom (decisions.md section 3): every notification and email text of
// Karoo, in one file. People are named by full name, dates are en-ZA, amounts in rand. The events
// are raised by the services (events/domain-events.ts); subscribers.ts lists these handlers, which
// run in the transaction of the change (the notification and its email commit with it).
import { formatDateRange, formatDay, formatRand, SIGN_IN_LINK_TTL_MS, UNPAID_EXPIRY_HOURS } from '@karoo/shared';
import type { AppContext } from '../../context';
import type { EventOf, Tx } from '../../events/domain-events';
import { queueMail, renderMail } from '../../lib/mail';
import type { BookingRecord } from '../bookings/bookings.service';
import { notify } from './notifications.service';

const MY_BOOKINGS = '/my-bookings';
const HOST_DASHBOARD = '/host-dashboard';

const carName = (b: { car_make: string; car_model: string }) => `${b.car_make} ${b.car_model}`;
const dates = (b: BookingRecord) => formatDateRange(b.start_date, b.end_date);
/** "Volkswagen Polo (30 Nov 2026 to 02 Dec 2026)". */
const bookingName = (b: BookingRecord) => `${carName(b)} (${dates(b)})`;
/** When, as a request names it: "30 Nov 2026 09:00-13:00" or "30 Nov 2026 to 02 Dec 2026 (2 days)". */
function when(b: BookingRecord): string {
  if (b.is_hourly_booking) return `${formatDay(b.start_date)} ${b.start_time}-${b.end_time}`;
  return `${dates(b)} (${b.duration_days} ${b.duration_days === 1 ? 'day' : 'days'})`;
}
const withReason = (text: string | null | undefined) => (text ? `: ${text}` : '.');

export async function bookingRequested(tx: Tx, { booking: b }: EventOf<'booking.requested'>, ctx: AppContext) {
  const instant = b.status === 'confirmed';
  await notify(ctx, tx, b.owner_id, {
    type: 'booking_request',
    title: instant ? 'New booking' : 'New booking request',
    message: instant
      ? `${b.renter_full_name} booked your ${carName(b)} for ${when(b)}. It was confirmed instantly.`
      : `${b.renter_full_name} wants to book your ${carName(b)} for ${when(b)}. Accept or reject the request.`,
    link: MY_BOOKINGS,
  });
  if (instant) {
    await notify(ctx, tx, b.renter_id, {
      type: 'booking_confirmed',
      title: 'Booking confirmed',
      message: `Your booking of the ${carName(b)} for ${when(b)} is confirmed. Pay to secure it.`,
      link: MY_BOOKINGS,
    });
  }
}

export async function bookingConfirmed(tx: Tx, { booking: b }: EventOf<'booking.confirmed'>, ctx: AppContext) {
  await notify(ctx, tx, b.renter_id, {
    type: 'booking_confirmed',
    title: 'Booking accepted',
    message: `${b.owner_full_name} accepted your booking of the ${bookingName(b)}. Pay within ${UNPAID_EXPIRY_HOURS} hours to secure it.`,
    link: MY_BOOKINGS,
  });
}

export async function bookingRejected(tx: Tx, { booking: b, response }: EventOf<'booking.rejected'>, ctx: AppContext) {
  await notify(ctx, tx, b.renter_id, {
    type: 'booking_rejected',
    title: 'Booking rejected',
    message: `Your booking of the ${bookingName(b)} was rejected${withReason(response)}`,
    link: MY_BOOKINGS,
  });
}

export async function bookingCancelled(tx: Tx, { booking: b, cause, reason }: EventOf<'booking.cancelled'>, ctx: AppContext) {
  switch (cause) {
    case 'renter':
      await notify(ctx, tx, b.owner_id, { type: 'booking_cancelled', title: 'Booking cancelled', message: `${b.renter_full_name} cancelled the booking of your ${bookingName(b)}.`, link: MY_BOOKINGS });
      return;
    case 'admin':
      await notify(ctx, tx, b.owner_id, {
        type: 'booking_cancelled',
        title: 'Booking cancelled',
        message: `Karoo cancelled ${b.renter_full_name}'s booking of your ${bookingName(b)}${withReason(reason)}`,
        link: MY_BOOKINGS,
      });
      await notify(ctx, tx, b.renter_id, { type: 'booking_cancelled', title: 'Booking cancelled', message: `Your booking of the ${bookingName(b)} was cancelled by Karoo${withReason(reason)}`, link: MY_BOOKINGS });
      return;
    case 'expired':
      await notify(ctx, tx, b.renter_id, { type: 'booking_expired', title: 'Booking expired', message: `Your booking of the ${bookingName(b)} was cancelled. ${reason ?? 'Expired.'}`, link: MY_BOOKINGS });
      await notify(ctx, tx, b.owner_id, {
        type: 'booking_expired',
        title: 'Booking expired',
        message: `The booking of your ${carName(b)} by ${b.renter_full_name} (${dates(b)}) was cancelled. ${reason ?? 'Expired.'}`,
        link: MY_BOOKINGS,
      });
      return;
    case 'car_removed':
      await notify(ctx, tx, b.renter_id, {
        type: 'booking_cancelled',
        title: 'Booking cancelled',
        message: `Your booking of the ${bookingName(b)} was cancelled because the car is no longer listed.`,
        link: MY_BOOKINGS,
      });
      return;
    case 'renter_closed':
      await notify(ctx, tx, b.owner_id, {
        type: 'booking_cancelled',
        title: 'Booking cancelled',
        message: `The booking of your ${carName(b)} by ${b.renter_full_name} (${dates(b)}) was cancelled because their account was closed. The dates are free again.`,
        link: MY_BOOKINGS,
      });
  }
}

export async function bookingPaid(tx: Tx, { booking: b }: EventOf<'booking.paid'>, ctx: AppContext) {
  const amount = formatRand(b.total_price_cents / 100);
  await notify(ctx, tx, b.renter_id, { type: 'booking_paid', title: 'Payment received', message: `Your payment of ${amount} for the ${bookingName(b)} was received. Your booking is active.`, link: MY_BOOKINGS });
  await notify(ctx, tx, b.owner_id, { type: 'booking_paid', title: 'Booking paid', message: `${b.renter_full_name} paid ${amount} for the ${bookingName(b)}. The booking is active.`, link: MY_BOOKINGS });
}

export async function paymentRefundDue(tx: Tx, { booking: b, reference, amountCents, reason }: EventOf<'payment.refund_due'>, ctx: AppContext) {
  await notify(ctx, tx, b.renter_id, {
    type: 'payment_refunded',
    title: 'Payment refunded',
    message: `Your payment of ${formatRand(amountCents / 100)} for the ${bookingName(b)} (reference ${reference}) could not be used. ${reason} It is being refunded in full to the card you paid with; refunds can take a few working days to show.`,
    link: MY_BOOKINGS,
  });
}

export async function bookingCompleted(tx: Tx, { booking: b, forced, forcedReason }: EventOf<'booking.completed'>, ctx: AppContext) {
  await notify(ctx, tx,
    b.renter_id,
    forced
      ? { type: 'force_return', title: 'Rental ended by Karoo', message: `An administrator ended your rental of the ${carName(b)}${withReason(forcedReason)}`, link: MY_BOOKINGS }
      : {
          type: 'trip_completed',
          title: 'Trip completed',
          message: `Your trip in the ${carName(b)} is complete. How was it? Leave a review for ${b.owner_full_name}.`,
          link: MY_BOOKINGS,
        },
  );
}

export async function carForceReturned(tx: Tx, { car, reason, affected }: EventOf<'car.force_returned'>, ctx: AppContext) {
  if (affected === 0) return;
  await notify(ctx, tx, car.owner_id, {
    type: 'force_return',
    title: 'Rental ended by Karoo',
    message: `An administrator ended the current rental of your ${carName(car)}${withReason(reason)} The car is available again.`,
    link: HOST_DASHBOARD,
  });
}

export async function carVerified(tx: Tx, { car }: EventOf<'car.verified'>, ctx: AppContext) {
  await notify(ctx, tx, car.owner_id, { type: 'car_verified', title: 'Car verified', message: `Your ${carName(car)} has been verified and is now listed on Karoo.`, link: HOST_DASHBOARD });
}

export async function carRejected(tx: Tx, { car, notes }: EventOf<'car.rejected'>, ctx: AppContext) {
  await notify(ctx, tx, car.owner_id, {
    type: 'car_rejected',
    title: 'Car not approved',
    message: `Your ${carName(car)} was not approved: ${notes}. Update the listing to send it for verification again.`,
    link: HOST_DASHBOARD,
  });
}

export async function registrationVerified(tx: Tx, { car }: EventOf<'car.registration_verified'>, ctx: AppContext) {
  await notify(ctx, tx, car.owner_id, {
    type: 'registration_verified',
    title: 'Registration document verified',
    message: `The registration document of your ${carName(car)} has been verified.`,
    link: HOST_DASHBOARD,
  });
}

export async function registrationRejected(tx: Tx, { car, notes }: EventOf<'car.registration_rejected'>, ctx: AppContext) {
  await notify(ctx, tx, car.owner_id, {
    type: 'registration_rejected',
    title: 'Registration document rejected',
    message: `The registration document of your ${carName(car)} was rejected${withReason(notes)} Please upload a new one.`,
    link: HOST_DASHBOARD,
  });
}

export async function reviewCreated(tx: Tx, { car, reviewerName, rating, comment }: EventOf<'review.created'>, ctx: AppContext) {
  await notify(ctx, tx, car.owner_id, {
    type: 'review_received',
    title: 'New review',
    message: `${reviewerName} rated your ${carName(car)} ${rating}/5: "${comment.slice(0, 140)}"`,
    link: `/cars/${car.car_username}`,
  });
}

export async function userVerified(tx: Tx, { user }: EventOf<'user.verified'>, ctx: AppContext) {
  await notify(ctx, tx, user.id, {
    type: 'account_verified',
    title: 'Account verified',
    message: 'Your Karoo account has been verified. You can now book cars and list your own.',
    link: '/dashboard',
  });
}

export async function userRejected(tx: Tx, { user, notes }: EventOf<'user.rejected'>, ctx: AppContext) {
  await notify(ctx, tx, user.id, {
    type: 'account_rejected',
    title: 'Verification rejected',
    message: `Your verification was not approved${withReason(notes)} Please update your documents and details on your profile.`,
    link: '/profile',
  });
}

/**
 * A sign-in link asked for in this account's name (decision 030): mailed to the account's own
 * address, never shown to whoever asked, and sent whatever the emailNotifications setting says,
 * since it is how a held-out owner gets in. It is no notification for the in-app list.
 */
export async function signInLinkRequested(tx: Tx, { user, url }: EventOf<'user.sign_in_link_requested'>, ctx: AppContext) {
  const mail = renderMail({
    greeting: `Hi ${user.full_name},`,
    paragraphs: [
      'Someone asked for a link to sign in to your Karoo account without your password. If it was you, use the button below.',
      `The link works once and expires in ${SIGN_IN_LINK_TTL_MS / 60_000} minutes. If you did not ask for it, ignore this email: the link is only in this email, and your password stays the same.`,
    ],
    action: { label: 'Sign in to Karoo', url },
  });
  await queueMail(ctx, tx, { to: user.email, subject: 'Your Karoo sign-in link', ...mail });
}
