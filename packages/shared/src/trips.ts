// Trip records (issue 21; docs/decisions/042-trip-records.md): the car's condition when it changes
// hands (check-in at pickup, check-out at return) and the disputes a host opens over damage or a
// missing item. The windows in which each may be recorded live here once, so the booking card
// offers the button exactly when the server takes the record.
import { z } from './zod';
import { MAX_ODOMETER_KM } from './limits';
import { safeText } from './text';
import { localInstant } from './zoned-date';

export const TRIP_STAGES = ['check_in', 'check_out'] as const;
export type TripStage = (typeof TRIP_STAGES)[number];
export const TRIP_PARTIES = ['host', 'renter'] as const;
export type TripParty = (typeof TRIP_PARTIES)[number];
/** The four photos every record needs; more go in as 'extra'. */
export const REQUIRED_PHOTO_SLOTS = ['front', 'back', 'left', 'right'] as const;
export const PHOTO_SLOTS = [...REQUIRED_PHOTO_SLOTS, 'extra'] as const;
export type PhotoSlot = (typeof PHOTO_SLOTS)[number];
export const PHOTO_SLOT_LABELS: Record<PhotoSlot, string> = { front: 'Front', back: 'Back', left: 'Left side', right: 'Right side', extra: 'Extra photo' };
/** Photos in one record or dispute at most (the four sides and up to eight more). */
export const MAX_TRIP_PHOTOS = 12;
export const MAX_TRIP_NOTE = 1000;
/** Fuel or charge is read in eighths, as a fuel gauge shows it (an electric car's percent rounds to the nearest eighth). */
export const FUEL_EIGHTHS_MAX = 8;
export const DISPUTE_KINDS = ['damage', 'missing_item'] as const;
export type DisputeKind = (typeof DISPUTE_KINDS)[number];
export const DISPUTE_STATUSES = ['open', 'resolved'] as const;

const HOUR_MS = 3_600_000;
/** Check-in opens this long before the pickup; check-out this long before the scheduled return. */
export const TRIP_RECORD_LEAD_HOURS = 24;
/** Check-out stays open this long after the host processed the return (the renter may record later). */
export const CHECK_OUT_GRACE_HOURS = 24;
/** A host may flag damage or a missing item until this many days after the return. */
export const DISPUTE_DAYS_AFTER_RETURN = 14;

/** The parts of a booking the windows depend on. */
export interface TripWindowBooking {
  status: string;
  payment_status: string;
  start_date: string;
  start_time: string;
  end_date: string;
  end_time: string;
  /** When the car came back (the return moment, or when the booking was completed). */
  returned_at: Date | string | null;
}

/** Why a record of `stage` cannot be made now, or null when it can. */
export function tripRecordRefusal(stage: TripStage, booking: TripWindowBooking, now: Date): string | null {
  if (booking.payment_status !== 'paid') return 'Only a paid trip can be checked in or out.';
  const pickup = localInstant(booking.start_date, booking.start_time);
  const scheduledReturn = localInstant(booking.end_date, booking.end_time);
  if (stage === 'check_in') {
    if (booking.status !== 'active') return 'Check-in is only possible on a paid trip that has not ended.';
    if (now.getTime() < pickup.getTime() - TRIP_RECORD_LEAD_HOURS * HOUR_MS) return `Check-in opens ${TRIP_RECORD_LEAD_HOURS} hours before the pickup.`;
    if (now.getTime() > scheduledReturn.getTime()) return 'Check-in closed at the scheduled return; record a check-out instead.';
    return null;
  }
  const opens = Math.max(pickup.getTime(), scheduledReturn.getTime() - TRIP_RECORD_LEAD_HOURS * HOUR_MS);
  if (booking.status === 'active') return now.getTime() < opens ? `Check-out opens ${TRIP_RECORD_LEAD_HOURS} hours before the scheduled return.` : null;
  if (booking.status === 'completed' && booking.returned_at) {
    const closes = new Date(booking.returned_at).getTime() + CHECK_OUT_GRACE_HOURS * HOUR_MS;
    return now.getTime() <= closes ? null : `Check-out closed ${CHECK_OUT_GRACE_HOURS} hours after the return.`;
  }
  return 'Check-out is only possible around the return of a paid trip.';
}

/**
 * Why the host cannot open a dispute now, or null when they can. A dispute is about what happened
 * to the car on the trip, so it opens when the trip has started: a check-in is recorded (by either
 * party, up to 24 hours early) or the pickup moment has come; and it stays open until 14 days after
 * the return. A paid trip that has not started has nothing to flag yet.
 */
export function disputeRefusal(booking: TripWindowBooking, now: Date, hasCheckIn: boolean): string | null {
  if (booking.payment_status !== 'paid') return 'Damage can only be flagged on a paid trip.';
  if (booking.status === 'active') {
    const pickup = localInstant(booking.start_date, booking.start_time);
    return hasCheckIn || now.getTime() >= pickup.getTime() ? null : 'Damage can be flagged once the trip has started: at the pickup time or after a check-in.';
  }
  if (booking.status === 'completed' && booking.returned_at) {
    const closes = new Date(booking.returned_at).getTime() + DISPUTE_DAYS_AFTER_RETURN * 24 * HOUR_MS;
    return now.getTime() <= closes ? null : `Damage can be flagged until ${DISPUTE_DAYS_AFTER_RETURN} days after the return.`;
  }
  return 'Damage can only be flagged on a trip under way or returned.';
}

