// The API's shapes of trip changes (trip-changes.ts has the rules; kept apart so that pages which
// only price a change carry no zod).
import { safeText } from './text';
import { TRIP_CHANGE_STATUSES } from './trip-changes';
import { z } from './zod';

const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Use YYYY-MM-DD');
const time = z.string().regex(/^\d{2}:\d{2}$/, 'Use HH:mm');

export const tripChangeTimesSchema = z.object({ start_date: date, end_date: date, start_time: time, end_time: time });

export const tripChangeRequestSchema = tripChangeTimesSchema.extend({
  /** Rand the dialog showed the renter would pay (> 0) or get back (< 0): a different figure now is refused (409). */
  expected_net: z.number().optional(),
  message: safeText('Message').max(500).optional(),
});
export type TripChangeRequestBody = z.infer<typeof tripChangeRequestSchema>;

export const tripChangeAnswerSchema = z.object({ note: safeText('Note').max(500).optional() });

const partsSchema = z.object({
  rental: z.number(),
  discount: z.number(),
  subtotal: z.number(),
  service_fee: z.number(),
  insurance_fee: z.number(),
  pickup_fee: z.number(),
  total: z.number(),
  host_earnings: z.number(),
  platform: z.number(),
});

export const tripChangeQuoteSchema = z.object({
  can_request: z.boolean(),
  refusal: z.string().nullable(),
  before: partsSchema.extend({ days: z.number(), hours: z.number().nullable(), start_date: z.string(), end_date: z.string(), start_time: z.string(), end_time: z.string() }),
  after: partsSchema.extend({ days: z.number(), hours: z.number().nullable(), start_date: z.string(), end_date: z.string(), start_time: z.string(), end_time: z.string() }),
  difference: partsSchema,
  kept: z.number(),
  kept_host: z.number(),
  kept_platform: z.number(),
  net: z.number(),
  free_until: z.string(),
  answer_by: z.string(),
  instant: z.boolean(),
  summary: z.string(),
});
export type TripChangeQuoteView = z.infer<typeof tripChangeQuoteSchema>;

export const tripChangeSchema = z.object({
  id: z.string(),
  booking_id: z.string(),
  status: z.enum(TRIP_CHANGE_STATUSES),
  from: tripChangeTimesSchema,
  to: tripChangeTimesSchema,
  /** Rand: the new trip's total, what is kept for time given up, and what the renter pays (> 0) or gets back (< 0). */
  new_total: z.number(),
  kept: z.number(),
  net: z.number(),
  /** The host's side: their share moves by this much (rand). */
  host_difference: z.number().nullable(),
  summary: z.string(),
  message: z.string().nullable(),
  answer_by: z.string(),
  requested_at: z.string(),
  answered_at: z.string().nullable(),
  note: z.string().nullable(),
  failure: z.string().nullable(),
});
export type TripChangeView = z.infer<typeof tripChangeSchema>;

