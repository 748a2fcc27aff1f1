// What each booking event tells whom (decisions.md section 3): the notification and its email,
// written in the transaction of the change (the bookings module's in-transaction subscriptions).
import { formatRand, UNPAID_EXPIRY_HOURS } from '@karoo/shared';
import type { AppContext } from '../../context';
import type { EventOf, Tx } from '../../events/domain-events';
import { bookingName, carName, dates, HOST_DASHBOARD, MY_BOOKINGS, notify, when, withReason } from '../notifications';

export async function bookingRequested(tx: Tx, { booking: b }: EventOf<'booking.requested'>, ctx: AppContext) {
  const instant = b.status === 'confirmed';
  await notify(ctx, tx, b.owner_id, {
    type: 'booking_request',
    title: instant ? 'New booking' : 'New booking request',
    message: instant
      ? `${b.renter_full_name} booked your ${carName(b)} for ${when(b)}. It was confirmed instantly.`
      : `${b.renter_full_name} wants to book your ${carName(b)} for ${when(b)}. Accept or reject the request.`,
    link: MY_BOOKINGS,
    booking: b,
  });
  if (instant) {
    await notify(ctx, tx, b.renter_id, {
      type: 'booking_confirmed',
      title: 'Booking confirmed',
      message: `Your booking of the ${carName(b)} for ${when(b)} is confirmed. Pay to secure it.`,
      link: MY_BOOKINGS,
      booking: b,
    });
  }
}

export async function bookingConfirmed(tx: Tx, { booking: b }: EventOf<'booking.confirmed'>, ctx: AppContext) {
  await notify(ctx, tx, b.renter_id, {
    type: 'booking_confirmed',
    title: 'Booking accepted',
    message: `${b.owner_full_name} accepted your booking of the ${bookingName(b)}. Pay within ${UNPAID_EXPIRY_HOURS} hours to secure it.`,
    link: MY_BOOKINGS,
    booking: b,
  });
}

export async function bookingRejected(tx: Tx, { booking: b, response }: EventOf<'booking.rejected'>, ctx: AppContext) {
  await notify(ctx, tx, b.renter_id, {
    type: 'booking_rejected',
    title: 'Booking rejected',
    message: `Your booking of the ${bookingName(b)} was rejected${withReason(response)}`,
    link: MY_BOOKINGS,
    booking: b,
  });
}

export async function bookingCancelled(tx: Tx, { booking: b, cause, reason }: EventOf<'booking.cancelled'>, ctx: AppContext) {
  // A paid trip's cancellation is told by the payments module, with what each side gets back or pays.
  if (b.payment_status === 'paid') return;
  switch (cause) {
    case 'renter':
      await notify(ctx, tx, b.owner_id, { type: 'booking_cancelled', title: 'Booking cancelled', message: `${b.renter_full_name} cancelled the booking of your ${bookingName(b)}.`, link: MY_BOOKINGS, booking: b });
      return;
    case 'admin':
      await notify(ctx, tx, b.owner_id, {
        type: 'booking_cancelled',
        title: 'Booking cancelled',
        message: `Karoo cancelled ${b.renter_full_name}'s booking of your ${bookingName(b)}${withReason(reason)}`,
        link: MY_BOOKINGS,
        booking: b,
      });
      await notify(ctx, tx, b.renter_id, { type: 'booking_cancelled', title: 'Booking cancelled', message: `Your booking of the ${bookingName(b)} was cancelled by Karoo${withReason(reason)}`, link: MY_BOOKINGS, booking: b });
      return;
    case 'expired':
      await notify(ctx, tx, b.renter_id, { type: 'booking_expired', title: 'Booking expired', message: `Your booking of the ${bookingName(b)} was cancelled. ${reason ?? 'Expired.'}`, link: MY_BOOKINGS, booking: b });
      await notify(ctx, tx, b.owner_id, {
        type: 'booking_expired',
        title: 'Booking expired',
        message: `The booking of your ${carName(b)} by ${b.renter_full_name} (${dates(b)}) was cancelled. ${reason ?? 'Expired.'}`,
        link: MY_BOOKINGS,
        booking: b,
      });
      return;
    case 'car_removed':
      await notify(ctx, tx, b.renter_id, {
        type: 'booking_cancelled',
        title: 'Booking cancelled',
        message: `Your booking of the ${bookingName(b)} was cancelled because the car is no longer listed.`,
        link: MY_BOOKINGS,
        booking: b,
      });
      return;
    case 'renter_closed':
      await notify(ctx, tx, b.owner_id, {
        type: 'booking_cancelled',
        title: 'Booking cancelled',
        message: `The booking of your ${carName(b)} by ${b.renter_full_name} (${dates(b)}) was cancelled because their account was closed. The dates are free again.`,
        link: MY_BOOKINGS,
        booking: b,
      });
  }
}

export async function bookingPaid(tx: Tx, { booking: b }: EventOf<'booking.paid'>, ctx: AppContext) {
  const amount = formatRand(b.total_price_cents / 100);
  await notify(ctx, tx, b.renter_id, { type: 'booking_paid', title: 'Payment received', message: `Your payment of ${amount} for the ${bookingName(b)} was received. Your booking is active.`, link: MY_BOOKINGS, booking: b });
  await notify(ctx, tx, b.owner_id, { type: 'booking_paid', title: 'Booking paid', message: `${b.renter_full_name} paid ${amount} for the ${bookingName(b)}. The booking is active.`, link: MY_BOOKINGS, booking: b });
}

export async function bookingCompleted(tx: Tx, { booking: b, forced, forcedReason }: EventOf<'booking.completed'>, ctx: AppContext) {
  await notify(ctx, tx,
    b.renter_id,
    forced
      ? { type: 'force_return', title: 'Rental ended by Karoo', message: `An administrator ended your rental of the ${carName(b)}${withReason(forcedReason)}`, link: MY_BOOKINGS, booking: b }
      : {
          type: 'trip_completed',
          title: 'Trip completed',
          message: `Your trip in the ${carName(b)} is complete. How was it? Leave a review for ${b.owner_full_name}.`,
          link: MY_BOOKINGS,
          booking: b,
        },
  );
}

export async function carForceReturned(tx: Tx, { car, reason, affected, bookings }: EventOf<'car.force_returned'>, ctx: AppContext) {
  if (affected === 0) return;
  await notify(ctx, tx, car.owner_id, {
    type: 'force_return',
    title: 'Rental ended by Karoo',
    message: `An administrator ended the current rental of your ${carName(car)}${withReason(reason)} The car is available again.`,
    link: HOST_DASHBOARD,
    // A car has one rental under way at a time; were there several, the notice names none rather than one.
    ...(bookings.length === 1 ? { booking: { id: bookings[0]!.id } } : { aboutRecipientOnly: true as const }),
  });
}
