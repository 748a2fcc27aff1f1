// What reviews tell people (decisions.md sections 3 and 12), in the transaction of the change. A
// review's words are never in a notice: until both sides have reviewed, nobody but its author reads it.
import type { AppContext } from '../../context';
import type { EventOf, Tx } from '../../events/domain-events';
import { MY_BOOKINGS, notify } from '../notifications';

const dayOf = (at: Date) => at.toLocaleDateString('en-ZA', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'Africa/Johannesburg' });

export async function reviewWritten(tx: Tx, { bookingId, toUserId, authorName, direction, windowEndsAt }: EventOf<'review.written'>, ctx: AppContext) {
  const whatToReview = direction === 'car' ? 'your renter' : 'the car and your trip';
  await notify(ctx, tx, toUserId, {
    type: 'review_received',
    title: 'You can review now',
    message: `${authorName} reviewed your trip. Review ${whatToReview} by ${dayOf(windowEndsAt)}: both reviews appear together once you do, or on that day.`,
    link: MY_BOOKINGS,
    booking: { id: bookingId },
  });
}

export async function reviewsRevealed(tx: Tx, { bookingId, userIds }: EventOf<'review.revealed'>, ctx: AppContext) {
  for (const userId of userIds) {
    await notify(ctx, tx, userId, {
      type: 'reviews_revealed',
      title: 'Reviews are in',
      message: 'The reviews of your trip are now shown. See what was written on My Bookings.',
      link: MY_BOOKINGS,
      booking: { id: bookingId },
    });
  }
}
