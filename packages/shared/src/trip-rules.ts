// A car's trip rules and long-trip discounts (issue 23, decision 048): what its host sets, how a
// request is checked against them (the booking panel greys what this refuses, the server answers
// the same words with a 4xx), and how the car page says them. Pure; dates are Johannesburg
// calendar dates 'YYYY-MM-DD' and times 'HH:mm', as in booking-rules.ts.
import { addDays, durationDays, durationHours, isValidDate, isValidTime, MAX_HOURLY_HOURS } from './booking-rules';
import { localInstant } from './zoned-date';

export const TRIP_RULE_LIMITS = {
  /** Longest minimum for a daily trip: a quarter. */
  maxMinDays: 90,
  /** A maximum above the settings' maxRentalDays is allowed but never reached. */
  maxMaxDays: 365,
  /** Longest notice: two weeks. */
  maxNoticeHours: 14 * 24,
  /** The longest booking window. */
  maxWindowMonths: 24,
  /** A discount above half the price is more likely a typo than a price. */
  maxDiscountPercent: 50,
} as const;

/** A weekly discount applies from this many days, a monthly one from 28. */
export const WEEKLY_DISCOUNT_DAYS = 7;
export const MONTHLY_DISCOUNT_DAYS = 28;

/** The preset choices of the host's panel (any whole number in range is accepted by the API). */
export const NOTICE_CHOICES_HOURS = [0, 1, 2, 3, 6, 12, 24, 48, 72, 168] as const;
export const WINDOW_CHOICES_MONTHS = [1, 2, 3, 6, 9, 12, 24] as const;

export interface TripRules {
  /** Daily trips: whole days, at least. */
  min_days: number;
  /** Daily trips: at most (null: only the platform's maxRentalDays). */
  max_days: number | null;
  /** Hourly trips: whole hours, 1 to 24. */
  min_hours: number;
  max_hours: number;
  /** How long before the pickup a request must arrive, in hours (0: any time before the pickup day ends). */
  advance_notice_hours: number;
  /** How far ahead the trip may end, in calendar months from today (null: no limit). */
  booking_window_months: number | null;
  /** Per cent off the rental of a daily trip of 7+ days, and of 28+ days (whole numbers, 0 to 50). */
  weekly_discount_percent: number;
  monthly_discount_percent: number;
}

/** Every car's rules before its host changes them: today's behaviour (decision 048). */
export const DEFAULT_TRIP_RULES: TripRules = {
  min_days: 1,
  max_days: null,
  min_hours: 1,
  max_hours: MAX_HOURLY_HOURS,
  advance_notice_hours: 0,
  booking_window_months: null,
  weekly_discount_percent: 0,
  monthly_discount_percent: 0,
};

export const TRIP_RULE_FORM_MESSAGES = {
  daysOrder: 'The maximum trip cannot be shorter than the minimum.',
  hoursOrder: 'The maximum hours cannot be fewer than the minimum.',
  monthlyBelowWeekly: 'The monthly discount cannot be smaller than the weekly one.',
  windowTooShort: 'The booking window is shorter than the minimum trip.',
} as const;

// ---- Words ----

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** "1 day", "3 days", "1 week", "6 hours": notice and lengths in the words a host chose them in. */
export function formatHours(hours: number): string {
  if (hours >= 24 * 7 && hours % (24 * 7) === 0) return plural(hours / (24 * 7), 'week');
  if (hours >= 24 && hours % 24 === 0) return plural(hours / 24, 'day');
  return plural(hours, 'hour');
}

/** "1 day's notice", "3 hours' notice". */
export function noticeLabel(hours: number): string {
  const words = formatHours(hours);
  return `${words}${words.startsWith('1 ') ? "'s" : "'"} notice`;
}

export function windowLabel(months: number): string {
  return months % 12 === 0 ? plural(months / 12, 'year') : plural(months, 'month');
}

