// Date helpers of the booking panel (document 2 sections 2 and 5): quick-select ranges, calendar
// months, which days are unavailable, and how the dates read on screen. Dates are 'YYYY-MM-DD'
// in Johannesburg; the arithmetic is on calendar dates only.
import {
  addDays,
  lazily,
  dayFullyHeld,
  daysBetween,
  daysSpan,
  heldSpan,
  momentOf,
  spanOfHold,
  spansOverlap,
  tripSpan,
  type CarAvailability,
  type DateRange,
  type Span,
} from '@karoo/shared';

export type BookingMode = 'daily' | 'hourly';
export type QuickSelect = 'today' | 'tomorrow' | 'weekend' | 'nextWeek';

export const QUICK_SELECTS: Record<BookingMode, { id: QuickSelect; label: string }[]> = {
  daily: [
    { id: 'today', label: 'Today' },
    { id: 'tomorrow', label: 'Tomorrow' },
    { id: 'weekend', label: 'This Weekend' },
    { id: 'nextWeek', label: 'Next Week' },
  ],
  hourly: [
    { id: 'today', label: 'Today' },
    { id: 'tomorrow', label: 'Tomorrow' },
  ],
};

function dayOfWeek(date: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d)).getUTCDay();
}

/** The coming Saturday (today when today is a Saturday). */
export function comingSaturday(today: string): string {
  return addDays(today, (6 - dayOfWeek(today) + 7) % 7);
}

/** The rental a quick-select sets from a start date: one day (daily) or that day (hourly). */
function quickRangeFrom(start: string, mode: BookingMode): DateRange {
  return { start_date: start, end_date: mode === 'hourly' ? start : addDays(start, 1) };
}

/**
 * The dates a quick-select button sets. Daily: a one-day rental starting today, tomorrow, the
 * coming Saturday (to Sunday) or in 7 days. Hourly: that one day for pickup and return.
 */
export function quickSelectRange(kind: QuickSelect, mode: BookingMode, today: string): DateRange {
  const start =
    kind === 'today' ? today : kind === 'tomorrow' ? addDays(today, 1) : kind === 'weekend' ? comingSaturday(today) : addDays(today, 7);
  return quickRangeFrom(start, mode);
}

/** How far past its usual date a quick-select looks for a free one (This Weekend, Next Week). */
export const QUICK_SELECT_HORIZON_DAYS = 28;

/**
 * The start dates a quick-select may take, in order: its usual date, then, for This Weekend the
 * following Saturdays and for Next Week the following days, up to the horizon. Today and Tomorrow
 * name one day, so they have no other choice.
 */
function quickSelectStarts(kind: QuickSelect, today: string): string[] {
  const first = quickSelectRange(kind, 'daily', today).start_date;
  if (kind === 'today' || kind === 'tomorrow') return [first];
  const step = kind === 'weekend' ? 7 : 1;
  return Array.from({ length: Math.floor(QUICK_SELECT_HORIZON_DAYS / step) + 1 }, (_, i) => addDays(first, i * step));
}

export interface QuickSelectChoice {
  /** The dates the button sets; null when nothing of its kind is free (the button is disabled). */
  range: DateRange | null;
  /** The usual start date when it was held and a later free one was taken instead. */
  movedFrom: string | null;
  /** Why the button is disabled. */
  reason: string | null;
}

const NOTHING_FREE: Record<QuickSelect, string> = {
  today: 'Booked — today is taken',
  tomorrow: 'Booked — tomorrow is taken',
  weekend: `Booked — no free weekend in the next ${QUICK_SELECT_HORIZON_DAYS / 7 + 1} weeks`,
  nextWeek: `Booked — no free date in the ${QUICK_SELECT_HORIZON_DAYS / 7} weeks after next week`,
};

/**
 * What a quick-select button picks given the car's held dates (booked or pending): its usual
 * range when free, else the first free one of the same kind (the next free Saturday, the next
 * free day after +7), else nothing and the reason, so the renter never carries held dates to
 * Book Now.
 */
export function quickSelectChoice(
  kind: QuickSelect,
  mode: BookingMode,
  today: string,
  held: readonly CarAvailability[],
  bufferMinutes = 0,
  /** Why the car's trip rules refuse a range (utils/trip-rules.ts quickRangeRefusal), or null. */
  refuse?: (range: DateRange) => string | null,
): QuickSelectChoice {
  const starts = quickSelectStarts(kind, today);
  const spans = held.map(spanOfHold);
  let refusal: string | null = null;
  const free = starts.find((start) => {
    const range = quickRangeFrom(start, mode);
    if (!rangeIsFree(range, mode, spans, bufferMinutes)) return false;
    const why = refuse?.(range) ?? null;
    refusal ??= why;
    return why === null;
  });
  // Free dates the rules refuse are said by the rule ("This car needs 1 day's notice."), not as booked.
  if (!free) return { range: null, movedFrom: null, reason: refusal ?? NOTHING_FREE[kind] };
  return { range: quickRangeFrom(free, mode), movedFrom: free === starts[0] ? null : starts[0]!, reason: null };
}

/** 'partly': something holds part of the day (an hourly trip, a few blocked hours); it can be booked around it. */
export type DayState = 'available' | 'partly' | 'past' | 'booked' | 'pending' | 'before-start' | 'out-of-range' | 'refused';

/** The trip being chosen, for the return picker: the pickup and the times, so a return that would reach a hold is refused. */
export interface TripBeingChosen {
  startDate: string;
  startTime: string;
  endTime: string;
  isHourly: boolean;
  bufferMinutes: number;
}

