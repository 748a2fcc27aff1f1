// The cancellation policy of a paid trip (issue 20; decision 037), computed once here and used by
// every screen that lets someone cancel (what each side will get back or pay, shown before they
// confirm) and by the server (what is refunded, charged and recorded). Integer cents throughout;
// fees round to whole rand, half up, like the price itself (pricing.ts).
//
// Anchor: Turo's published policy (2025), in rand:
// - The renter cancels free (a full refund) until 24 hours before the trip starts. A trip paid for
//   less than 25 hours before its start may also be cancelled free within 1 hour of payment.
// - Later, or a no-show (the host reports it once the start has passed): the renter pays a
//   cancellation fee: one day's average rental price for a trip of more than two days, half of one
//   day's for shorter ones, half the rental part of an hourly trip. Everything else (the service
//   fee, insurance, the pickup fee) is refunded. The host earns their share of the fee, after the
//   host fee at the rate the booking was taken at; the platform keeps the rest of it.
// - The host cancels: the renter gets everything back, and the host is charged a penalty (a
//   setting: R 250 more than 24 hours before the start, R 500 within), deducted from their payouts.
// - An administrator cancels (a dispute, a safety problem) and chooses the refund: everything, the
//   renter's policy as of now, or an amount with a reason; what is kept is a fee shared as above.
// - Consumer Protection Act s. 17(5): no fee is kept when the renter or a member of their immediate
//   family died or was admitted to hospital; the renter asks for it back with evidence after the
//   cancellation (CPA_WAIVER_POLICY, fee-waivers.ts, decision 067).
import { formatRand } from './pricing';
import { localInstant } from './zoned-date';
import { TIME_ZONE } from './constants';

const HOUR_MS = 60 * 60 * 1000;
/** Free cancellation ends this long before the start. */
export const FREE_CANCELLATION_HOURS = 24;
/** A trip paid for less than this long before its start... */
export const LATE_BOOKING_HOURS = 25;
/** ...may still be cancelled free for this long after payment. */
export const LATE_BOOKING_GRACE_HOURS = 1;

/** The policy's sentence on CPA s. 17 (the cancel screens show it beside the fee; decision 067). */
export const CPA_WAIVER_POLICY =
  'No cancellation fee is kept if you, or a member of your immediate family, died or were admitted to hospital (Consumer Protection Act, section 17): ask for the fee back on the cancelled trip with a death certificate or a hospital letter.';

export const CANCELLATION_ACTORS = ['renter', 'host', 'admin'] as const;
export type CancellationActor = (typeof CANCELLATION_ACTORS)[number];

/** What a paid booking stores that the policy reads. */
export interface PaidTrip {
  isHourly: boolean;
  /** 'YYYY-MM-DD' and 'HH:mm', Johannesburg time. */
  startDate: string;
  startTime: string;
  durationDays: number;
  /** Cents, as stored with the booking. */
  subtotalCents: number;
  totalCents: number;
  /** The host fee percent the booking was taken at (bookings.commission_rate). */
  hostFeeRate: number;
  paidAt: Date;
}

export interface HostPenaltySettings {
  /** Cents charged to a host who cancels more than 24 hours before the start. */
  hostPenaltyEarlyCents: number;
  /** Cents charged within 24 hours of the start (or after it). */
  hostPenaltyLateCents: number;
}

export const DEFAULT_HOST_PENALTIES: HostPenaltySettings = { hostPenaltyEarlyCents: 25_000, hostPenaltyLateCents: 50_000 };

/** An administrator's choice of refund. */
export type AdminRefund = { kind: 'full' } | { kind: 'policy' } | { kind: 'amount'; amountCents: number; reason: string };

export type CancellationRule =
  | 'renter_free'
  | 'renter_free_after_late_booking'
  | 'renter_late'
  | 'renter_no_show'
  | 'host'
  | 'admin_full'
  | 'admin_policy'
  | 'admin_amount';

export interface CancellationOutcome {
  rule: CancellationRule;
  /** Back to the renter's card. */
  refundCents: number;
  /** Kept from the renter: the cancellation fee (0 when free). */
  feeCents: number;
  /** The host's share of the fee (their earnings from this trip). */
  hostShareCents: number;
  /** The platform's share of the fee. */
  platformShareCents: number;
  /** Charged to the host (host cancellations), deducted from their payouts. */
  hostPenaltyCents: number;
  /** Until when the renter could cancel free (null once the trip has started). */
  freeUntil: Date;
  /** One plain sentence for the screen and the notices. */
  summary: string;
}

const roundToRand = (cents: number) => Math.round(cents / 100) * 100;

/** The instant the trip starts (pickup), Johannesburg time. */
export function tripStart(trip: Pick<PaidTrip, 'startDate' | 'startTime'>): Date {
  return localInstant(trip.startDate, trip.startTime);
}

/** Until when the renter cancels free: 24 hours before the start, or 1 hour after a late payment (never past the start). */
export function freeCancellationUntil(trip: Pick<PaidTrip, 'startDate' | 'startTime' | 'paidAt'>): Date {
  const start = tripStart(trip).getTime();
  const dayBefore = start - FREE_CANCELLATION_HOURS * HOUR_MS;
  const paid = trip.paidAt.getTime();
  const lateBooking = paid > start - LATE_BOOKING_HOURS * HOUR_MS;
  return new Date(lateBooking ? Math.max(dayBefore, Math.min(start, paid + LATE_BOOKING_GRACE_HOURS * HOUR_MS)) : dayBefore);
}