/** The car page's line of rules, e.g. ["Minimum 2 days", "1 day's notice"]; empty for the defaults. */
export function describeTripRules(rules: TripRules): string[] {
  const parts: string[] = [];
  if (rules.min_days > 1) parts.push(`Minimum ${plural(rules.min_days, 'day')}`);
  if (rules.max_days !== null) parts.push(`Maximum ${plural(rules.max_days, 'day')}`);
  if (rules.min_hours > 1) parts.push(`Hourly trips of at least ${plural(rules.min_hours, 'hour')}`);
  if (rules.max_hours < MAX_HOURLY_HOURS) parts.push(`Hourly trips of at most ${plural(rules.max_hours, 'hour')}`);
  if (rules.advance_notice_hours > 0) parts.push(noticeLabel(rules.advance_notice_hours));
  if (rules.booking_window_months !== null) parts.push(`Bookable up to ${windowLabel(rules.booking_window_months)} ahead`);
  return parts;
}

/** The car page's discounts, e.g. ["10% off weekly trips", "20% off monthly trips"]. */
export function describeDiscounts(rules: Pick<TripRules, 'weekly_discount_percent' | 'monthly_discount_percent'>): string[] {
  const parts: string[] = [];
  if (rules.weekly_discount_percent > 0) parts.push(`${rules.weekly_discount_percent}% off weekly trips`);
  if (rules.monthly_discount_percent > 0) parts.push(`${rules.monthly_discount_percent}% off monthly trips`);
  return parts;
}

// ---- Discounts ----

export interface TripDiscount {
  percent: number;
  kind: 'weekly' | 'monthly' | null;
}

/**
 * The discount of a trip: the monthly one from 28 days (the weekly one when it is larger or the
 * monthly is not set), the weekly one from 7 days, none for shorter or hourly trips.
 */
export function tripDiscount(rules: Pick<TripRules, 'weekly_discount_percent' | 'monthly_discount_percent'> | null | undefined, trip: { isHourly: boolean; days: number }): TripDiscount {
  if (!rules || trip.isHourly) return { percent: 0, kind: null };
  const weekly = Math.max(0, rules.weekly_discount_percent);
  const monthly = Math.max(0, rules.monthly_discount_percent);
  if (trip.days >= MONTHLY_DISCOUNT_DAYS && monthly > 0 && monthly >= weekly) return { percent: monthly, kind: 'monthly' };
  if (trip.days >= WEEKLY_DISCOUNT_DAYS && weekly > 0) return { percent: weekly, kind: 'weekly' };
  return { percent: 0, kind: null };
}

export function discountLabel(kind: 'weekly' | 'monthly', percent: number): string {
  return `${kind === 'weekly' ? 'Weekly' : 'Monthly'} discount (${percent}%)`;
}

/** A stored booking's discount line from its rate and duration ("Weekly discount (10%)"). */
export function bookingDiscountLabel(percent: number, days: number): string {
  return discountLabel(days >= MONTHLY_DISCOUNT_DAYS ? 'monthly' : 'weekly', percent);
}

// ---- Checking a request ----

export type TripRuleCode = 'needs_notice' | 'under_minimum' | 'over_maximum' | 'beyond_window';

export interface TripRuleFailure {
  code: TripRuleCode;
  title: string;
  message: string;
  status: 400;
}

const failure = (code: TripRuleCode, title: string, message: string): TripRuleFailure => ({ code, title, message, status: 400 });

export const tripRuleMessages = {
  needsNotice: (hours: number) => failure('needs_notice', 'Too Soon', `This car needs ${noticeLabel(hours)}.`),
  minimumDays: (days: number) => failure('under_minimum', 'Trip Too Short', `Minimum trip: ${plural(days, 'day')}.`),
  maximumDays: (days: number) => failure('over_maximum', 'Trip Too Long', `Maximum trip: ${plural(days, 'day')}.`),
  minimumHours: (hours: number) => failure('under_minimum', 'Trip Too Short', `Minimum hourly trip: ${plural(hours, 'hour')}.`),
  maximumHours: (hours: number) => failure('over_maximum', 'Trip Too Long', `Maximum hourly trip: ${plural(hours, 'hour')}.`),
  beyondWindow: (months: number) => failure('beyond_window', 'Too Far Ahead', `This car can be booked at most ${windowLabel(months)} ahead.`),
};