export interface DayRules {
  today: string;
  /** What holds the car (holding bookings and blocks), from GET /car/{id}/availability. */
  availability: readonly CarAvailability[];
  /** Return picker: the trip so far; a return day whose trip would meet a hold is 'booked'. */
  trip?: TripBeingChosen;
  /** Return picker: days before the pickup date are disabled. */
  minDate?: string;
  /** Hourly return picker: only the pickup day and the next day. */
  maxDate?: string;
  /** The car's trip rules (decision 048, utils/trip-rules.ts): why a day may not be chosen ('refused'), or null. */
  refuse?: (date: string) => string | null;
}

/**
 * Why a day cannot be chosen, or 'available' ('partly' when something holds only part of it).
 * A day is taken when every minute of its opening hours (06:00 to 22:00) is held; booked
 * (confirmed, active, or blocked by the host) and pending are told apart. In the return picker, a
 * day whose trip (from the chosen pickup, at the chosen times, with the car's buffer) would meet a
 * hold is booked too: the server would refuse it.
 */
export function dayState(date: string, rules: DayRules): DayState {
  if (date < rules.today) return 'past';
  const day = daysSpan(date, date);
  const touching = rules.availability.filter((hold) => spansOverlap(spanOfHold(hold), day));
  const taken = (holds: readonly CarAvailability[]) => (holds.some((h) => h.status !== 'pending') ? 'booked' : 'pending');
  if (touching.length && dayFullyHeld(date, touching.map(spanOfHold))) return taken(touching);
  if (rules.minDate && date < rules.minDate) return 'before-start';
  if (rules.maxDate && date > rules.maxDate) return 'out-of-range';
  if (rules.refuse?.(date)) return 'refused';
  if (rules.trip) {
    const { startDate, startTime, endTime, isHourly, bufferMinutes } = rules.trip;
    const span = tripSpan({ start_date: startDate, end_date: date, start_time: startTime, end_time: endTime, is_hourly_booking: isHourly });
    if (span) {
      const wanted = heldSpan(span, bufferMinutes);
      const meets = rules.availability.filter((hold) => spansOverlap(spanOfHold(hold), wanted));
      if (meets.length) return taken(meets);
    }
  }
  return touching.length ? 'partly' : 'available';
}

/**
 * Whether a quick-select's dates can be booked: a daily trip at the default times (pickup 09:00,
 * return 17:00) with the car's buffer meets no hold; an hourly day has some free opening hours.
 */
export function rangeIsFree(range: DateRange, mode: BookingMode, holds: readonly Span[], bufferMinutes = 0): boolean {
  if (mode === 'hourly') return !dayFullyHeld(range.start_date, holds);
  const wanted = heldSpan(tripSpan({ ...range, is_hourly_booking: false })!, bufferMinutes);
  return !holds.some((hold) => spansOverlap(hold, wanted));
}

/**
 * The times of a day that cannot be chosen, given what holds the car: a pickup inside a hold, or
 * a return that would make the trip (with the car's buffer) meet one. Exactly the server's check.
 */
export function takenTimes(
  slots: readonly string[],
  which: 'pickup' | 'return',
  trip: { startDate: string; endDate: string; startTime: string; isHourly: boolean; bufferMinutes: number },
  availability: readonly CarAvailability[],
): Set<string> {
  const holds = availability.map(spanOfHold);
  const taken = new Set<string>();
  if (!trip.startDate) return taken;
  for (const time of slots) {
    if (which === 'pickup') {
      const at = momentOf(trip.startDate, time);
      if (holds.some((h) => h.from <= at && at < h.to)) taken.add(time);
    } else if (trip.endDate) {
      const span = tripSpan({ start_date: trip.startDate, end_date: trip.endDate, start_time: trip.startTime, end_time: time, is_hourly_booking: trip.isHourly });
      if (span && span.to > span.from && holds.some((h) => spansOverlap(h, heldSpan(span, trip.bufferMinutes)))) taken.add(time);
    }
  }
  return taken;
}

export interface CalendarDay {
  date: string;
  /** False for the leading and trailing days of the neighbouring months (shown muted). */
  inMonth: boolean;
}

/**
 * The weeks of a month (Sunday first), whole weeks: the first week starts with the last days of
 * the previous month and the last ends with the first days of the next, so a rental that crosses
 * a month's end is seen whole.
 */
export function monthGrid(month: string): CalendarDay[][] {
  const first = `${month}-01`;
  const length = daysBetween(first, `${shiftMonth(month, 1)}-01`);
  const lead = dayOfWeek(first);
  const total = Math.ceil((lead + length) / 7) * 7;
  const weeks: CalendarDay[][] = [];
  for (let i = 0; i < total; i++) {
    const date = addDays(first, i - lead);
    if (i % 7 === 0) weeks.push([]);
    weeks[weeks.length - 1]!.push({ date, inMonth: date.slice(0, 7) === month });
  }
  return weeks;
}

export function shiftMonth(month: string, by: number): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const index = y * 12 + (m - 1) + by;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
}

const utcDate = (date: string) => {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d));
};
const longFormat = lazily(() => new Intl.DateTimeFormat('en-ZA', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }));
const shortFormat = lazily(() => new Intl.DateTimeFormat('en-ZA', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' }));
const monthFormat = lazily(() => new Intl.DateTimeFormat('en-ZA', { month: 'long', year: 'numeric', timeZone: 'UTC' }));

/** "Saturday, 28 November 2026" (the calendar's day names). */
export function formatDayLong(date: string): string {
  return longFormat().format(utcDate(date));
}

/** "Sat, 28 Nov". */
export function formatDayShort(date: string): string {
  return shortFormat().format(utcDate(date));
}

export function formatMonth(month: string): string {
  return monthFormat().format(utcDate(`${month}-01`));
}
