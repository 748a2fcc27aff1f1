// Reviews as read on the detail page and the dashboards (document 2 section 3, document 3 section 3).
import { z } from './zod';
import { MAX_PAGE } from './limits';
import { safeText } from './text';

export const REVIEW_COMMENT_MAX = 500;
export const RATING_LABELS: Record<1 | 2 | 3 | 4 | 5, string> = { 1: 'Poor', 2: 'Fair', 3: 'Good', 4: 'Very Good', 5: 'Excellent' };

export const reviewSchema = z.object({
  id: z.string(),
  rating: z.number().int().min(1).max(5),
  comment: z.string(),
  created_at: z.string(),
  reviewer: z.object({ username: z.string(), avatar: z.string().nullable() }),
  car_username: z.string(),
  user_username: z.string(),
  booking_id: z.string().nullable(),
  /** 'car': a renter's review of the car; 'renter': a host's review of the renter (decision 043). */
  direction: z.enum(['car', 'renter']).optional(),
  /** The renter reviewed, for a host's review. */
  subject_username: z.string().nullable().optional(),
});
export type Review = z.infer<typeof reviewSchema>;

export const reviewListQuerySchema = z.object({
  car_username: safeText('car_username').max(120).optional(),
  user_username: safeText('user_username').max(100).optional(),
});

export const reviewStatsSchema = z.object({
  /** Average rating to one decimal; 0 when there are none. */
  average: z.number(),
  count: z.number().int(),
  by_rating: z.object({ 1: z.number().int(), 2: z.number().int(), 3: z.number().int(), 4: z.number().int(), 5: z.number().int() }),
});
export type ReviewStats = z.infer<typeof reviewStatsSchema>;

const reviewComment = safeText('Comment', { error: 'Comment is required', multiline: true })
  .min(1, 'Comment is required')
  .max(REVIEW_COMMENT_MAX, `Comment must be at most ${REVIEW_COMMENT_MAX} characters`);
const reviewRating = z
  .number({ error: 'Rating must be a whole number from 1 to 5' })
  .int('Rating must be a whole number from 1 to 5')
  .min(1, 'Rating must be a whole number from 1 to 5')
  .max(5, 'Rating must be a whole number from 1 to 5');

/** POST /review/create. user_username is accepted for the seed's payload; the author is the caller. */
export const createReviewBodySchema = z.object({
  car_username: safeText('car_username', { error: 'car_username is required' }).min(1, 'car_username is required').max(120),
  user_username: safeText('user_username').max(100).optional(),
  rating: reviewRating.default(5),
  comment: reviewComment,
  booking_id: safeText('booking_id').max(100).optional(),
});

export const updateReviewBodySchema = z
  .object({ rating: reviewRating.optional(), comment: reviewComment.optional() })
  .refine((v) => v.rating !== undefined || v.comment !== undefined, { message: 'Nothing to update: send rating or comment' });

export const reviewPageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(MAX_PAGE, `page must be at most ${MAX_PAGE}`).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

// ---- Reviews both ways (decision 043): the host reviews the renter as the renter reviews the car ----

/** Days after a trip completes in which each side may review; both reviews show together, or then. */
export const REVIEW_WINDOW_DAYS = 14;

/** The end of a completed trip's review window: after it nothing more is written and all is shown (server and screens). */
export function reviewWindowEnd(completedAt: Date | string): Date {
  return new Date(new Date(completedAt).getTime() + REVIEW_WINDOW_DAYS * 24 * 60 * 60 * 1000);
}

/** POST /review/renter: the host reviews the renter of one of their completed bookings. */
export const createRenterReviewBodySchema = z.object({
  booking_id: safeText('booking_id', { error: 'booking_id is required' }).min(1, 'booking_id is required').max(100),
  rating: reviewRating,
  comment: reviewComment,
});

/** GET /review/booking/{id}: a party's view of one booking's two reviews. */
export const bookingReviewsSchema = z.object({
  /** The caller's side: 'renter' reviews the car, 'host' reviews the renter. */
  side: z.enum(['renter', 'host']),
  /** The caller's own review, shown to them before it is revealed. */
  mine: reviewSchema.nullable(),
  /** The other side's review, only once revealed. */
  theirs: reviewSchema.nullable(),
  /** Whether the caller may still write their review (trip completed, within the window, not yet written). */
  can_review: z.boolean(),
  /** When the window closes and whatever is in is shown (ISO); null before the trip is completed. */
  window_ends_at: z.string().nullable(),
  revealed: z.boolean(),
  /** The other party's display name, for "Your review will appear when … reviews you". */
  other_name: z.string(),
});
export type BookingReviews = z.infer<typeof bookingReviewsSchema>;

/** GET /review/renter/{username}: a renter's record as hosts and their public profile show it. */
export const renterRecordSchema = z.object({
  username: z.string(),
  /** Average of the revealed reviews hosts wrote of them, to one decimal; null when none. */
  rating: z.number().nullable(),
  review_count: z.number().int(),
  completed_trips: z.number().int(),
  reviews: z.array(reviewSchema),
});
export type RenterRecord = z.infer<typeof renterRecordSchema>;
