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
