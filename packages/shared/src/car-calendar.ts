// The host's calendar (issue 23, decision 047): blocked periods, the buffer between trips, and what
// the host sees of a car's month. Blocks are whole days (no times) or hours (both times); a block
// and a holding booking never share a minute (one exclusion constraint, migration 0028).
import { z } from './zod';
import { addDays, DATE_PATTERN, isValidDate, isValidTime, momentOf, TIME_PATTERN } from './booking-rules';
import { safeText } from './text';
import { BLOCK_MAX_DAYS_AHEAD, BLOCK_NOTE_MAX, MAX_BUFFER_MINUTES } from './time-ranges';

const optionalTime = (label: string) =>
  z.preprocess((v) => (v === '' ? null : v), z.string().regex(TIME_PATTERN, `${label} must be HH:mm`).nullable().optional());

export const createBlockBodySchema = z
  .object({
    start_date: z.string().regex(DATE_PATTERN, 'start_date must be YYYY-MM-DD').refine(isValidDate, 'start_date is not a real date'),
    end_date: z.string().regex(DATE_PATTERN, 'end_date must be YYYY-MM-DD').refine(isValidDate, 'end_date is not a real date'),
    /** Both times block those hours; neither blocks the whole days from start_date to end_date. */
    start_time: optionalTime('start_time'),
    end_time: optionalTime('end_time'),
    /** Private: only the host (and admins) ever see it. */
    note: z.preprocess(
      (v) => (typeof v === 'string' && v.trim() === '' ? null : v),
      safeText('Note').max(BLOCK_NOTE_MAX, `Note must be at most ${BLOCK_NOTE_MAX} characters`).nullable().optional(),
    ),
  })
  .refine((b) => !b.start_time === !b.end_time, { message: 'Give both a start and an end time, or neither to block whole days', path: ['end_time'] });
export type CreateBlockBody = z.infer<typeof createBlockBodySchema>;

/** The instants a block asks for: whole days [start 00:00, end + 1 00:00), or [start date+time, end date+time). */
export function blockSpan(body: Pick<CreateBlockBody, 'start_date' | 'end_date' | 'start_time' | 'end_time'>): { from: number; to: number } {
  if (body.start_time && body.end_time && isValidTime(body.start_time) && isValidTime(body.end_time)) {
    return { from: momentOf(body.start_date, body.start_time), to: momentOf(body.end_date, body.end_time) };
  }
  return { from: momentOf(body.start_date, '00:00'), to: momentOf(addDays(body.end_date, 1), '00:00') };
}

export const BLOCK_MESSAGES = {
  endNotAfterStart: 'The end of a block must be after its start.',
  past: 'That time has already passed: block today or later.',
  tooFar: `Blocks can reach at most ${BLOCK_MAX_DAYS_AHEAD} days ahead.`,
  overTrip: 'The car has a trip or a request at that time, so it cannot be blocked. Reject or cancel the trip first, or block around it.',
  overBlock: 'Part of that time is already blocked.',
  taken: 'That time was just taken by a trip or another block. Look at the calendar again.',
  notFound: 'Block not found',
} as const;

export const updateBufferBodySchema = z.object({
  buffer_minutes: z
    .number({ error: 'buffer_minutes must be a whole number of minutes' })
    .int('buffer_minutes must be a whole number of minutes')
    .min(0, 'buffer_minutes cannot be negative')
    .max(MAX_BUFFER_MINUTES, `buffer_minutes can be at most ${MAX_BUFFER_MINUTES} (a day)`),
});

export const carCalendarQuerySchema = z
  .object({
    from: z.string().regex(DATE_PATTERN, 'from must be YYYY-MM-DD').refine(isValidDate, 'from is not a real date').optional(),
    to: z.string().regex(DATE_PATTERN, 'to must be YYYY-MM-DD').refine(isValidDate, 'to is not a real date').optional(),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: 'from must be on or before to', path: ['from'] });

/** One thing on the host's calendar: a holding booking (with what the host knows of it) or a block (with its note). */
export const calendarHoldSchema = z.object({
  id: z.string(),
  kind: z.enum(['booking', 'block']),
  status: z.enum(['pending', 'confirmed', 'active', 'blocked']),
  /** What it holds, [from, to): a booking's buffer included. */
  from: z.string(),
  to: z.string(),
  /** The Johannesburg days that range touches. */
  start_date: z.string(),
  end_date: z.string(),
  /** Whole days (a block of days, 00:00 to 00:00) rather than hours. */
  all_day: z.boolean(),
  note: z.string().nullable(),
  booking: z
    .object({
      id: z.string(),
      booking_number: z.string(),
      renter_name: z.string(),
      start_date: z.string(),
      end_date: z.string(),
      start_time: z.string(),
      end_time: z.string(),
      is_hourly_booking: z.boolean(),
      buffer_minutes: z.number().int(),
    })
    .nullable(),
});
export type CalendarHold = z.infer<typeof calendarHoldSchema>;

export const carCalendarSchema = z.object({
  car_username: z.string(),
  buffer_minutes: z.number().int(),
  holds: z.array(calendarHoldSchema),
});
export type CarCalendar = z.infer<typeof carCalendarSchema>;

/** "2 hours", "30 minutes", "1 day", "No buffer". */
export function formatBuffer(minutes: number): string {
  if (minutes <= 0) return 'No buffer';
  if (minutes % 1440 === 0) return `${minutes / 1440} ${minutes === 1440 ? 'day' : 'days'}`;
  if (minutes % 60 === 0) return `${minutes / 60} ${minutes === 60 ? 'hour' : 'hours'}`;
  if (minutes > 60) return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
  return `${minutes} minutes`;
}
