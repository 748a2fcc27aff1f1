// Changing a paid trip (issue 36; docs/decisions/081-trip-changes.md): the renter asks for new
// dates or times, before the trip or during it (then only its end moves); the host answers within
// 8 hours, or before the trip starts when that is sooner (during the trip, before it ends); an
// unanswered request lapses. This file is the one place that prices a change, for the dialog that
// shows it and for the server that records it:
// - the new price is the same calculatePrice() the booking used, at the booking's own daily rate,
//   insurance, pickup fee and fee rates (what the renter agreed to), with the car's discounts for the
//   new length (an extension past 7 days gains the weekly discount, a shortening below it loses it);
// - the difference is given in every part: rental, service fee, insurance, host share, platform;
// - time given up (a shorter or moved trip) is priced by the cancellation policy: free while the trip
//   could be cancelled free, else the policy keeps the late cancellation fee of the trip as booked,
//   never more than the rental of the time given up, shared as a cancellation fee is;
// - the renter pays the difference plus what is kept, or gets back the difference less it.
import { EARLIEST_TIME, isValidDate, isValidTime, LATEST_TIME, spansOverlap, tooLongFailure, tripSpan, type Span } from './booking-rules';
import { addDays, bookingLength } from './booking-rules';
import { formatPolicyMoment, freeCancellationUntil, lateCancellationFee, shareFee, tripStart } from './cancellation';
import { calculatePrice, formatRand } from './pricing';
import type { TripRules } from './trip-rules';
import { tripRuleMessages } from './trip-rules';

const HOUR_MS = 3_600_000;
/** The host's time to answer a change (Turo: 8 hours), cut short by the trip's start (or, during it, its end). */
export const CHANGE_ANSWER_HOURS = 8;

export const TRIP_CHANGE_STATUSES = ['pending', 'accepted', 'declined', 'lapsed', 'withdrawn', 'failed'] as const;
export type TripChangeStatus = (typeof TRIP_CHANGE_STATUSES)[number];

/** The dates and times of a trip (Johannesburg). */
export interface TripTimesOf {
  start_date: string;
  end_date: string;
  start_time: string;
  end_time: string;
}

/** What a paid booking stores that a change is priced from (cents, as stored). */
export interface ChangeableTrip extends TripTimesOf {
  is_hourly_booking: boolean;
  duration_days: number;
  duration_hours: number | null;
  subtotal_cents: number;
  discount_cents: number;
  service_fee_cents: number;
  insurance_fee_cents: number;
  pickup_fee_cents: number;
  total_price_cents: number;
  car_owner_earnings_cents: number;
  service_fee_rate: number;
  commission_rate: number;
  /** The cover's daily rate the renter took (cents), 0 without one. */
  insurance_daily_rate_cents: number;
  paid_at: Date;
}

/** The parts of a price a change moves, in cents. */
export interface ChangeParts {
  rental: number;
  discount: number;
  subtotal: number;
  serviceFee: number;
  insuranceFee: number;
  pickupFee: number;
  total: number;
  hostEarnings: number;
  /** Service fee, insurance and the host fee: what the platform keeps. */
  platform: number;
}

export interface TripChangeQuote {
  before: ChangeParts & { days: number; hours: number | null; discountRate: number };
  after: ChangeParts & { days: number; hours: number | null; discountRate: number };
  /** after − before, part by part. */
  difference: ChangeParts;
  /** Minutes of the booked time the new times no longer cover (a shorter or moved trip). */
  removedMinutes: number;
  /** What the cancellation policy keeps for the time given up (0 while free), and its shares. */
  keptCents: number;
  keptHostCents: number;
  keptPlatformCents: number;
  /** What the renter pays now (> 0) or gets back (< 0): the difference in total plus what is kept. */
  netCents: number;
  /** Until when time could be given up free (the trip's free cancellation). */
  freeUntil: Date;
  /** One plain sentence for the dialog, the request and the notices. */
  summary: string;
}

