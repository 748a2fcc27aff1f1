// The server's cancellation quote for a booking, as GET /api/booking/{id}/cancellation answers it:
// built here with the shared cancellationOutcome(), exactly as the server builds it, so a test can
// make the screen and the "server" agree (or, on purpose, disagree).
import {
  cancellationOutcome,
  describeCancellationPolicy,
  freeCancellationUntil,
  tripStart,
  type AdminRefund,
  type Booking,
  type CancellationActor,
  type CancellationQuote,
  type HostPenaltySettings,
} from '@karoo/shared';
import { paidTripOf } from '@/lib/cancellation';

export interface QuoteOptions {
  now: Date;
  noShow?: boolean;
  adminRefund?: AdminRefund;
  /** Rand, as the settings hold them. */
  penalties?: { early: number; late: number };
  blocked?: string;
}

export function quoteFor(booking: Booking, actor: CancellationActor, options: QuoteOptions): CancellationQuote {
  const trip = paidTripOf(booking);
  const penalties = options.penalties ?? { early: 250, late: 500 };
  const settings: HostPenaltySettings = { hostPenaltyEarlyCents: penalties.early * 100, hostPenaltyLateCents: penalties.late * 100 };
  const o = cancellationOutcome({ trip, actor, now: options.now, noShow: !!options.noShow, penalties: settings, ...(options.adminRefund ? { adminRefund: options.adminRefund } : {}) });
  return {
    booking_id: booking.id,
    actor,
    can_cancel: !options.blocked,
    blocked_reason: options.blocked ?? null,
    no_show_available: actor === 'host' && options.now >= tripStart(trip),
    rule: o.rule,
    paid: booking.total_price,
    refund: o.refundCents / 100,
    fee: o.feeCents / 100,
    host_share: o.hostShareCents / 100,
    platform_share: o.platformShareCents / 100,
    host_penalty: o.hostPenaltyCents / 100,
    trip_start: tripStart(trip).toISOString(),
    free_until: freeCancellationUntil(trip).toISOString(),
    policy: describeCancellationPolicy(trip),
    summary: o.summary,
    penalties,
  };
}
