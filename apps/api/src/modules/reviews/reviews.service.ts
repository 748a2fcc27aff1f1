// Reading reviews (document 2 section 3; document 3 section 3). Writing them comes with the
// booking lifecycle; the car's rating follows through refreshCarRating.
import type { Review, ReviewStats } from '@karoo/shared';
import type { AppContext } from '../../context';
import { today } from '../cars/cars.service';
import { findCarRecord } from '../cars/cars.repository';
import { findUserByIdOrUsername } from '../users/users.repository';
import * as repo from './reviews.repository';
import type { ReviewRecord } from './reviews.repository';

const LIST_LIMIT = 200;

export function toReview(row: ReviewRecord): Review {
  return {
    id: row.id,
    rating: row.rating,
    comment: row.comment,
    created_at: new Date(row.created_at).toISOString(),
    reviewer: { username: row.reviewer_username, avatar: null },
    car_username: row.car_username,
    user_username: row.reviewer_username,
    booking_id: row.booking_id,
  };
}

/** Reviews of a car (car_username or id) or by a user (user_username), newest first. */
export async function listReviews(ctx: AppContext, query: { car_username?: string; user_username?: string }): Promise<Review[]> {
  const filters: repo.ReviewFilters = { limit: LIST_LIMIT };
  if (query.car_username) {
    const car = await findCarRecord(ctx.db, query.car_username, today(ctx));
    if (!car) return [];
    filters.carId = car.id;
  }
  if (query.user_username) {
    const user = await findUserByIdOrUsername(ctx.db, query.user_username);
    if (!user) return [];
    filters.reviewerId = user.id;
  }
  return (await repo.listReviews(ctx.db, filters)).map(toReview);
}

export async function reviewStats(ctx: AppContext, carUsername?: string): Promise<ReviewStats> {
  const empty: ReviewStats = { average: 0, count: 0, by_rating: { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 } };
  let carId: string | undefined;
  if (carUsername) {
    const car = await findCarRecord(ctx.db, carUsername, today(ctx));
    if (!car) return empty;
    carId = car.id;
  }
  const stats = empty;
  let sum = 0;
  for (const { rating, count } of await repo.ratingCounts(ctx.db, carId)) {
    stats.by_rating[rating as 1 | 2 | 3 | 4 | 5] = count;
    stats.count += count;
    sum += rating * count;
  }
  stats.average = stats.count ? Math.round((sum / stats.count) * 10) / 10 : 0;
  return stats;
}
