// The reviews module's front door: reviews both ways and the car's and host's ratings that follow them.
import type { AppContext } from '../../context';
import type { Subscriptions } from '../../events/domain-events';
import { reviewsRevealed, reviewWritten } from './reviews.notices';

export { refreshRatings, renterStanding, revealDueReviews } from './reviews.service';
export { reviewRevealJob } from './reviews.job';
export { reviewsRoutes } from './reviews.routes';

export const reviewsSubscriptions: Subscriptions<AppContext> = {
  within: { 'review.written': [reviewWritten], 'review.revealed': [reviewsRevealed] },
};