const roundToRand = (cents: number) => Math.round(cents / 100) * 100;
const rand = (cents: number) => formatRand(cents / 100);

/** The booking's own daily price in cents: its rental over its days, or ten times its hourly rate (pricing.ts). */
export function bookedDailyCents(trip: Pick<ChangeableTrip, 'is_hourly_booking' | 'subtotal_cents' | 'discount_cents' | 'duration_days' | 'duration_hours'>): number {
  const rental = trip.subtotal_cents + trip.discount_cents;
  if (trip.is_hourly_booking) return Math.round(rental / Math.max(1, trip.duration_hours ?? 1)) * 10;
  return Math.round(rental / Math.max(1, trip.duration_days));
}

function partsOf(price: ReturnType<typeof calculatePrice>): ChangeParts {
  const c = price.cents;
  return {
    rental: c.rental,
    discount: c.discount,
    subtotal: c.subtotal,
    serviceFee: c.serviceFee,
    insuranceFee: c.insuranceFee,
    pickupFee: c.pickupFee,
    total: c.total,
    hostEarnings: c.carOwnerEarnings,
    platform: c.total - c.carOwnerEarnings,
  };
}

function storedParts(t: ChangeableTrip): ChangeParts {
  return {
    rental: t.subtotal_cents + t.discount_cents,
    discount: t.discount_cents,
    subtotal: t.subtotal_cents,
    serviceFee: t.service_fee_cents,
    insuranceFee: t.insurance_fee_cents,
    pickupFee: t.pickup_fee_cents,
    total: t.total_price_cents,
    hostEarnings: t.car_owner_earnings_cents,
    platform: t.total_price_cents - t.car_owner_earnings_cents,
  };
}

const minus = (a: ChangeParts, b: ChangeParts): ChangeParts =>
  Object.fromEntries(Object.keys(a).map((k) => [k, a[k as keyof ChangeParts] - b[k as keyof ChangeParts]])) as unknown as ChangeParts;

/** The range a trip's times use (tripSpan, with the booking's times). */
export function spanOfTrip(t: TripTimesOf & { is_hourly_booking: boolean }): Span {
  return tripSpan(t)!;
}

const dayList = (start: string, days: number) => Array.from({ length: Math.max(1, days) }, (_, i) => addDays(start, i));

/** How much of the booked rental the new times give up: a share of it, and in minutes (a daily trip's days count whole). */
function removedShare(trip: ChangeableTrip, next: TripTimesOf): { fraction: number; minutes: number } {
  if (!trip.is_hourly_booking) {
    const kept = new Set(dayList(next.start_date, bookingLength({ ...next, is_hourly_booking: false }).duration_days));
    const removedDays = dayList(trip.start_date, trip.duration_days).filter((d) => !kept.has(d)).length;
    return { fraction: removedDays / Math.max(1, trip.duration_days), minutes: removedDays * 24 * 60 };
  }
  const old = spanOfTrip(trip);
  const wanted = spanOfTrip({ ...next, is_hourly_booking: true });
  const overlap = Math.max(0, Math.min(old.to, wanted.to) - Math.max(old.from, wanted.from));
  const removedMs = Math.max(0, old.to - old.from - overlap);
  return { fraction: removedMs / (old.to - old.from), minutes: Math.round(removedMs / 60_000) };
}

