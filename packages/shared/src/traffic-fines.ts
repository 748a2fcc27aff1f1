// Traffic fines under AARTO (issue 34; docs/decisions/066-traffic-fines-aarto.md): the rules both
// the API and the screens read. A fine goes to the car's owner, who may nominate the driver (form
// AARTO 07) within 32 days of the service of the infringement notice (AARTO 03); the nomination is
// signed by the owner and carries the driver's full name, ID number, licence number and address.
import { addDays, TIME_PATTERN } from './booking-rules';
import { calendarDate } from './calendar-date';
import { safeText } from './text';
import { z } from './zod';
import { midnightAfter } from './zoned-date';

/** Days from the notice's service in which the owner may nominate the driver (AARTO Act s. 17(2)). */
export const NOMINATION_DAYS = 32;
/** Days before the deadline when the host is reminded of a fine still open. */
export const FINE_REMINDER_DAYS = 7;

export const FINE_STATUSES = ['open', 'nominated', 'paid_by_renter', 'paid_by_host', 'disputed', 'withdrawn'] as const;
export type FineStatus = (typeof FINE_STATUSES)[number];

export const FINE_STATUS_LABELS: Record<FineStatus, string> = {
  open: 'Open: nominate the driver',
  nominated: 'Driver nominated',
  paid_by_renter: 'Paid by the renter',
  paid_by_host: 'Paid by the host',
  disputed: 'Disputed by the renter',
  withdrawn: 'Withdrawn',
};

/** Who may move a fine to which state: the host (or an admin) for the nomination, payment and withdrawal; the renter to say they paid or to dispute. */
export const FINE_TRANSITIONS: Record<FineStatus, readonly FineStatus[]> = {
  open: ['nominated', 'paid_by_renter', 'paid_by_host', 'disputed', 'withdrawn'],
  nominated: ['paid_by_renter', 'disputed', 'withdrawn'],
  disputed: ['nominated', 'paid_by_renter', 'paid_by_host', 'withdrawn'],
  paid_by_renter: [],
  paid_by_host: [],
  withdrawn: [],
};
export const RENTER_FINE_STATUSES: readonly FineStatus[] = ['paid_by_renter', 'disputed'];

/** The last day to nominate: 32 days after the notice was served (a Johannesburg date). */
export function nominationDeadline(servedOn: string): string {
  return addDays(servedOn, NOMINATION_DAYS);
}

/** The moment the nomination is late: the end of its last day in Johannesburg. */
export function nominationDeadlineAt(servedOn: string): Date {
  return midnightAfter(nominationDeadline(servedOn));
}

/** Whole days left to nominate (0 on the last day, negative once it has passed). */
export function daysToNominate(servedOn: string, today: string): number {
  const deadline = nominationDeadline(servedOn);
  return Math.round((Date.parse(`${deadline}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / 86_400_000);
}

/** Plates compared as the registers print them: letters and digits only, upper case. */
export function normalisePlate(plate: string): string {
  return plate.toUpperCase().replace(/[^A-Z0-9]/g, '');
}

export const MAX_FINE_CENTS = 10_000_000;

/** The host's entry of a fine (multipart field `fine` as JSON, or a JSON body); the notice is the file `notice`. */
export const createFineBodySchema = z.object({
  plate: safeText('Plate').min(2, 'Give the plate as the notice shows it').max(20),
  date: calendarDate('Date of the infringement'),
  time: safeText('Time of the infringement').regex(TIME_PATTERN, 'Time of the infringement must be a time (HH:mm)'),
  place: safeText('Place').min(2, 'Say where the infringement happened').max(200),
  amount: z.number({ error: 'Amount must be a number of rand' }).positive('Amount must be more than R 0').max(MAX_FINE_CENTS / 100),
  notice_number: safeText('Notice number').min(3, 'Give the notice number').max(40),
  served_on: calendarDate('Date the notice was served'),
});
export type CreateFineBody = z.output<typeof createFineBodySchema>;

export const updateFineStatusBodySchema = z.object({
  status: z.enum(FINE_STATUSES, { error: `Status must be one of ${FINE_STATUSES.join(', ')}` }),
  note: safeText('Note', { multiline: true }).max(1000).optional().default(''),
});
export type UpdateFineStatusBody = z.output<typeof updateFineStatusBodySchema>;

/** The trip a fine is matched to, or the nearest ones when none covers its moment. */
export const fineTripSchema = z.object({ booking_id: z.string(), booking_number: z.string(), from: z.string(), to: z.string() });

export const fineSchema = z.object({
  id: z.string(),
  car: z.object({ id: z.string(), name: z.string(), plate: z.string() }),
  plate: z.string(),
  occurred_at: z.string(),
  place: z.string(),
  amount: z.number(),
  notice_number: z.string(),
  served_on: z.string(),
  nominate_by: z.string(),
  days_left: z.number(),
  status: z.enum(FINE_STATUSES),
  status_label: z.string(),
  status_note: z.string().nullable(),
  trip: fineTripSchema.nullable(),
  nearest: z.object({ before: fineTripSchema.nullable(), after: fineTripSchema.nullable() }),
  /** The host's nomination PDF, for a fine inside a trip (the host and admins only). */
  nomination_url: z.string().nullable(),
  notice_url: z.string(),
  created_at: z.string(),
});
export type TrafficFine = z.infer<typeof fineSchema>;
