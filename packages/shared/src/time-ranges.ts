// Time, not days (issue 23, decision 047): what a booking or a blocked period holds of a car, as a
// half-open range of instants [from, to). Dates and times are Johannesburg's (UTC+2 all year, so
// a fixed offset); an instant is a number of milliseconds. The database computes a booking's range
// with the same rule (booking_held_range, migration 0028): this copy lets the web show what the
// server will accept, and the API tests hold the two to the same answers.
import { daysSpan, EARLIEST_TIME, LATEST_TIME, momentOf, spansOverlap, type Span } from './booking-rules';

/** Buffer between trips a host may set, in minutes (0 to a day). */
export const MAX_BUFFER_MINUTES = 24 * 60;
export const BUFFER_MINUTE_CHOICES = [0, 30, 60, 120, 180, 240, 360, 720, 1440] as const;
/** A block's private note, at most. */
export const BLOCK_NOTE_MAX = 500;
/** How far ahead a block may reach (days from today). */
export const BLOCK_MAX_DAYS_AHEAD = 730;

/** A hold as the API answers it: instants as ISO strings. */
export interface HoldTimes {
  from: string;
  to: string;
}

export const spanOfHold = (hold: HoldTimes): Span => ({ from: Date.parse(hold.from), to: Date.parse(hold.to) });

/**
 * Whether a day cannot be picked at all: every minute of its opening hours (06:00 to 22:00, when a
 * pickup or a return may be) is held. A day held only in part (an hourly trip in the morning) can
 * still be booked around what holds it.
 */
export function dayFullyHeld(date: string, holds: readonly Span[]): boolean {
  let cursor = momentOf(date, EARLIEST_TIME);
  const close = momentOf(date, LATEST_TIME);
  const sorted = holds.filter((h) => h.to > cursor && h.from < close).sort((a, b) => a.from - b.from);
  for (const h of sorted) {
    if (h.from > cursor) return false;
    cursor = Math.max(cursor, h.to);
    if (cursor >= close) return true;
  }
  return cursor >= close;
}

/** Whether any minute of a day (00:00 to 24:00) is held. */
export function dayPartlyHeld(date: string, holds: readonly Span[]): boolean {
  const day = daysSpan(date, date);
  return holds.some((h) => spansOverlap(h, day));
}