/** The new price of a trip at new times, the difference, and what the policy keeps of time given up. */
export function quoteTripChange(trip: ChangeableTrip, next: TripTimesOf, discounts: Pick<TripRules, 'weekly_discount_percent' | 'monthly_discount_percent'> | null, now: Date): TripChangeQuote {
  const length = bookingLength({ ...next, is_hourly_booking: trip.is_hourly_booking });
  const price = calculatePrice({
    dailyPrice: bookedDailyCents(trip) / 100,
    isHourly: trip.is_hourly_booking,
    days: length.duration_days,
    hours: length.duration_hours ?? 0,
    pickupFee: trip.pickup_fee_cents / 100,
    insuranceDailyRate: trip.insurance_daily_rate_cents / 100,
    settings: { platformCommission: trip.service_fee_rate, platform_fee: trip.commission_rate },
    discounts,
  });
  const before = { ...storedParts(trip), days: trip.duration_days, hours: trip.duration_hours, discountRate: trip.subtotal_cents > 0 ? Math.round((trip.discount_cents / (trip.subtotal_cents + trip.discount_cents)) * 100) : 0 };
  const after = { ...partsOf(price), days: length.duration_days, hours: length.duration_hours, discountRate: price.discountRate };
  const difference = minus(after, before);

  // Time given up: a daily trip's days (its rental is by the day) that the new dates no longer
  // cover; an hourly trip's minutes.
  const removed = removedShare(trip, next);
  const removedMinutes = removed.minutes;
  const paidTrip = { isHourly: trip.is_hourly_booking, startDate: trip.start_date, startTime: trip.start_time, durationDays: trip.duration_days, subtotalCents: trip.subtotal_cents, paidAt: trip.paid_at };
  const freeUntil = freeCancellationUntil(paidTrip);
  let keptCents = 0;
  if (removed.fraction > 0 && now.getTime() >= freeUntil.getTime()) {
    const removedRental = roundToRand(trip.subtotal_cents * removed.fraction);
    keptCents = Math.min(lateCancellationFee(paidTrip), removedRental);
  }
  const { hostShareCents, platformShareCents } = shareFee(keptCents, trip.commission_rate);
  const netCents = difference.total + keptCents;
  return {
    before,
    after,
    difference,
    removedMinutes,
    keptCents,
    keptHostCents: hostShareCents,
    keptPlatformCents: platformShareCents,
    netCents,
    freeUntil,
    summary: summarise(difference.total, keptCents, netCents, freeUntil),
  };
}

function summarise(differenceCents: number, keptCents: number, netCents: number, freeUntil: Date): string {
  const kept = keptCents > 0 ? ` The cancellation policy keeps ${rand(keptCents)} for the time given up (it was free until ${formatPolicyMoment(freeUntil)}).` : '';
  const price = differenceCents > 0 ? `The new trip costs ${rand(differenceCents)} more.` : differenceCents < 0 ? `The new trip costs ${rand(-differenceCents)} less.` : 'The new trip costs the same.';
  if (netCents > 0) return `${price}${kept} You pay ${rand(netCents)} when the host accepts.`;
  if (netCents < 0) return `${price}${kept} You get ${rand(-netCents)} back when the host accepts.`;
  return keptCents > 0 ? `The price stays the same.${kept}` : 'The price stays the same.';
}

/** When the host must answer by: 8 hours from the request, or the trip's start if sooner (during the trip, its end). */
export function changeAnswerDeadline(trip: TripTimesOf & { is_hourly_booking: boolean }, requestedAt: Date): Date {
  const span = spanOfTrip(trip);
  const limit = requestedAt.getTime() < span.from ? span.from : span.to;
  return new Date(Math.min(requestedAt.getTime() + CHANGE_ANSWER_HOURS * HOUR_MS, limit));
}

export type TripChangeRefusalCode = 'invalid' | 'unchanged' | 'started' | 'past' | 'rules' | 'unavailable';

export interface TripChangeRefusal {
  code: TripChangeRefusalCode;
  status: 400 | 409;
  message: string;
}

const refuse = (code: TripChangeRefusalCode, status: 400 | 409, message: string): TripChangeRefusal => ({ code, status, message });

export interface TripChangeCheck {
  trip: TripTimesOf & { is_hourly_booking: boolean };
  next: TripTimesOf;
  rules: Pick<TripRules, 'min_days' | 'max_days' | 'min_hours' | 'max_hours'>;
  maxRentalDays: number;
  /** What else holds the car (other bookings with their buffers, blocks), as ranges. */
  otherHolds: readonly Span[];
  bufferMinutes: number;
  now: Date;
}

