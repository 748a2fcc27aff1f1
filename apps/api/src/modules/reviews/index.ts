// The reviews module's front door: reviews and the car's and host's ratings that follow them.
import type { AppContext } from '../../context';
import type { Subscriptions } from '../../events/domain-events';
import { reviewCreated } from './reviews.notices';

export { refreshRatings } from './reviews.service';
export { reviewsRoutes } from './reviews.routes';

export const reviewsSubscriptions: Subscriptions<AppContext> = {
  within: { 'review.created': [reviewCreated] },
};
