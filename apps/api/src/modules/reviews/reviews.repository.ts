// SQL for reviews: lists with the reviewer and car, the rating spread, and the car's cached
// rating (cars.rating, cars.total_reviews) and its host's (users.rating), which follow the reviews.
import { sql } from 'kysely';
import type { Db } from '../../db/connection';

export interface ReviewRecord {
  id: string;
  booking_id: string | null;
  rating: number;
  comment: string;
  created_at: Date;
  reviewer_username: string;
  car_username: string;
}

export interface ReviewFilters {
  carId?: string;
  reviewerId?: string;
  limit: number;
}

function selectReviews(db: Db) {
  return db
    .selectFrom('reviews as rv')
    .innerJoin('users as u', 'u.id', 'rv.reviewer_id')
    .innerJoin('cars as c', 'c.id', 'rv.car_id')
    .select(['rv.id', 'rv.booking_id', 'rv.rating', 'rv.comment', 'rv.created_at', 'u.username as reviewer_username', 'c.car_username'])
    .where('c.deleted_at', 'is', null);
}

export function listReviews(db: Db, filters: ReviewFilters): Promise<ReviewRecord[]> {
  let query = selectReviews(db);
  if (filters.carId) query = query.where('rv.car_id', '=', filters.carId);
  if (filters.reviewerId) query = query.where('rv.reviewer_id', '=', filters.reviewerId);
  return query.orderBy('rv.created_at', 'desc').orderBy('rv.id').limit(filters.limit).execute();
}

export async function ratingCounts(db: Db, carId?: string): Promise<{ rating: number; count: number }[]> {
  let query = db
    .selectFrom('reviews as rv')
    .innerJoin('cars as c', 'c.id', 'rv.car_id')
    .select(['rv.rating', sql<number>`count(*)`.as('count')])
    .where('c.deleted_at', 'is', null)
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

/** Each reviewed car's average rating (2 decimals) and count: of `carId`, or of every car. */
export async function carRatings(db: Db, carId?: string): Promise<{ car_id: string; rating: number | null; total: number }[]> {
  let query = db
    .selectFrom('reviews')
    .select(['car_id', sql<number | null>`round(avg(rating)::numeric, 2)`.as('rating'), sql<number>`count(*)`.as('total')])
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
    .groupBy('c.owner_id');
  if (hostId) query = query.where('c.owner_id', '=', hostId);
  const rows = await query.execute();
  return rows.map((r) => ({ host_id: r.host_id, rating: r.rating === null ? null : Number(r.rating) }));
}

export function findReviewRecord(db: Db, id: string): Promise<(ReviewRecord & { reviewer_id: string; car_id: string; owner_id: string }) | undefined> {
  return selectReviews(db).select(['rv.reviewer_id', 'rv.car_id', 'c.owner_id']).where('rv.id', '=', id).executeTakeFirst();
}

export function listReviewsPage(db: Db, page: number, limit: number): Promise<ReviewRecord[]> {
  return selectReviews(db).orderBy('rv.created_at', 'desc').orderBy('rv.id').limit(limit).offset((page - 1) * limit).execute();
}

export async function countReviews(db: Db): Promise<number> {
  const row = await db
    .selectFrom('reviews as rv')
    .innerJoin('cars as c', 'c.id', 'rv.car_id')
    .select(sql<number>`count(*)`.as('count'))
    .where('c.deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The renter's completed bookings of a car, newest first, with whether each is reviewed. */
export function findCompletedBookings(db: Db, carId: string, renterId: string) {
  return db
    .selectFrom('bookings as b')
    .leftJoin('reviews as rv', 'rv.booking_id', 'b.id')
    .select(['b.id', 'b.booking_number', 'rv.id as review_id'])
    .where('b.car_id', '=', carId)
    .where('b.renter_id', '=', renterId)
    .where('b.status', '=', 'completed')
    .orderBy('b.completed_at', 'desc')
    .execute();
}

export function insertReview(
  db: Db,
  review: { booking_id: string; car_id: string; reviewer_id: string; rating: number; comment: string },
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
