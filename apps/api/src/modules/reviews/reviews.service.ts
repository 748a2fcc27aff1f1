// Reviews (document 2 section 3; document 3 sections 3 and 5; decision 043): after a completed
// trip the renter reviews the car and the host reviews the renter, once per booking and direction,
// within REVIEW_WINDOW_DAYS. Neither is shown to anyone but its author (and admins) until both are
// in or the window has ended; the car's and the host's ratings count only revealed reviews and
// follow in the transaction that reveals them (refreshRatings).
import {
  isAdmin,
  REVIEW_WINDOW_DAYS,
  reviewWindowEnd,
  type BookingReviews,
  type createRenterReviewBodySchema,
  type createReviewBodySchema,
  type RenterRecord,
  type Review,
  type ReviewStats,
  type updateReviewBodySchema,
} from '@karoo/shared';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import type { Db } from '../../db/connection';
import type { UserRow } from '../../db/schema';
import { conflict, forbidden, notFound } from '../../lib/app-error';
import { inTransaction } from '../../events/domain-events';
import { findCar, recordCarRating } from '../cars';
import { findUser, recordHostRating } from '../users';
import * as repo from './reviews.repository';
import type { FullReviewRecord, ReviewRecord } from './reviews.repository';

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
    direction: row.direction,
    subject_username: row.subject_username,
  };
}

/** The end of a completed trip's review window (the shared rule the screens read too). */
const windowEnd = reviewWindowEnd;

function isShown(review: { hidden_until: Date | null }, now: Date): boolean {
  return review.hidden_until === null || new Date(review.hidden_until).getTime() <= now.getTime();
}

function mayReadHidden(viewer: UserRow | null, review: { reviewer_id: string }): boolean {
  return viewer !== null && (viewer.id === review.reviewer_id || isAdmin(viewer));
}

/**
 * Reviews of a car (car_username or id) or by a user (user_username), newest first: those shown,
 * and to the author asking for their own, theirs not yet shown too (My Bookings knows what they wrote).
 */
