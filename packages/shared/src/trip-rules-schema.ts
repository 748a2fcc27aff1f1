// The schemas of a car's trip rules (issue 23, decision 048): as the API answers them, and the host's
// update, which is also the panel's form resolver. Apart from trip-rules.ts, whose rules and words
// the public car page uses without loading zod.
import { z } from './zod';
import { MAX_HOURLY_HOURS } from './booking-rules';
import { TRIP_RULE_FORM_MESSAGES, TRIP_RULE_LIMITS } from './trip-rules';

/** The car's rules as the API answers them. */
export const tripRulesSchema = z.object({
  min_days: z.number().int(),
  max_days: z.number().int().nullable(),
  min_hours: z.number().int(),
  max_hours: z.number().int(),
  advance_notice_hours: z.number().int(),
  booking_window_months: z.number().int().nullable(),
  weekly_discount_percent: z.number(),
  monthly_discount_percent: z.number(),
});

const whole = (label: string, min: number, max: number) =>
  z.coerce
    .number({ error: `${label} must be a number` })
    .int(`${label} must be a whole number`)
    .min(min, `${label} must be at least ${min}`)
    .max(max, `${label} must be at most ${max}`);
const optionalWhole = (label: string, min: number, max: number) =>
  z.preprocess((v) => (v === '' || v === undefined ? null : v), whole(label, min, max).nullable());

/**
 * PATCH /car/updateTripRules/{id}: the whole set, as the host's panel sends it. The same schema is
 * the panel's form resolver, so the form and the server refuse the same things in the same words.
 */
export const updateTripRulesBodySchema = z
  .object({
    min_days: whole('Minimum trip (days)', 1, TRIP_RULE_LIMITS.maxMinDays),
    max_days: optionalWhole('Maximum trip (days)', 1, TRIP_RULE_LIMITS.maxMaxDays),
    min_hours: whole('Minimum trip (hours)', 1, MAX_HOURLY_HOURS),
    max_hours: whole('Maximum trip (hours)', 1, MAX_HOURLY_HOURS),
    advance_notice_hours: whole('Advance notice (hours)', 0, TRIP_RULE_LIMITS.maxNoticeHours),
    booking_window_months: optionalWhole('Booking window (months)', 1, TRIP_RULE_LIMITS.maxWindowMonths),
    weekly_discount_percent: whole('Weekly discount', 0, TRIP_RULE_LIMITS.maxDiscountPercent),
    monthly_discount_percent: whole('Monthly discount', 0, TRIP_RULE_LIMITS.maxDiscountPercent),
  })
  .superRefine((v, ctx) => {
    if (v.max_days !== null && v.max_days < v.min_days) ctx.addIssue({ code: 'custom', path: ['max_days'], message: TRIP_RULE_FORM_MESSAGES.daysOrder });
    if (v.max_hours < v.min_hours) ctx.addIssue({ code: 'custom', path: ['max_hours'], message: TRIP_RULE_FORM_MESSAGES.hoursOrder });
    if (v.monthly_discount_percent > 0 && v.monthly_discount_percent < v.weekly_discount_percent) {
      ctx.addIssue({ code: 'custom', path: ['monthly_discount_percent'], message: TRIP_RULE_FORM_MESSAGES.monthlyBelowWeekly });
    }
    // A window of N months always holds at least 28 x N days.
    if (v.booking_window_months !== null && v.min_days > v.booking_window_months * 28) {
      ctx.addIssue({ code: 'custom', path: ['booking_window_months'], message: TRIP_RULE_FORM_MESSAGES.windowTooShort });
    }
  });
export type UpdateTripRulesBody = z.input<typeof updateTripRulesBodySchema>;
export type TripRulesInput = z.output<typeof updateTripRulesBodySchema>;