/** Why these new times cannot be asked for, or null: the server's check, which the dialog mirrors. */
export function tripChangeRefusal({ trip, next, rules, maxRentalDays, otherHolds, bufferMinutes, now }: TripChangeCheck): TripChangeRefusal | null {
  if (![next.start_date, next.end_date].every(isValidDate) || ![next.start_time, next.end_time].every(isValidTime)) {
    return refuse('invalid', 400, 'Give the new dates as YYYY-MM-DD and the times as HH:mm.');
  }
  for (const time of [next.start_time, next.end_time]) {
    if (time < EARLIEST_TIME || time > LATEST_TIME) return refuse('invalid', 400, `Pickup and return times must be between ${EARLIEST_TIME} and ${LATEST_TIME}.`);
  }
  if (trip.is_hourly_booking && next.end_date !== next.start_date) return refuse('invalid', 400, 'An hourly trip starts and ends on the same day; for more, book the car by the day.');
  const wanted = spanOfTrip({ ...next, is_hourly_booking: trip.is_hourly_booking });
  const old = spanOfTrip(trip);
  if (next.end_date < next.start_date || (trip.is_hourly_booking && wanted.to <= wanted.from)) return refuse('invalid', 400, 'The return must be after the pickup.');
  if (next.start_date === trip.start_date && next.end_date === trip.end_date && next.start_time === trip.start_time && next.end_time === trip.end_time) {
    return refuse('unchanged', 400, 'These are the trip\'s dates and times already: choose new ones.');
  }
  const started = now.getTime() >= old.from;
  if (started && (next.start_date !== trip.start_date || next.start_time !== trip.start_time)) {
    return refuse('started', 409, 'The trip has started: only its return can change.');
  }
  if (!started && wanted.from <= now.getTime()) return refuse('past', 409, 'The new pickup has already passed: choose a later one.');
  if (wanted.to <= now.getTime()) return refuse('past', 409, 'The new return has already passed: choose a later one.');
  const length = bookingLength({ ...next, is_hourly_booking: trip.is_hourly_booking });
  if (trip.is_hourly_booking) {
    const hours = length.duration_hours ?? 0;
    if (hours < rules.min_hours) return refuse('rules', 409, tripRuleMessages.minimumHours(rules.min_hours).message);
    if (hours > rules.max_hours) return refuse('rules', 409, tripRuleMessages.maximumHours(rules.max_hours).message);
  } else {
    if (length.duration_days < rules.min_days) return refuse('rules', 409, tripRuleMessages.minimumDays(rules.min_days).message);
    if (rules.max_days !== null && length.duration_days > rules.max_days) return refuse('rules', 409, tripRuleMessages.maximumDays(rules.max_days).message);
    if (length.duration_days > maxRentalDays) return refuse('rules', 409, tooLongFailure(maxRentalDays).message);
  }
  const held = { from: wanted.from, to: wanted.to + bufferMinutes * 60_000 };
  if (otherHolds.some((h) => spansOverlap(h, held))) {
    return refuse('unavailable', 409, 'The car is booked or blocked for part of the new times: choose other dates or times.');
  }
  return null;
}

/** "Sat 5 Dec, 10:00 → Mon 7 Dec, 17:00": a trip's times as the change names them. */
export function describeTripTimes(t: TripTimesOf): string {
  return `${formatPolicyMoment(new Date(tripStartOf(t)))} → ${formatPolicyMoment(new Date(tripEndOf(t)))}`;
}

const tripStartOf = (t: TripTimesOf) => tripStart({ startDate: t.start_date, startTime: t.start_time }).getTime();
const tripEndOf = (t: TripTimesOf) => tripStart({ startDate: t.end_date, startTime: t.end_time }).getTime();

/** The status in the words the cards show. */
export const TRIP_CHANGE_STATUS_LABELS: Record<TripChangeStatus, string> = {
  pending: 'Waiting for the host',
  accepted: 'Accepted',
  declined: 'Declined by the host',
  lapsed: 'Lapsed: the host did not answer in time',
  withdrawn: 'Withdrawn',
  failed: 'Not made',
};