export async function listReviews(ctx: AppContext, viewer: UserRow | null, query: { car_username?: string; user_username?: string }): Promise<Review[]> {
  const filters: repo.ReviewFilters = { limit: LIST_LIMIT, shownAt: ctx.clock.now() };
  if (query.car_username) {
    const car = await findCar(ctx, query.car_username);
    if (!car) return [];
    filters.carId = car.id;
  }
  if (query.user_username) {
    const user = await findUser(ctx, query.user_username);
    if (!user) return [];
    filters.reviewerId = user.id;
    if (viewer?.id === user.id) filters.withHidden = true;
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
  for (const { rating, count } of await repo.ratingCounts(ctx.db, ctx.clock.now(), carId)) {
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

const isUuid = (id: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);

/** A review the viewer may read: a hidden one is its author's and admins' alone (404 to others). */
async function loadReview(ctx: AppContext, viewer: UserRow | null, id: string) {
  if (!isUuid(id)) throw notFound(REVIEW_NOT_FOUND);
  const review = await repo.findReviewRecord(ctx.db, id);
  if (!review) throw notFound(REVIEW_NOT_FOUND);
  if (!isShown(review, ctx.clock.now()) && !mayReadHidden(viewer, review)) throw notFound(REVIEW_NOT_FOUND);
  return review;
}

export async function getReview(ctx: AppContext, viewer: UserRow | null, id: string): Promise<Review> {
  return toReview(await loadReview(ctx, viewer, id));
}

export async function listReviewsPage(ctx: AppContext, page: number, limit: number): Promise<{ reviews: Review[]; total: number }> {
  const now = ctx.clock.now();
  const [rows, total] = await Promise.all([repo.listReviewsPage(ctx.db, page, limit, now), repo.countReviews(ctx.db, now)]);
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
  const now = ctx.clock.now();
  const isOpen = (b: { completed_at: Date | null }) => b.completed_at === null || windowEnd(b.completed_at) > now;
  let target;
  if (body.booking_id) {
    const wanted = body.booking_id.toUpperCase();
    target = completed.find((b) => b.id === body.booking_id || b.booking_number === wanted);
    if (!target) throw forbidden('You can review a car only after a completed trip in it.');
    if (target.review_id) throw conflict(ALREADY_REVIEWED);
    if (!isOpen(target)) throw conflict(windowClosed());
  } else {
    const unreviewed = completed.filter((b) => !b.review_id);
    if (unreviewed.length === 0) throw conflict(ALREADY_REVIEWED);
    target = unreviewed.find(isOpen);
    if (!target) throw conflict(windowClosed());
  }
  const id = await writeReview(ctx, viewer, target.id, 'car', body);
  return getReview(ctx, viewer, id);
}

function windowClosed(): string {
  return `Reviews can be written for ${REVIEW_WINDOW_DAYS} days after a trip ends; this trip's window has closed.`;
}

/**
 * POST /review/renter: the host of a completed booking reviews its renter, once, within the window.
 * Another user's booking is 404; the renter of it is told only the host reviews the renter (403).
 */
export async function createRenterReview(ctx: AppContext, viewer: UserRow, body: z.output<typeof createRenterReviewBodySchema>): Promise<Review> {
  const booking = isUuid(body.booking_id) ? await repo.findBookingParties(ctx.db, body.booking_id) : undefined;
  if (!booking || (booking.owner_id !== viewer.id && booking.renter_id !== viewer.id)) throw notFound('Booking not found');
  if (booking.owner_id !== viewer.id) throw forbidden('Only the host reviews the renter; you review the car.');
  if (booking.status !== 'completed' || !booking.completed_at) throw forbidden('You can review the renter only after the trip is completed.');
  const id = await writeReview(ctx, viewer, booking.id, 'renter', body);
  return getReview(ctx, viewer, id);
}

/**
 * Writes one side's review of a booking with the booking locked, so the second of two reviews
 * written at once sees the first: hidden until the window's end, or revealing both at once.
 */
async function writeReview(ctx: AppContext, viewer: UserRow, bookingId: string, direction: 'car' | 'renter', body: { rating: number; comment: string }): Promise<string> {
  try {
    return await inTransaction(ctx, async (tx) => {
      const booking = await repo.lockBookingForReview(tx.db, bookingId);
      if (!booking?.completed_at) throw forbidden('You can review only after the trip is completed.');
      const closes = windowEnd(booking.completed_at);
      if (closes <= tx.now) throw conflict(windowClosed());
      const row = await repo.insertReview(
        tx.db,
        {
          booking_id: booking.id,
          car_id: booking.car_id,
          reviewer_id: viewer.id,
          rating: body.rating,
          comment: body.comment,
          direction,
          subject_id: direction === 'renter' ? booking.renter_id : null,
          hidden_until: closes,
        },
        tx.now,
      );
      const both = (await repo.findBookingReviews(tx.db, booking.id)).length === 2;
      const otherId = direction === 'car' ? booking.owner_id : booking.renter_id;
      if (both) {
        await repo.revealBookingReviews(tx.db, booking.id);
        await refreshRatings(tx.db, booking.car_id);
        tx.emit({ type: 'review.changed', carId: booking.car_id });
        tx.emit({ type: 'review.revealed', bookingId: booking.id, userIds: [booking.renter_id, booking.owner_id] });
      } else {
        tx.emit({ type: 'review.written', bookingId: booking.id, toUserId: otherId, authorName: viewer.full_name, direction, windowEndsAt: closes });
      }
      return row.id;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(ALREADY_REVIEWED);
    throw error;
  }
}

/**
 * GET /review/booking/{id}: a party's view of a booking's two reviews: their own (always), the
 * other side's once revealed, whether they may still write, and when the window ends.
 */
export async function bookingReviews(ctx: AppContext, viewer: UserRow, bookingId: string): Promise<BookingReviews> {
  const booking = isUuid(bookingId) ? await repo.findBookingParties(ctx.db, bookingId) : undefined;
  const side = booking?.renter_id === viewer.id ? 'renter' : booking?.owner_id === viewer.id ? 'host' : null;
  if (!booking || !side) throw notFound('Booking not found');
  const now = ctx.clock.now();
  const reviews = await repo.findBookingReviews(ctx.db, booking.id);
  const mine = reviews.find((r) => r.reviewer_id === viewer.id) ?? null;
  const theirs = reviews.find((r) => r.reviewer_id !== viewer.id) ?? null;
  const ends = booking.completed_at ? windowEnd(booking.completed_at) : null;
  const isOpen = booking.status === 'completed' && ends !== null && ends > now;
  return {
    side,
    mine: mine && toReview(mine),
    theirs: theirs && isShown(theirs, now) ? toReview(theirs) : null,
    can_review: isOpen && !mine,
    window_ends_at: ends ? ends.toISOString() : null,
    revealed: mine !== null && isShown(mine, now),
    other_name: side === 'renter' ? booking.owner_name : booking.renter_name,
  };
}

/** A renter's revealed rating from hosts and completed trips, now (a car's instant booking reads them, decision 078). */
export function renterStanding(ctx: AppContext, renterId: string): Promise<{ rating: number | null; review_count: number; completed_trips: number }> {
  return repo.renterRecord(ctx.db, renterId, ctx.clock.now());
}

/** GET /review/renter/{username}: the renter's revealed rating, completed trips and hosts' reviews. */
export async function renterRecord(ctx: AppContext, username: string): Promise<RenterRecord> {
  const user = await findUser(ctx, username);
  if (!user) throw notFound('User not found');
  const now = ctx.clock.now();
  const [record, reviews] = await Promise.all([
    repo.renterRecord(ctx.db, user.id, now),
    repo.listReviews(ctx.db, { subjectId: user.id, limit: LIST_LIMIT, shownAt: now }),
  ]);
  return { username: user.username, ...record, reviews: reviews.map(toReview) };
}

/**
 * The window's end reveals what is in (the reviews.reveal job, hourly): each review due is shown,
 * its car's and host's ratings follow, and both parties are told. Answers how many were revealed.
 */
export async function revealDueReviews(ctx: AppContext): Promise<number> {
  return inTransaction(ctx, async (tx) => {
    const revealed = await repo.revealReviewsDue(tx.db, tx.now);
    for (const carId of new Set(revealed.map((r) => r.car_id))) {
      await refreshRatings(tx.db, carId);
      tx.emit({ type: 'review.changed', carId });
    }
    for (const bookingId of new Set(revealed.flatMap((r) => (r.booking_id ? [r.booking_id] : [])))) {
      const booking = await repo.findBookingParties(tx.db, bookingId);
      if (booking) tx.emit({ type: 'review.revealed', bookingId, userIds: [booking.renter_id, booking.owner_id] });
    }
    return revealed.length;
  });
}

async function loadOwnReview(ctx: AppContext, viewer: UserRow, id: string): Promise<FullReviewRecord> {
  const review = await loadReview(ctx, viewer, id);
  if (review.reviewer_id !== viewer.id && !isAdmin(viewer)) throw forbidden('Only the author or an administrator can change this review.');
  return review;
}

export async function updateReview(ctx: AppContext, viewer: UserRow, id: string, body: z.output<typeof updateReviewBodySchema>): Promise<Review> {
  const review = await loadOwnReview(ctx, viewer, id);
  // Once both sides can read each other, an author's edit would be an answer to the other review.
  if (!isAdmin(viewer) && (await isAnswered(ctx, review))) {
    throw conflict('Reviews cannot be changed once both are shown.');
  }
  await inTransaction(ctx, async (tx) => {
    await repo.updateReview(tx.db, review.id, { rating: body.rating, comment: body.comment }, tx.now);
    await refreshRatings(tx.db, review.car_id);
    tx.emit({ type: 'review.changed', carId: review.car_id });
  });
  return getReview(ctx, viewer, review.id);
}

/** Whether the other side of the review's booking has reviewed too (both shown together). */
async function isAnswered(ctx: AppContext, review: FullReviewRecord): Promise<boolean> {
  if (!review.booking_id) return false;
  return (await repo.findBookingReviews(ctx.db, review.booking_id)).length === 2;
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
