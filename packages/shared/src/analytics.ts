// Admin Analytics (issue 10): weekly bookings and revenue, trip length, rating, conversion,
// cancellation and rejection rates, busiest cities and utilisation of a chosen period of
// Johannesburg days. Every figure is an SQL aggregate of stored rows (decisions.md section 7).
import { z } from './zod';
import { addDays, daysBetween } from './booking-rules';
import { dateRangeQuerySchema } from './calendar-date';

/** The longest period one request may ask for, in days. */
export const ANALYTICS_MAX_DAYS = 731;
/** The default period: the last 12 weeks ending today. */
export const ANALYTICS_DEFAULT_DAYS = 84;

export const ANALYTICS_TOO_LONG = `The period may be at most ${ANALYTICS_MAX_DAYS} days`;

/** True when a period of Johannesburg days is longer than one request may ask for. */
export function isAnalyticsPeriodTooLong(from: string, to: string): boolean {
  return daysBetween(from, to) >= ANALYTICS_MAX_DAYS;
}

/** `?from=YYYY-MM-DD&to=YYYY-MM-DD`, Johannesburg dates, both optional (default the last 12 weeks ending today). */
export const adminAnalyticsQuerySchema = dateRangeQuerySchema.refine((q) => !q.from || !q.to || !isAnalyticsPeriodTooLong(q.from, q.to), {
  message: ANALYTICS_TOO_LONG,
  path: ['to'],
});
export type AdminAnalyticsQuery = z.infer<typeof adminAnalyticsQuerySchema>;

/**
 * The period a query stands for, given today's Johannesburg date. With only `from` the period ends
 * today, so its length is only known here: the service refuses one that is too long (a `from` years
 * back would otherwise answer thousands of weeks).
 */
export function analyticsPeriod(query: AdminAnalyticsQuery, today: string): { from: string; to: string } {
  const to = query.to ?? (query.from && query.from > today ? query.from : today);
  const from = query.from ?? addDays(to, -(ANALYTICS_DEFAULT_DAYS - 1));
  return { from, to };
}

/** The Monday on or before a 'YYYY-MM-DD' date. */
export function mondayOf(date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const weekday = (new Date(Date.UTC(y, m - 1, d)).getUTCDay() + 6) % 7; // Monday 0 .. Sunday 6
  return addDays(date, -weekday);
}

/** Every week start (Monday) of the weeks a period touches, oldest first. */
export function weeksOf(from: string, to: string): string[] {
  const weeks: string[] = [];
  for (let week = mondayOf(from); week <= to; week = addDays(week, 7)) weeks.push(week);
  return weeks;
}

export const analyticsWeekSchema = z.object({
  /** The Monday the week starts on (YYYY-MM-DD). */
  week_start: z.string(),
  /** Bookings created that week (within the period). */
  bookings: z.number().int(),
  /** The platform's app fee of the bookings that earned that week (within the period), rand. */
  revenue: z.number(),
});
export type AnalyticsWeek = z.infer<typeof analyticsWeekSchema>;

export const adminAnalyticsSchema = z.object({
  period: z.object({ from: z.string(), to: z.string() }),
  weeks: z.array(analyticsWeekSchema),
  /** Average length in days of the daily bookings completed in the period; null when none. */
  average_trip_days: z.number().nullable(),
  /** Average rating of the reviews written in the period; null when none. */
  average_rating: z.number().nullable(),
  /** Share (0..1) of the bookings created in the period that were paid. */
  conversion: z.number(),
  /** Share (0..1) of the bookings created in the period that were cancelled. */
  cancellation_rate: z.number(),
  /** Share (0..1) of the bookings created in the period that were rejected. */
  rejection_rate: z.number(),
  /** Bookings created in the period, for reference. */
  bookings: z.number().int(),
  /** The five cities with the most bookings created in the period. */
  busiest_cities: z.array(z.object({ city: z.string(), bookings: z.number().int() })),
  /** Booked car-days (active or completed) in the period ÷ (listed verified cars × days), 0..1. */
  utilisation: z.number(),
  /** The host fee (platform_fee, % of rental and pickup) in force now. */
  platform_fee: z.number(),
});
export type AdminAnalytics = z.infer<typeof adminAnalyticsSchema>;