/** The same date N calendar months later, the month's last day when it has no such day (31 Jan + 1 = 28 Feb). */
export function addMonths(date: string, months: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const index = y * 12 + (m - 1) + months;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${year}-${String(month).padStart(2, '0')}-${String(Math.min(d, last)).padStart(2, '0')}`;
}

/** The last date a trip may end on (null: no limit). */
export function lastBookableDate(rules: Pick<TripRules, 'booking_window_months'>, today: string): string | null {
  return rules.booking_window_months === null ? null : addMonths(today, rules.booking_window_months);
}

/** The earliest instant a trip may start: now plus the notice (null without a notice). */
export function earliestStart(rules: Pick<TripRules, 'advance_notice_hours'>, now: Date): Date | null {
  return rules.advance_notice_hours > 0 ? new Date(now.getTime() + rules.advance_notice_hours * 3_600_000) : null;
}

/** True when a daily trip starting that day at `time` (the pickup) meets the notice. */
export function meetsNotice(rules: Pick<TripRules, 'advance_notice_hours'>, date: string, time: string, now: Date): boolean {
  const earliest = earliestStart(rules, now);
  return earliest === null || localInstant(date, time).getTime() >= earliest.getTime();
}

export interface TripRequest {
  start_date: string;
  end_date: string;
  start_time: string | null;
  end_time: string | null;
  is_hourly_booking: boolean;
}

/**
 * The first trip rule a request breaks, or null: the notice (from now to the pickup), the booking
 * window (the return date), then the length (days for daily trips, hours for hourly ones). Asked
 * after the general booking rules (validateBookingRequest), so the dates and times are valid.
 */
export function tripRuleFailure(rules: TripRules, request: TripRequest, now: Date, today: string): TripRuleFailure | null {
  if (!isValidDate(request.start_date) || !isValidDate(request.end_date)) return null;
  const startTime = request.start_time && isValidTime(request.start_time) ? request.start_time : '00:00';
  if (!meetsNotice(rules, request.start_date, startTime, now)) return tripRuleMessages.needsNotice(rules.advance_notice_hours);
  const last = lastBookableDate(rules, today);
  if (last !== null && request.end_date > last) return tripRuleMessages.beyondWindow(rules.booking_window_months!);
  if (request.is_hourly_booking) {
    if (!request.start_time || !request.end_time || !isValidTime(request.end_time)) return null;
    const hours = durationHours(request.start_date, startTime, request.end_date, request.end_time);
    if (hours < rules.min_hours) return tripRuleMessages.minimumHours(rules.min_hours);
    if (hours > rules.max_hours) return tripRuleMessages.maximumHours(rules.max_hours);
    return null;
  }
  const days = durationDays(request.start_date, request.end_date);
  if (days < rules.min_days) return tripRuleMessages.minimumDays(rules.min_days);
  if (rules.max_days !== null && days > rules.max_days) return tripRuleMessages.maximumDays(rules.max_days);
  return null;
}

/**
 * Why the booking panel greys a day as a pickup day, or null: before the notice allows a pickup at
 * `pickupTime`, or after the window. The panel also ends a selection no earlier than the minimum.
 */
export function pickupDayRefusal(rules: TripRules, date: string, pickupTime: string, now: Date, today: string): TripRuleFailure | null {
  if (!meetsNotice(rules, date, pickupTime, now)) return tripRuleMessages.needsNotice(rules.advance_notice_hours);
  const last = lastBookableDate(rules, today);
  if (last !== null && date > last) return tripRuleMessages.beyondWindow(rules.booking_window_months!);
  return null;
}

/** The first return date a daily trip from `start` may have under the minimum ('YYYY-MM-DD'). */
export function earliestReturnDate(rules: Pick<TripRules, 'min_days'>, start: string): string {
  // A same-day daily trip counts as one day, so a one-day minimum allows returning on the pickup day.
  return rules.min_days <= 1 ? start : addDays(start, rules.min_days);
}
