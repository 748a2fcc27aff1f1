// Booking date and time rules of document 2 section 5 and decisions.md section 5. Dates are
// 'YYYY-MM-DD' and times 'HH:mm', both local to Africa/Johannesburg; the date arithmetic here works
// on calendar dates only, so no time-zone shift can move a day.
import { TIME_ZONE } from './constants';
import { lazily } from './lazily';
import { todayIn } from './zoned-date';

export const DATE_PATTERN = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
export const TIME_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;
export const MAX_HOURLY_HOURS = 24;
export const MIN_HOURLY_HOURS = 1;
/** Time inputs allow 06:00 to 22:00; defaults pickup 09:00, return 17:00 (document 2 section 5). */
export const EARLIEST_TIME = '06:00';
export const LATEST_TIME = '22:00';
export const DEFAULT_PICKUP_TIME = '09:00';
export const DEFAULT_RETURN_TIME = '17:00';
/** Booking statuses that hold a car's dates (decisions.md section 5). */
export const HOLDING_STATUSES = ['pending', 'confirmed', 'active'] as const;

const DAY_MS = 24 * 60 * 60 * 1000;

/** True for a real calendar date in 'YYYY-MM-DD' form (rejects 2025-02-30). */
export function isValidDate(value: string | null | undefined): value is string {
  if (!value || !DATE_PATTERN.test(value)) return false;
  const [y, m, d] = value.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

export function isValidTime(value: string | null | undefined): value is string {
  return !!value && TIME_PATTERN.test(value);
}

function dayNumber(date: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return Date.UTC(y, m - 1, d) / DAY_MS;
}

/** Whole calendar days from a to b (negative when b is before a). */
export function daysBetween(a: string, b: string): number {
  return dayNumber(b) - dayNumber(a);
}

export function addDays(date: string, days: number): string {
  return new Date((dayNumber(date) + days) * DAY_MS).toISOString().slice(0, 10);
}

/** Every month 'YYYY-MM' from `from` to `to` inclusive (empty when `to` is before `from`). */
export function monthsFrom(from: string, to: string): string[] {
  const months: string[] = [];
  let [y, m] = from.split('-').map(Number) as [number, number];
  for (let guard = 0; guard < 1200; guard++) {
    const month = `${y}-${String(m).padStart(2, '0')}`;
    if (month > to) break;
    months.push(month);
    m += 1;
    if (m === 13) [y, m] = [y + 1, 1];
  }
  return months;
}

export function minutesOfTime(time: string): number {
  const [h, m] = time.split(':').map(Number) as [number, number];
  return h * 60 + m;
}

// A calendar date is shown the South African way, e.g. "30 Nov 2026", on every screen and in every
// notification and email (decisions.md section 7). The date has no time zone of its own: it is
// formatted as a UTC day so that no zone can move it.
const dayFormatter = lazily(() => new Intl.DateTimeFormat('en-ZA', { day: '2-digit', month: 'short', year: 'numeric', timeZone: 'UTC' }));

/** 'YYYY-MM-DD' (or an ISO timestamp's date part) as en-ZA, e.g. "30 Nov 2026"; anything else unchanged. */
export function formatDay(date: string): string {
  if (!DATE_PATTERN.test(date.slice(0, 10))) return date;
  const d = new Date(`${date.slice(0, 10)}T00:00:00Z`);
  return Number.isNaN(d.getTime()) ? date : dayFormatter().format(d);
}

// The short form of a day in running text ("Paid · starts Tue 8 Dec"): the weekday helps a person
// place the day; the year is added only when it is not this year in Johannesburg.
const shortDayParts = lazily(() => new Intl.DateTimeFormat('en-ZA', { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }));
const momentParts = lazily(
  () =>
    new Intl.DateTimeFormat('en-ZA', {
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZone: TIME_ZONE,
    }),
);

function partsOf(formatter: Intl.DateTimeFormat, instant: Date): Record<string, string> {
  return Object.fromEntries(formatter.formatToParts(instant).map((p) => [p.type, p.value]));
}

function shortDay(parts: Record<string, string>, now: Date): string {
  const day = `${parts.weekday} ${Number(parts.day)} ${parts.month}`;
  return parts.year === todayIn(now).slice(0, 4) ? day : `${day} ${parts.year}`;
}

/** 'YYYY-MM-DD' as "Tue 8 Dec" ("Tue 8 Dec 2026" in another year than `now`'s); anything else unchanged. */
export function formatShortDay(date: string, now: Date = new Date()): string {
  if (!isValidDate(date.slice(0, 10))) return date;
  return shortDay(partsOf(shortDayParts(), new Date(`${date.slice(0, 10)}T00:00:00Z`)), now);
}

/** An instant as Johannesburg's "Wed 9 Dec, 14:00" (with the year when it is not `now`'s). */
export function formatMoment(instant: Date | string, now: Date = new Date()): string {
  const d = new Date(instant);
  if (Number.isNaN(d.getTime())) return String(instant);
  const parts = partsOf(momentParts(), d);
  return `${shortDay(parts, now)}, ${parts.hour}:${parts.minute}`;
}

/** "30 Nov 2026" for one day, "30 Nov 2026 to 02 Dec 2026" for a range. */
export function formatDateRange(start: string, end: string): string {
  return start === end ? formatDay(start) : `${formatDay(start)} to ${formatDay(end)}`;
}

/** Daily length: calendar days from start to end, at least 1 (a same-day rental is 1 day). */
export function durationDays(startDate: string, endDate: string): number {
  return Math.max(1, daysBetween(startDate, endDate));
}

/** Minutes from the start date and time to the end date and time. */
export function durationMinutes(startDate: string, startTime: string, endDate: string, endTime: string): number {
  return daysBetween(startDate, endDate) * 24 * 60 + minutesOfTime(endTime) - minutesOfTime(startTime);
}

/** Hourly length: the hours rounded up, clamped to 1..24. */
export function durationHours(startDate: string, startTime: string, endDate: string, endTime: string): number {
  const hours = Math.ceil(durationMinutes(startDate, startTime, endDate, endTime) / 60);
  return Math.min(MAX_HOURLY_HOURS, Math.max(MIN_HOURLY_HOURS, hours));
}

// ---- Time ranges (issue 23, decision 047): what a trip holds, as instants [from, to) ----

export const SAST_OFFSET = '+02:00';

export interface Span {
  /** First instant held (ms). */
  from: number;
  /** First instant free again (ms). */
  to: number;
}

/** The instant of a Johannesburg date and time ('YYYY-MM-DD', 'HH:mm'). */
export function momentOf(date: string, time: string): number {
  return Date.parse(`${date}T${time}:00${SAST_OFFSET}`);
}

/** The Johannesburg date ('YYYY-MM-DD') and time ('HH:mm') of an instant. */
export function dateTimeOf(instant: number): { date: string; time: string } {
  const iso = new Date(instant + 2 * 3_600_000).toISOString();
  return { date: iso.slice(0, 10), time: iso.slice(11, 16) };
}

export interface TripTimes {
  start_date: string;
  end_date: string;
  start_time?: string | null;
  end_time?: string | null;
  is_hourly_booking: boolean;
}

/**
 * The range a trip uses, before the buffer: from its pickup to its return (a daily trip's times
 * default to 09:00 and 17:00). A daily trip whose return is not after its pickup (one day, same
 * date) uses the rest of that day. Null while an hourly trip's times are missing.
 */
export function tripSpan(trip: TripTimes): Span | null {
  const startTime = trip.start_time || (trip.is_hourly_booking ? null : DEFAULT_PICKUP_TIME);
  const endTime = trip.end_time || (trip.is_hourly_booking ? null : DEFAULT_RETURN_TIME);
  if (!startTime || !endTime) return null;
  const from = momentOf(trip.start_date, startTime);
  let to = momentOf(trip.end_date, endTime);
  if (to <= from) to = momentOf(addDays(trip.start_date, 1), '00:00');
  return { from, to };
}

/** What a trip holds: its span, then the car's buffer after it. */
export function heldSpan(span: Span, bufferMinutes: number): Span {
  return { from: span.from, to: span.to + bufferMinutes * 60_000 };
}

/** Two half-open ranges share an instant: touching ends do not. */
export function spansOverlap(a: Span, b: Span): boolean {
  return a.from < b.to && b.from < a.to;
}

/** The whole Johannesburg day(s) from `start` to `end`, both included. */
export function daysSpan(start: string, end: string): Span {
  return { from: momentOf(start, '00:00'), to: momentOf(addDays(end, 1), '00:00') };
}

export interface DateRange {
  start_date: string;
  end_date: string;
}

/** True when two inclusive date ranges share at least one date. */
export function rangesOverlap(a: DateRange, b: DateRange): boolean {
  return a.start_date <= b.end_date && b.start_date <= a.end_date;
}

export interface BookingRequestInput {
  start_date: string;
  end_date: string;
  start_time?: string | null;
  end_time?: string | null;
  is_hourly_booking: boolean;
  /** What holds the car (holding bookings, buffer included, and the host's blocks), as instants. */
  blockedRanges: readonly Span[];
  /** The car's buffer after a trip, in minutes (0 when absent). */
  bufferMinutes?: number;
  isOwnCar: boolean;
  isVerified: boolean;
  /** Today in Johannesburg ('YYYY-MM-DD'). */
  today: string;
  /** settings.maxRentalDays; unlimited when absent. */
  maxRentalDays?: number;
}

export interface BookingRuleFailure {
  code:
    | 'dates_unavailable'
    | 'own_car'
    | 'not_verified'
    | 'start_in_past'
    | 'end_before_start'
    | 'missing_times'
    | 'hourly_spans_days'
    | 'end_time_not_after_start'
    | 'under_one_hour'
    | 'over_24_hours'
    | 'under_one_day'
    | 'too_long'
    | 'time_out_of_hours'
    | 'invalid_date';
  title: string;
  message: string;
  /** The HTTP status the API answers with. */
  status: 400 | 403 | 409;
}

const fail = (code: BookingRuleFailure['code'], status: BookingRuleFailure['status'], title: string, message: string): BookingRuleFailure => ({
  code,
  status,
  title,
  message,
});

export const BOOKING_RULE_MESSAGES = {
  dates_unavailable: fail('dates_unavailable', 409, 'Dates Unavailable', 'One or more selected dates are already booked or have pending requests. Please choose different dates.'),
  own_car: fail('own_car', 403, 'Cannot Book Own Car', 'You cannot book your own car.'),
  not_verified: fail('not_verified', 403, 'Verification Required', 'You must complete account verification before booking a car. Please upload your documents and wait for approval.'),
  start_in_past: fail('start_in_past', 400, 'Invalid Date', 'Start date cannot be in the past.'),
  end_before_start: fail('end_before_start', 400, 'Invalid Date', 'End date must be after start date.'),
  missing_times: fail('missing_times', 400, 'Missing Times', 'Please select both pickup and return times for hourly booking.'),
  hourly_spans_days: fail('hourly_spans_days', 400, 'Invalid Booking', 'Hourly booking cannot span more than 1 day.'),
  end_time_not_after_start: fail('end_time_not_after_start', 400, 'Invalid Time', 'End time must be after start time.'),
  under_one_hour: fail('under_one_hour', 400, 'Invalid Duration', 'Minimum booking duration is 1 hour.'),
  over_24_hours: fail('over_24_hours', 400, 'Duration Too Long', 'Hourly bookings cannot exceed 24 hours. Please use daily booking for longer rentals.'),
  under_one_day: fail('under_one_day', 400, 'Invalid Duration', 'Minimum booking duration is 1 day.'),
  invalid_date: fail('invalid_date', 400, 'Invalid Date', 'Please choose valid pickup and return dates.'),
  time_out_of_hours: fail('time_out_of_hours', 400, 'Invalid Time', `Pickup and return times must be between ${EARLIEST_TIME} and ${LATEST_TIME}.`),
} as const satisfies Record<string, BookingRuleFailure>;

export function tooLongFailure(maxRentalDays: number): BookingRuleFailure {
  return fail('too_long', 400, 'Booking Too Long', `Bookings cannot be longer than ${maxRentalDays} ${maxRentalDays === 1 ? 'day' : 'days'}.`);
}

/**
 * The hourly length rules in document 2's order: the return day is the pickup day or the next,
 * a same-day return is after the pickup, at least 1 hour, at most 24. Null when the times make a
 * valid hourly booking. The booking panel and the server both ask this.
 */
export function hourlyTimesFailure(startDate: string, startTime: string, endDate: string, endTime: string): BookingRuleFailure | null {
  const M = BOOKING_RULE_MESSAGES;
  const spanDays = daysBetween(startDate, endDate);
  if (spanDays < 0) return M.end_before_start;
  if (spanDays > 1) return M.hourly_spans_days;
  if (spanDays === 0 && minutesOfTime(endTime) <= minutesOfTime(startTime)) return M.end_time_not_after_start;
  const minutes = durationMinutes(startDate, startTime, endDate, endTime);
  if (minutes < MIN_HOURLY_HOURS * 60) return M.under_one_hour;
  if (minutes > MAX_HOURLY_HOURS * 60) return M.over_24_hours;
  return null;
}

/**
 * The first failing check of a booking request, in document 2's order: dates unavailable, own
 * car, verification, start in the past, end before start, then the hourly or daily length rules.
 * After those come the rules the seed leaves to the server: the maximum rental length
 * (settings.maxRentalDays) and the 06:00-22:00 time window. Null when the request may proceed.
 */
export function validateBookingRequest(input: BookingRequestInput): BookingRuleFailure | null {
  const M = BOOKING_RULE_MESSAGES;
  if (!isValidDate(input.start_date) || !isValidDate(input.end_date)) return M.invalid_date;
  const startTime = input.start_time || null;
  const endTime = input.end_time || null;
  if ((startTime && !isValidTime(startTime)) || (endTime && !isValidTime(endTime))) return M.missing_times;

  // What the trip would hold: its pickup to its return and the buffer; its whole days while an
  // hourly trip has no times yet.
  const endDate = input.end_date < input.start_date ? input.start_date : input.end_date;
  const span = tripSpan({ ...input, end_date: endDate, start_time: startTime, end_time: endTime });
  const wanted = span ? heldSpan(span, input.bufferMinutes ?? 0) : daysSpan(input.start_date, endDate);
  if (input.blockedRanges.some((r) => spansOverlap(r, wanted))) return M.dates_unavailable;
  if (input.isOwnCar) return M.own_car;
  if (!input.isVerified) return M.not_verified;
  if (input.start_date < input.today) return M.start_in_past;

  if (input.is_hourly_booking) {
    if (!startTime || !endTime) return M.missing_times;
    const failure = hourlyTimesFailure(input.start_date, startTime, input.end_date, endTime);
    if (failure) return failure;
  } else {
    if (input.end_date < input.start_date) return M.end_before_start;
    if (durationDays(input.start_date, input.end_date) < 1) return M.under_one_day;
    if (input.maxRentalDays !== undefined && durationDays(input.start_date, input.end_date) > input.maxRentalDays) {
      return tooLongFailure(input.maxRentalDays);
    }
  }
  for (const time of [startTime, endTime]) {
    if (time && (time < EARLIEST_TIME || time > LATEST_TIME)) return M.time_out_of_hours;
  }
  return null;
}

/** The length figures stored on a booking. */
export function bookingLength(input: { start_date: string; end_date: string; start_time: string; end_time: string; is_hourly_booking: boolean }) {
  if (input.is_hourly_booking) {
    return { duration_days: 1, duration_hours: durationHours(input.start_date, input.start_time, input.end_date, input.end_time) };
  }
  return { duration_days: durationDays(input.start_date, input.end_date), duration_hours: null };
}