/** The text fields of a check-in or check-out (multipart; the photos are files photo_front, photo_back, photo_left, photo_right and photo_extra). */
export const tripRecordFieldsSchema = z.object({
  stage: z.enum(TRIP_STAGES, { error: 'Stage must be check_in or check_out' }),
  odometer_km: z.coerce
    .number({ error: 'Odometer must be a number of kilometres' })
    .int('Odometer must be whole kilometres')
    .min(0, 'Odometer cannot be negative')
    .max(MAX_ODOMETER_KM, `Odometer must be at most ${MAX_ODOMETER_KM} km`),
  fuel_eighths: z.coerce
    .number({ error: 'Fuel level must be a number of eighths' })
    .int('Fuel level must be whole eighths')
    .min(0, 'Fuel level cannot be below empty')
    .max(FUEL_EIGHTHS_MAX, 'Fuel level cannot be above full'),
  note: safeText('Note', { multiline: true }).max(MAX_TRIP_NOTE, `Note must be at most ${MAX_TRIP_NOTE} characters`).optional().default(''),
});
export type TripRecordFields = z.output<typeof tripRecordFieldsSchema>;

/** The text fields of a dispute (multipart; photos are files named photo). */
export const disputeFieldsSchema = z.object({
  kind: z.enum(DISPUTE_KINDS, { error: 'Kind must be damage or missing_item' }),
  description: safeText('Description', { multiline: true }).min(10, 'Describe the damage or missing item in at least 10 characters').max(MAX_TRIP_NOTE, `Description must be at most ${MAX_TRIP_NOTE} characters`),
});

export const resolveDisputeBodySchema = z.object({
  note: safeText('Note', { multiline: true }).min(3, 'Say how it was resolved').max(MAX_TRIP_NOTE, `Note must be at most ${MAX_TRIP_NOTE} characters`),
});

export const tripPhotoSchema = z.object({ id: z.string(), slot: z.enum(PHOTO_SLOTS), url: z.string() });
export type TripPhoto = z.infer<typeof tripPhotoSchema>;

export const tripRecordSchema = z.object({
  id: z.string(),
  booking_id: z.string(),
  stage: z.enum(TRIP_STAGES),
  party: z.enum(TRIP_PARTIES),
  author: z.object({ id: z.string(), username: z.string() }),
  odometer_km: z.number().int(),
  fuel_eighths: z.number().int(),
  note: z.string(),
  created_at: z.string(),
  photos: z.array(tripPhotoSchema),
});
export type TripRecord = z.infer<typeof tripRecordSchema>;

export const disputeSchema = z.object({
  id: z.string(),
  booking_id: z.string(),
  booking_number: z.string(),
  kind: z.enum(DISPUTE_KINDS),
  description: z.string(),
  status: z.enum(DISPUTE_STATUSES),
  opened_by: z.object({ id: z.string(), username: z.string() }),
  created_at: z.string(),
  resolved_at: z.string().nullable(),
  resolution_note: z.string().nullable(),
  photos: z.array(tripPhotoSchema),
});
export type Dispute = z.infer<typeof disputeSchema>;

/** Check-in against check-out: the host's Process Return dialog, and both sides' booking cards once both exist. */
export const tripComparisonSchema = z.object({
  check_in: tripRecordSchema.nullable(),
  check_out: tripRecordSchema.nullable(),
  /** Odometer at check-out less at check-in; null until both exist. */
  km_driven: z.number().int().nullable(),
  /** Fuel at check-out less at check-in, in eighths (negative: the tank came back lower). */
  fuel_change_eighths: z.number().int().nullable(),
});
export type TripComparison = z.infer<typeof tripComparisonSchema>;

/** A booking's trip records and disputes, with what the viewer may do now. */
export const bookingTripRecordsSchema = z.object({
  records: z.array(tripRecordSchema),
  disputes: z.array(disputeSchema),
  /** The viewer's part in the booking (null for an admin who is neither). */
  party: z.enum(TRIP_PARTIES).nullable(),
  can_check_in: z.boolean(),
  can_check_out: z.boolean(),
  can_flag: z.boolean(),
  /** compareTripRecords over the records: kilometres driven and the fuel change once both stages are recorded. */
  comparison: tripComparisonSchema,
});
export type BookingTripRecords = z.infer<typeof bookingTripRecordsSchema>;

/**
 * The record a comparison uses for a stage: the host's (the handover they sign off), or the
 * renter's when the host made none.
 */
export function recordForComparison(records: readonly TripRecord[], stage: TripStage): TripRecord | null {
  const ofStage = records.filter((r) => r.stage === stage);
  return ofStage.find((r) => r.party === 'host') ?? ofStage[0] ?? null;
}

/** Kilometres driven and the fuel change between two readings (null while one is missing). */
export function compareTripRecords(records: readonly TripRecord[]): TripComparison {
  const checkIn = recordForComparison(records, 'check_in');
  const checkOut = recordForComparison(records, 'check_out');
  return {
    check_in: checkIn,
    check_out: checkOut,
    km_driven: checkIn && checkOut ? checkOut.odometer_km - checkIn.odometer_km : null,
    fuel_change_eighths: checkIn && checkOut ? checkOut.fuel_eighths - checkIn.fuel_eighths : null,
  };
}

/** "6/8" (or "Full", "Empty") for a fuel reading. */
export function formatFuelEighths(eighths: number): string {
  if (eighths === FUEL_EIGHTHS_MAX) return 'Full';
  if (eighths === 0) return 'Empty';
  return `${eighths}/8`;
}
