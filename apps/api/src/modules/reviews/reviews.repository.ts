// SQL for reviews: lists with the reviewer and car, the rating spread, and the car's cached
// rating (cars.rating, cars.total_reviews) and its host's (users.rating), which follow the reviews.
// Reviews go both ways (decision 043): a car's review ('car') and a renter's ('renter'); a review is
// shown to anyone but its author only once revealed (hidden_until null or past).
import { sql, type ExpressionBuilder } from 'kysely';
import type { Db } from '../../db/connection';
import type { Database, ReviewDirection } from '../../db/schema';

/** Shown at `now`: revealed by the other side's review, by the window's end, or never hidden. */
function isShown(now: Date) {
  return (eb: ExpressionBuilder<Database & { rv: Database['reviews'] }, 'rv'>) =>
    eb.or([eb('rv.hidden_until', 'is', null), eb('rv.hidden_until', '<=', now)]);
}

export interface ReviewRecord {
  id: string;
  booking_id: string | null;
  rating: number;
  comment: string;
  created_at: Date;
  reviewer_username: string;
  car_username: string;
  direction: ReviewDirection;
  subject_username: string | null;
  hidden_until: Date | null;
}

export interface ReviewFilters {
  carId?: string;
  reviewerId?: string;
  /** Reviews hosts wrote of this renter. */
  subjectId?: string;
  limit: number;
  /** Only the reviews shown at this moment... */
  shownAt: Date;
  /** ...unless the author reads their own. */
  withHidden?: boolean;
}

function selectReviews(db: Db) {
  return db
    .selectFrom('reviews as rv')
    .innerJoin('users as u', 'u.id', 'rv.reviewer_id')
    .innerJoin('cars as c', 'c.id', 'rv.car_id')
    .leftJoin('users as s', 's.id', 'rv.subject_id')
    .select([
      'rv.id', 'rv.booking_id', 'rv.rating', 'rv.comment', 'rv.created_at', 'u.username as reviewer_username', 'c.car_username',
      'rv.direction', 's.username as subject_username', 'rv.hidden_until',
    ])
    .where('c.deleted_at', 'is', null);
}

export function listReviews(db: Db, filters: ReviewFilters): Promise<ReviewRecord[]> {
  let query = filters.withHidden ? selectReviews(db) : selectReviews(db).where(isShown(filters.shownAt));
  // A car's reviews are the renters'; a renter's are the hosts'.
  if (filters.carId) query = query.where('rv.car_id', '=', filters.carId).where('rv.direction', '=', 'car');
  if (filters.reviewerId) query = query.where('rv.reviewer_id', '=', filters.reviewerId);
  if (filters.subjectId) query = query.where('rv.subject_id', '=', filters.subjectId);
  return query.orderBy('rv.created_at', 'desc').orderBy('rv.id').limit(filters.limit).execute();
}

/** The spread of cars' shown reviews: of `carId`, or of every listed car. */
export async function ratingCounts(db: Db, shownAt: Date, carId?: string): Promise<{ rating: number; count: number }[]> {
  let query = db
    .selectFrom('reviews as rv')
    .innerJoin('cars as c', 'c.id', 'rv.car_id')
    .select(['rv.rating', sql<number>`count(*)`.as('count')])
    .where('c.deleted_at', 'is', null)
    .where('rv.direction', '=', 'car')
    .where(isShown(shownAt))
    .groupBy('rv.rating');
  if (carId) query = query.where('rv.car_id', '=', carId);
  const rows = await query.execute();
  return rows.map((r) => ({ rating: r.rating, count: Number(r.count) }));
}

/** The owner of a car, removed or not (a host's rating counts the reviews of every car they listed). */
export async function findCarOwnerId(db: Db, carId: string): Promise<string | undefined> {
  const row = await db.selectFrom('cars').select('owner_id').where('id', '=', carId).executeTakeFirst();
  return row?.owner_id;
}

/**
 * Each reviewed car's average rating (2 decimals) and count, of revealed reviews only (the cached
 * columns move when a review is revealed: by its counterpart, or by revealDueReviews at the
 * window's end): of `carId`, or of every car.
 */
export async function carRatings(db: Db, carId?: string): Promise<{ car_id: string; rating: number | null; total: number }[]> {
  let query = db
    .selectFrom('reviews')
    .select(['car_id', sql<number | null>`round(avg(rating)::numeric, 2)`.as('rating'), sql<number>`count(*)`.as('total')])
    .where('direction', '=', 'car')
    .where('hidden_until', 'is', null)
    .groupBy('car_id');
  if (carId) query = query.where('car_id', '=', carId);
  const rows = await query.execute();
  return rows.map((r) => ({ car_id: r.car_id, rating: r.rating === null ? null : Number(r.rating), total: Number(r.total) }));
}

/**
 * Each host's rating: the average of the reviews of every car they have listed, removed ones too
 * (deleting a car does not wipe its reviews from the host's record); of `hostId`, or of every host.
 */
export async function hostRatings(db: Db, hostId?: string): Promise<{ host_id: string; rating: number | null }[]> {
  let query = db
    .selectFrom('reviews as rv')
    .innerJoin('cars as c', 'c.id', 'rv.car_id')
    .select(['c.owner_id as host_id', sql<number | null>`round(avg(rv.rating)::numeric, 2)`.as('rating')])
    .where('rv.direction', '=', 'car')
    .where('rv.hidden_until', 'is', null)
    .groupBy('c.owner_id');
  if (hostId) query = query.where('c.owner_id', '=', hostId);
  const rows = await query.execute();
  return rows.map((r) => ({ host_id: r.host_id, rating: r.rating === null ? null : Number(r.rating) }));
}

