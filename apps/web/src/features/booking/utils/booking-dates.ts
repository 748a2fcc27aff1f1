// Date helpers of the booking panel (document 2 sections 2 and 5): quick-select ranges, calendar
// months, which days are unavailable, and how the dates read on screen. Dates are 'YYYY-MM-DD'
// in Johannesburg; the arithmetic is on calendar dates only.
import { addDays, daysBetween, rangesOverlap, type CarAvailability, type DateRange } from '@karoo/shared';

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

/**
 * The dates a quick-select button sets. Daily: a one-day rental starting today, tomorrow, the
 * coming Saturday (to Sunday) or in 7 days. Hourly: that one day for pickup and return.
 */
export function quickSelectRange(kind: QuickSelect, mode: BookingMode, today: string): DateRange {
  const start =
    kind === 'today' ? today : kind === 'tomorrow' ? addDays(today, 1) : kind === 'weekend' ? comingSaturday(today) : addDays(today, 7);
  return { start_date: start, end_date: mode === 'hourly' ? start : addDays(start, 1) };
}

export type DayState = 'available' | 'past' | 'booked' | 'pending' | 'before-start' | 'out-of-range';

export interface DayRules {
  today: string;
  availability: readonly CarAvailability[];
  /** Return picker: days before the pickup date are disabled. */
  minDate?: string;
  /** Hourly return picker: only the pickup day and the next day. */
  maxDate?: string;
}

/** Why a day cannot be chosen, or 'available'. Booked (confirmed or active) and pending are told apart. */
export function dayState(date: string, rules: DayRules): DayState {
  if (date < rules.today) return 'past';
  const held = rules.availability.filter((range) => range.start_date <= date && date <= range.end_date);
  if (held.some((range) => range.status !== 'pending')) return 'booked';
  if (held.length) return 'pending';
  if (rules.minDate && date < rules.minDate) return 'before-start';
  if (rules.maxDate && date > rules.maxDate) return 'out-of-range';
  return 'available';
}

export function rangeIsFree(range: DateRange, availability: readonly CarAvailability[]): boolean {
  return !availability.some((held) => rangesOverlap(held, range));
}

/** The weeks of a month (Sunday first), with null for the days of the neighbouring months. */
export function monthGrid(month: string): (string | null)[][] {
  const first = `${month}-01`;
  const [y, m] = month.split('-').map(Number) as [number, number];
  const nextMonth = m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`;
  const length = daysBetween(first, nextMonth);
  const cells: (string | null)[] = Array.from({ length: dayOfWeek(first) }, () => null);
  for (let i = 0; i < length; i++) cells.push(addDays(first, i));
  while (cells.length % 7) cells.push(null);
  const weeks: (string | null)[][] = [];
  for (let i = 0; i < cells.length; i += 7) weeks.push(cells.slice(i, i + 7));
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
const longFormat = new Intl.DateTimeFormat('en-ZA', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
const shortFormat = new Intl.DateTimeFormat('en-ZA', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' });
const monthFormat = new Intl.DateTimeFormat('en-ZA', { month: 'long', year: 'numeric', timeZone: 'UTC' });

/** "Saturday, 28 November 2026" (the calendar's day names). */
export function formatDayLong(date: string): string {
  return longFormat.format(utcDate(date));
}

/** "Sat, 28 Nov". */
export function formatDayShort(date: string): string {
  return shortFormat.format(utcDate(date));
}

export function formatMonth(month: string): string {
  return monthFormat.format(utcDate(`${month}-01`));
}