/** The late cancellation fee: a day's average rental (trips over 2 days), half of it (shorter), half the rental (hourly). */
export function lateCancellationFee(trip: Pick<PaidTrip, 'isHourly' | 'durationDays' | 'subtotalCents'>): number {
  if (trip.isHourly) return Math.min(trip.subtotalCents, roundToRand(trip.subtotalCents / 2));
  const days = Math.max(1, trip.durationDays);
  const day = trip.subtotalCents / days;
  return Math.min(trip.subtotalCents, roundToRand(days > 2 ? day : day / 2));
}

/** A fee kept from the renter, shared like a rental: the host's part after the host fee at the booking's rate. */
export function shareFee(feeCents: number, hostFeeRate: number): { hostShareCents: number; platformShareCents: number } {
  const hostShareCents = Math.min(feeCents, roundToRand((feeCents * (100 - hostFeeRate)) / 100));
  return { hostShareCents, platformShareCents: feeCents - hostShareCents };
}

const dayTime = (instant: Date) => {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', { timeZone: TIME_ZONE, weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
      .formatToParts(instant)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.weekday} ${parts.day} ${parts.month}, ${parts.hour}:${parts.minute}`;
};

/** "Fri 29 Jan, 10:00" (Johannesburg time): how the policy names a moment. */
export function formatPolicyMoment(instant: Date): string {
  return dayTime(instant);
}

/** The policy in plain words with the real dates, for the car page, checkout and the booking. */
export function describeCancellationPolicy(trip: Pick<PaidTrip, 'isHourly' | 'durationDays' | 'subtotalCents' | 'startDate' | 'startTime' | 'paidAt'>): string {
  const until = freeCancellationUntil(trip);
  const fee = formatRand(lateCancellationFee(trip) / 100);
  return `Free cancellation until ${formatPolicyMoment(until)}. After that, cancelling costs ${fee}; the rest is refunded.`;
}

export interface CancellationInput {
  trip: PaidTrip;
  actor: CancellationActor;
  now: Date;
  /** The host reports that the renter did not come (only once the start has passed). */
  noShow?: boolean;
  penalties?: HostPenaltySettings;
  adminRefund?: AdminRefund;
}

function renterOutcome(trip: PaidTrip, now: Date, noShow: boolean): Omit<CancellationOutcome, 'summary'> {
  const freeUntil = freeCancellationUntil(trip);
  const start = tripStart(trip);
  const zero = { hostShareCents: 0, platformShareCents: 0, hostPenaltyCents: 0, freeUntil };
  if (!noShow && now < freeUntil) {
    const insideLastDay = now.getTime() >= start.getTime() - FREE_CANCELLATION_HOURS * HOUR_MS;
    return { rule: insideLastDay ? 'renter_free_after_late_booking' : 'renter_free', refundCents: trip.totalCents, feeCents: 0, ...zero };
  }
  const feeCents = lateCancellationFee(trip);
  return { rule: noShow ? 'renter_no_show' : 'renter_late', refundCents: trip.totalCents - feeCents, feeCents, ...shareFee(feeCents, trip.hostFeeRate), hostPenaltyCents: 0, freeUntil };
}

/** Who gets what back or pays when a paid trip is cancelled: the one function the screens and the server call. */
export function cancellationOutcome(input: CancellationInput): CancellationOutcome {
  const { trip, actor, now } = input;
  const penalties = input.penalties ?? DEFAULT_HOST_PENALTIES;
  const start = tripStart(trip);
  let outcome: Omit<CancellationOutcome, 'summary'>;
  if (actor === 'renter') {
    outcome = renterOutcome(trip, now, !!input.noShow);
  } else if (actor === 'host') {
    if (input.noShow) {
      outcome = renterOutcome(trip, now, true);
    } else {
      const early = now.getTime() < start.getTime() - FREE_CANCELLATION_HOURS * HOUR_MS;
      outcome = {
        rule: 'host',
        refundCents: trip.totalCents,
        feeCents: 0,
        hostShareCents: 0,
        platformShareCents: 0,
        hostPenaltyCents: early ? penalties.hostPenaltyEarlyCents : penalties.hostPenaltyLateCents,
        freeUntil: freeCancellationUntil(trip),
      };
    }
  } else {
    const choice = input.adminRefund ?? { kind: 'full' };
    if (choice.kind === 'policy') {
      outcome = { ...renterOutcome(trip, now, false), rule: 'admin_policy' };
    } else {
      const refundCents = choice.kind === 'full' ? trip.totalCents : Math.max(0, Math.min(trip.totalCents, Math.round(choice.amountCents)));
      const feeCents = trip.totalCents - refundCents;
      outcome = {
        rule: choice.kind === 'full' ? 'admin_full' : 'admin_amount',
        refundCents,
        feeCents,
        ...shareFee(feeCents, trip.hostFeeRate),
        hostPenaltyCents: 0,
        freeUntil: freeCancellationUntil(trip),
      };
    }
  }
  return { ...outcome, summary: summarise(outcome) };
}

function summarise(o: Omit<CancellationOutcome, 'summary'>): string {
  const rand = (cents: number) => formatRand(cents / 100);
  const refund = `The renter gets ${rand(o.refundCents)} back`;
  if (o.hostPenaltyCents > 0) return `${refund} in full. The host is charged a ${rand(o.hostPenaltyCents)} cancellation penalty.`;
  if (o.feeCents === 0) return `${refund} in full.`;
  return `${refund} and pays a ${rand(o.feeCents)} cancellation fee, of which the host earns ${rand(o.hostShareCents)}.`;
}