export type FullReviewRecord = ReviewRecord & { reviewer_id: string; car_id: string; owner_id: string };

export function findReviewRecord(db: Db, id: string): Promise<FullReviewRecord | undefined> {
  return selectReviews(db).select(['rv.reviewer_id', 'rv.car_id', 'c.owner_id']).where('rv.id', '=', id).executeTakeFirst();
}

/** A booking's reviews, both directions, shown or not (the caller decides who sees which). */
export function findBookingReviews(db: Db, bookingId: string): Promise<FullReviewRecord[]> {
  return selectReviews(db).select(['rv.reviewer_id', 'rv.car_id', 'c.owner_id']).where('rv.booking_id', '=', bookingId).execute();
}

export function listReviewsPage(db: Db, page: number, limit: number, shownAt: Date): Promise<ReviewRecord[]> {
  return selectReviews(db).where(isShown(shownAt)).orderBy('rv.created_at', 'desc').orderBy('rv.id').limit(limit).offset((page - 1) * limit).execute();
}

export async function countReviews(db: Db, shownAt: Date): Promise<number> {
  const row = await db
    .selectFrom('reviews as rv')
    .innerJoin('cars as c', 'c.id', 'rv.car_id')
    .select(sql<number>`count(*)`.as('count'))
    .where('c.deleted_at', 'is', null)
    .where(isShown(shownAt))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The renter's completed bookings of a car, newest first, with whether each is reviewed. */
export function findCompletedBookings(db: Db, carId: string, renterId: string) {
  return db
    .selectFrom('bookings as b')
    .leftJoin('reviews as rv', (join) => join.onRef('rv.booking_id', '=', 'b.id').on('rv.direction', '=', 'car'))
    .select(['b.id', 'b.booking_number', 'b.completed_at', 'rv.id as review_id'])
    .where('b.car_id', '=', carId)
    .where('b.renter_id', '=', renterId)
    .where('b.status', '=', 'completed')
    .orderBy('b.completed_at', 'desc')
    .execute();
}

/** One booking's parties and state, locked so the two reviews of a booking are written one after the other. */
export function lockBookingForReview(db: Db, bookingId: string) {
  return db
    .selectFrom('bookings')
    .select(['id', 'car_id', 'renter_id', 'owner_id', 'status', 'completed_at'])
    .where('id', '=', bookingId)
    .forUpdate()
    .executeTakeFirst();
}

/** A booking's parties and state (no lock), for reading its reviews. */
export function findBookingParties(db: Db, bookingId: string) {
  return db
    .selectFrom('bookings as b')
    .innerJoin('users as r', 'r.id', 'b.renter_id')
    .innerJoin('users as o', 'o.id', 'b.owner_id')
    .select(['b.id', 'b.car_id', 'b.renter_id', 'b.owner_id', 'b.status', 'b.completed_at', 'r.full_name as renter_name', 'o.full_name as owner_name'])
    .where('b.id', '=', bookingId)
    .executeTakeFirst();
}

/** Reveals a booking's reviews now that both are in. */
export async function revealBookingReviews(db: Db, bookingId: string): Promise<void> {
  await db.updateTable('reviews').set({ hidden_until: null }).where('booking_id', '=', bookingId).execute();
}

/** Reveals every review whose window has ended; answers the bookings and cars they belong to. */
export function revealReviewsDue(db: Db, now: Date): Promise<{ booking_id: string | null; car_id: string }[]> {
  return db
    .updateTable('reviews')
    .set({ hidden_until: null })
    .where('hidden_until', 'is not', null)
    .where('hidden_until', '<=', now)
    .returning(['booking_id', 'car_id'])
    .execute();
}

/** A renter's rating (revealed reviews by hosts) and completed trips. */
export async function renterRecord(db: Db, renterId: string, shownAt: Date): Promise<{ rating: number | null; review_count: number; completed_trips: number }> {
  const [reviews, trips] = await Promise.all([
    db
      .selectFrom('reviews as rv')
      .select([sql<number | null>`round(avg(rv.rating)::numeric, 1)`.as('rating'), sql<number>`count(*)`.as('count')])
      .where('rv.subject_id', '=', renterId)
      .where('rv.direction', '=', 'renter')
      .where(isShown(shownAt))
      .executeTakeFirstOrThrow(),
    db.selectFrom('bookings').select(sql<number>`count(*)`.as('count')).where('renter_id', '=', renterId).where('status', '=', 'completed').executeTakeFirstOrThrow(),
  ]);
  return { rating: reviews.rating === null ? null : Number(reviews.rating), review_count: Number(reviews.count), completed_trips: Number(trips.count) };
}

export function insertReview(
  db: Db,
  review: { booking_id: string; car_id: string; reviewer_id: string; rating: number; comment: string; direction: ReviewDirection; subject_id: string | null; hidden_until: Date | null },
  now: Date,
): Promise<{ id: string }> {
  return db.insertInto('reviews').values({ ...review, created_at: now, updated_at: now }).returning('id').executeTakeFirstOrThrow();
}

export async function updateReview(db: Db, id: string, changes: { rating?: number; comment?: string }, now: Date): Promise<void> {
  await db
    .updateTable('reviews')
    .set({
      ...(changes.rating !== undefined ? { rating: changes.rating } : {}),
      ...(changes.comment !== undefined ? { comment: changes.comment } : {}),
      updated_at: now,
    })
    .where('id', '=', id)
    .execute();
}

export async function deleteReview(db: Db, id: string): Promise<void> {
  await db.deleteFrom('reviews').where('id', '=', id).execute();
}
