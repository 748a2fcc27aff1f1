// What a new review tells the host (decisions.md section 3), in the transaction of the change.
import type { AppContext } from '../../context';
import type { EventOf, Tx } from '../../events/domain-events';
import { carName, notify } from '../notifications';

export async function reviewCreated(tx: Tx, { car, reviewerName, rating, comment }: EventOf<'review.created'>, ctx: AppContext) {
  await notify(ctx, tx, car.owner_id, {
    type: 'review_received',
    title: 'New review',
    message: `${reviewerName} rated your ${carName(car)} ${rating}/5: "${comment.slice(0, 140)}"`,
    link: `/cars/${car.car_username}`,
  });
}
