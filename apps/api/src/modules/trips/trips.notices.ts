// What trip records tell people (in the transaction of the change): the other party that the car's
// condition was recorded, the renter that the host flagged damage, both parties how it was resolved.
import type { AppContext } from '../../context';
import type { EventOf, Tx } from '../../events/domain-events';
import { carName, MY_BOOKINGS, notify } from '../notifications';

const STAGE = { check_in: 'check-in', check_out: 'check-out' } as const;

export async function tripRecorded(tx: Tx, { booking, stage, party }: EventOf<'trip.recorded'>, ctx: AppContext) {
  const other = party === 'host' ? booking.renter_id : booking.owner_id;
  await notify(ctx, tx, other, {
    type: 'trip_recorded',
    title: `The ${party} recorded the ${STAGE[stage]}`,
    message: `The ${party} recorded the ${carName(booking)}'s condition at ${STAGE[stage]} (booking ${booking.booking_number}). See the photos and readings, and record your own, on My Bookings.`,
    link: MY_BOOKINGS,
    booking: { id: booking.id },
  });
}

export async function disputeOpened(tx: Tx, { booking, kind }: EventOf<'trip.dispute_opened'>, ctx: AppContext) {
  await notify(ctx, tx, booking.renter_id, {
    type: 'dispute_opened',
    title: kind === 'damage' ? 'The host flagged damage' : 'The host flagged a missing item',
    message: `The host of the ${carName(booking)} (booking ${booking.booking_number}) flagged ${kind === 'damage' ? 'damage' : 'a missing item'}. Karoo will look at the photos and both check-in and check-out records; see them on My Bookings.`,
    link: MY_BOOKINGS,
    booking: { id: booking.id },
  });
}

export async function disputeResolved(tx: Tx, { booking, note }: EventOf<'trip.dispute_resolved'>, ctx: AppContext) {
  for (const userId of [booking.owner_id, booking.renter_id]) {
    await notify(ctx, tx, userId, {
      type: 'dispute_resolved',
      title: 'Dispute resolved',
      message: `Karoo resolved the dispute on booking ${booking.booking_number}: ${note}`,
      link: MY_BOOKINGS,
      booking: { id: booking.id },
    });
  }
}
