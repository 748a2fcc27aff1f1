// One rule for a calendar date in a request (issue 18; docs/decisions/012-hostile-input.md, issue 18
// addendum): 'YYYY-MM-DD', a day that exists (no 30 February), between EARLIEST_CALENDAR_DATE and
// LATEST_CALENDAR_DATE, given once. Every route that takes a date, in a query, a path or a body,
// builds it from here, so a 400 names the parameter and no impossible or far-off date reaches the
// date arithmetic or the database.
import { z } from './zod';
import { DATE_PATTERN, isValidDate } from './booking-rules';
import { EARLIEST_CALENDAR_DATE, LATEST_CALENDAR_DATE } from './limits';
import { safeText } from './text';

/** True for a real 'YYYY-MM-DD' day inside the range requests may name. */
export function isCalendarDateInRange(value: string | null | undefined): value is string {
  return isValidDate(value) && value >= EARLIEST_CALENDAR_DATE && value <= LATEST_CALENDAR_DATE;
}

/**
 * A required date. `label` is what the messages name: the parameter itself for a query
 * ("to must be a real date (YYYY-MM-DD)"), a form's words for a body field ("Start date ...").
 */
export function calendarDate(label: string) {
  const notADate = `${label} must be a date (YYYY-MM-DD)`;
  return safeText(label, { error: (issue) => (issue.input === undefined ? `${label} is required` : notADate) })
    .regex(DATE_PATTERN, notADate)
    .refine((v) => isValidDate(v), `${label} must be a real date (YYYY-MM-DD)`)
    .refine((v) => v >= EARLIEST_CALENDAR_DATE && v <= LATEST_CALENDAR_DATE, `${label} must be between ${EARLIEST_CALENDAR_DATE} and ${LATEST_CALENDAR_DATE}`);
}

/** An optional date in a query string: absent or empty (`?to=`) means not given. */
export function optionalCalendarDate(label: string) {
  return z.preprocess((v) => (v === '' ? undefined : v), calendarDate(label).optional());
}

/** `?from=YYYY-MM-DD&to=YYYY-MM-DD`, both optional, `from` on or before `to`. */
export const dateRangeQuerySchema = z
  .object({ from: optionalCalendarDate('from'), to: optionalCalendarDate('to') })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: 'from must be on or before to', path: ['from'] });
export type DateRangeQuery = z.infer<typeof dateRangeQuerySchema>;

/** An ISO 8601 moment as `Date.prototype.toISOString` and browsers write it, with an offset. */
const TIMESTAMP = /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,6})?)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/;

/** A day ('YYYY-MM-DD') or a moment ('2030-03-10T08:00:00.000Z') inside the calendar range. */
export function calendarDateOrTimestamp(label: string) {
  const message = `${label} must be a date (YYYY-MM-DD) or a time (YYYY-MM-DDTHH:mm:ssZ)`;
  return safeText(label, { error: message })
    .max(40, message)
    .refine((v) => isCalendarDateInRange(v) || (isCalendarDateInRange(TIMESTAMP.exec(v)?.[1]) && !Number.isNaN(Date.parse(v))), message);
}
