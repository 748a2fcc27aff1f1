// Reviews (document 2 section 3; document 3 sections 3 and 5): the renter of a completed
// booking reviews it once (reviews.booking_id is unique); the author or an admin may edit or
// delete it; the car's and the host's ratings follow in the same transaction (refreshRatings).
import { isAdmin, type createReviewBodySchema, type Review, type ReviewStats, type updateReviewBodySchema } from '@karoo/shared';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import type { Db } from '../../db/connection';
import type { UserRow } from '../../db/schema';
import { conflict, forbidden, notFound } from '../../lib/app-error';
import { inTransaction } from '../../events/domain-events';
import { carRef, findCar, recordCarRating } from '../cars';
import { findUser, recordHostRating } from '../users';
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
    const car = await findCar(ctx, query.car_username);
    if (!car) return [];
    filters.carId = car.id;
  }
  if (query.user_username) {
    const user = await findUser(ctx, query.user_username);
    if (!user) return [];
    filters.reviewerId = user.id;
  }
  return (await repo.listReviews(ctx.db, filters)).map(toReview);
}

export async function reviewStats(ctx: AppContext, carUsername?: string): Promise<ReviewStats> {
  const empty: ReviewStats = { average: 0, count: 0, by_rating: { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 } };
  let carId: string | undefined;
  if (carUsername) {
    const car = await findCar(ctx, carUsername);
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

const REVIEW_NOT_FOUND = 'Review not found';
const ALREADY_REVIEWED = 'You have already reviewed this booking.';

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: string }).code === '23505';
}

async function loadReview(ctx: AppContext, id: string) {
  if (!/^[0-9a-f-]{36}$/i.test(id)) throw notFound(REVIEW_NOT_FOUND);
  const review = await repo.findReviewRecord(ctx.db, id);
  if (!review) throw notFound(REVIEW_NOT_FOUND);
  return review;
}

export async function getReview(ctx: AppContext, id: string): Promise<Review> {
  return toReview(await loadReview(ctx, id));
}

export async function listReviewsPage(ctx: AppContext, page: number, limit: number): Promise<{ reviews: Review[]; total: number }> {
  const [rows, total] = await Promise.all([repo.listReviewsPage(ctx.db, page, limit), repo.countReviews(ctx.db)]);
  return { reviews: rows.map(toReview), total };
}

/**
 * POST /review/create: the caller reviews a completed booking of the car (the one named, or their
 * latest completed one not yet reviewed). 403 without a completed booking, 409 when reviewed.
 */
export async function createReview(ctx: AppContext, viewer: UserRow, body: z.output<typeof createReviewBodySchema>): Promise<Review> {
  const car = await findCar(ctx, body.car_username);
  if (!car) throw notFound('Car not found');
  const completed = await repo.findCompletedBookings(ctx.db, car.id, viewer.id);
  if (completed.length === 0) throw forbidden('You can review a car only after a completed trip in it.');
  let target;
  if (body.booking_id) {
    const wanted = body.booking_id.toUpperCase();
    target = completed.find((b) => b.id === body.booking_id || b.booking_number === wanted);
    if (!target) throw forbidden('You can review a car only after a completed trip in it.');
    if (target.review_id) throw conflict(ALREADY_REVIEWED);
  } else {
    target = completed.find((b) => !b.review_id);
    if (!target) throw conflict(ALREADY_REVIEWED);
  }
  const now = ctx.clock.now();
  const bookingId = target.id;
  let id: string;
  try {
    id = await inTransaction(ctx, async (tx) => {
      const row = await repo.insertReview(tx.db, { booking_id: bookingId, car_id: car.id, reviewer_id: viewer.id, rating: body.rating, comment: body.comment }, now);
      await refreshRatings(tx.db, car.id);
      tx.emit({ type: 'review.created', car: carRef(car), reviewerName: viewer.full_name, rating: body.rating, comment: body.comment });
      return row.id;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(ALREADY_REVIEWED);
    throw error;
  }
  return getReview(ctx, id);
}

async function loadOwnReview(ctx: AppContext, viewer: UserRow, id: string) {
  const review = await loadReview(ctx, id);
  if (review.reviewer_id !== viewer.id && !isAdmin(viewer)) throw forbidden('Only the author or an administrator can change this review.');
  return review;
}

export async function updateReview(ctx: AppContext, viewer: UserRow, id: string, body: z.output<typeof updateReviewBodySchema>): Promise<Review> {
  const review = await loadOwnReview(ctx, viewer, id);
  await inTransaction(ctx, async (tx) => {
    await repo.updateReview(tx.db, review.id, { rating: body.rating, comment: body.comment }, tx.now);
    await refreshRatings(tx.db, review.car_id);
    tx.emit({ type: 'review.changed', carId: review.car_id });
  });
  return getReview(ctx, review.id);
}

export async function deleteReview(ctx: AppContext, viewer: UserRow, id: string): Promise<void> {
  const review = await loadOwnReview(ctx, viewer, id);
  await inTransaction(ctx, async (tx) => {
    await repo.deleteReview(tx.db, review.id);
    await refreshRatings(tx.db, review.car_id);
    tx.emit({ type: 'review.changed', carId: review.car_id });
  });
}

/**
 * The ratings that follow the reviews, in the caller's transaction: the car's rating and review
 * count (the cars module writes them) and its host's rating (the users module's). With no car,
 * every reviewed car and host (the demo seed).
 */
export async function refreshRatings(db: Db, carId?: string): Promise<void> {
  const cars = await repo.carRatings(db, carId);
  if (carId && cars.length === 0) cars.push({ car_id: carId, rating: null, total: 0 });
  for (const car of cars) await recordCarRating(db, car.car_id, { rating: car.rating, total: car.total });
  const hostId = carId ? await repo.findCarOwnerId(db, carId) : undefined;
  if (carId && !hostId) return;
  const hosts = await repo.hostRatings(db, hostId);
  if (hostId && hosts.length === 0) hosts.push({ host_id: hostId, rating: null });
  for (const host of hosts) await recordHostRating(db, host.host_id, host.rating);
}
