// A paid trip's cancellation on screen (issue 20; decision 037). Every dialog that lets someone
// cancel computes what each side gets back or pays with the shared cancellationOutcome(), the
// function the server calls when the trip is cancelled, from the booking as the API answers it. The
// server's quote (GET /booking/{id}/cancellation) says whether this viewer may cancel now and which
// host penalties are in force, and confirms the amounts: where the two ever disagree (a clock
// apart at the end of the free window), the server's figures are shown, since they are what applies.
import {
  cancellationOutcome,
  describeCancellationPolicy,
  freeCancellationUntil,
  tripStart,
  type AdminRefund,
  type Booking,
  type CancellationActor,
  type CancellationOutcome,
  type CancellationQuote,
  type HostPenaltySettings,
  type PaidTrip,
} from '@karoo/shared';
import { useEffect, useState } from 'react';
import { policyTripOf } from './cancellation-policy';
import { useCancellationQuote, type CancellationQuoteParams } from './queries/cancellation';

const cents = (rand: number) => Math.round(rand * 100);

/** The policy's view of a paid booking, from the API's answer (rand back to the stored cents). */
export function paidTripOf(booking: Booking): PaidTrip {
  return {
    ...policyTripOf(booking),
    totalCents: cents(booking.total_price),
    hostFeeRate: booking.commission_rate,
    // As the server reads it: a booking paid before payment times were kept counts from its creation.
    paidAt: new Date(booking.paid_at ?? booking.created_at),
  };
}

/** True once the trip's pickup time has passed (Johannesburg): a host may then report a no-show. */
export function hasTripStarted(booking: Pick<Booking, 'start_date' | 'start_time'>, now: Date = new Date()): boolean {
  return now.getTime() >= tripStart({ startDate: booking.start_date, startTime: booking.start_time }).getTime();
}

/** The host penalties the quote says are in force, in cents. */
export function penaltiesOf(quote: Pick<CancellationQuote, 'penalties'>): HostPenaltySettings {
  return { hostPenaltyEarlyCents: cents(quote.penalties.early), hostPenaltyLateCents: cents(quote.penalties.late) };
}

/** The amounts a screen shows (cents): who gets what back, keeps, earns or is charged. */
export type CancellationFigures = Pick<CancellationOutcome, 'refundCents' | 'feeCents' | 'hostShareCents' | 'platformShareCents' | 'hostPenaltyCents'>;

export function figuresOfQuote(quote: CancellationQuote): CancellationFigures {
  return {
    refundCents: cents(quote.refund),
    feeCents: cents(quote.fee),
    hostShareCents: cents(quote.host_share),
    platformShareCents: cents(quote.platform_share),
    hostPenaltyCents: cents(quote.host_penalty),
  };
}

export function sameFigures(a: CancellationFigures, b: CancellationFigures): boolean {
  return (
    a.refundCents === b.refundCents &&
    a.feeCents === b.feeCents &&
    a.hostShareCents === b.hostShareCents &&
    a.platformShareCents === b.platformShareCents &&
    a.hostPenaltyCents === b.hostPenaltyCents
  );
}

/** The current time, renewed every `everyMs` while `active`: figures change as the free window ends. */
export function useNow(everyMs: number, active = true): [Date, () => Date] {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    if (!active) return;
    setNow(new Date());
    const timer = window.setInterval(() => setNow(new Date()), everyMs);
    return () => window.clearInterval(timer);
  }, [everyMs, active]);
  const refresh = () => {
    const fresh = new Date();
    setNow(fresh);
    return fresh;
  };
  return [now, refresh];
}

export interface CancellationPreviewInput {
  booking: Booking;
  /** The part the dialog cancels as. */
  actor: CancellationActor;
  noShow?: boolean;
  adminRefund?: AdminRefund;
  /** The refund choice to ask the server about, when it lags the one on screen (typing an amount). */
  quotedRefund?: AdminRefund;
  /** The dialog is open: only then is the quote asked for and the clock running. */
  open: boolean;
}

export interface CancellationPreview {
  /** The server's answer; undefined while it loads. */
  quote: CancellationQuote | undefined;
  isLoading: boolean;
  loadError: unknown;
  /** Why this viewer cannot cancel now (the server's words), or null. */
  blocked: string | null;
  /** What is shown: the shared function's amounts, or the server's where they disagree. */
  figures: CancellationFigures | null;
  /** The server's quote for these same choices disagrees with the screen's computation. */
  differs: boolean;
  policy: string;
  freeUntil: Date;
  start: Date;
  now: Date;
  /**
   * Computes the amounts again at this instant: false (and the figures on screen renewed) when they
   * changed since the person read them, so nobody confirms amounts they did not see.
   */
  stillShown: () => boolean;
}

const SAME_PART: Record<CancellationActor, string> = {
  renter: 'You are the renter of this trip: cancel it from My Bookings.',
  host: 'You are the host of this trip: cancel it from My Bookings.',
  admin: 'Only an administrator can cancel this trip here.',
};

function quoteParamsOf(noShow: boolean | undefined, choice: AdminRefund | undefined): CancellationQuoteParams {
  if (noShow) return { no_show: 'true' };
  if (!choice) return {};
  if (choice.kind === 'amount') return { refund: 'amount', refund_amount: choice.amountCents / 100 };
  return { refund: choice.kind };
}

export function useCancellationPreview(input: CancellationPreviewInput): CancellationPreview {
  const { booking, actor, noShow, adminRefund, open } = input;
  const [now, refreshNow] = useNow(15_000, open);
  const shownParams = quoteParamsOf(noShow, adminRefund);
  const quotedParams = quoteParamsOf(noShow, input.quotedRefund ?? adminRefund);
  const quoteQuery = useCancellationQuote(booking.id, quotedParams, open);
  const quote = quoteQuery.data;
  const trip = paidTripOf(booking);
  const compute = (at: Date) =>
    quote ? cancellationOutcome({ trip, actor, now: at, noShow: !!noShow, penalties: penaltiesOf(quote), ...(adminRefund ? { adminRefund } : {}) }) : null;
  const local = compute(now);
  // The quote confirms the choices on screen only: not a placeholder (the previous choice's), not
  // while the choice on screen is newer than the one asked about.
  const current = JSON.stringify(shownParams) === JSON.stringify(quotedParams);
  const confirmed = quote && current && !quoteQuery.isPlaceholderData ? figuresOfQuote(quote) : null;
  const differs = !!(local && confirmed && !sameFigures(local, confirmed));
  const figures = differs ? confirmed : local;
  const blocked = quote ? (quote.actor !== actor ? SAME_PART[quote.actor] : quote.blocked_reason) : null;

  return {
    quote,
    isLoading: quoteQuery.isPending,
    loadError: quoteQuery.error,
    blocked,
    figures,
    differs,
    policy: describeCancellationPolicy(trip),
    freeUntil: freeCancellationUntil(trip),
    start: tripStart(trip),
    now,
    stillShown: () => {
      const fresh = compute(refreshNow());
      // The server's figures on screen are what it applies: nothing newer to compare them with here.
      if (differs) return true;
      return !!fresh && !!figures && sameFigures(fresh, figures);
    },
  };
}
