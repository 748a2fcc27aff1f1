// Cancelling a paid trip by the published policy (issue 20; decisions 037 and 039). The amounts
// come from the shared cancellationOutcome(), the same function every cancel screen calls before
// the person confirms; here they are computed again on the locked booking, at the moment of the
// change, and recorded as ledger rows in the transaction that cancels the booking:
// - the charge's shares are taken back, the fee kept (if any) is shared anew at the booking's host
//   fee rate, the refund is recorded pending, and a host's penalty is charged;
// - the refund is then asked of the provider at once (retried with backoff, failed after a limit).
// Who may cancel when:
// - the renter, until the trip starts (then it is under way: the car is returned to end it);
// - the host, until the start; after it, only to report that the renter never came (a no-show, which
//   the renter's policy prices like a late cancellation);
// - an administrator, at any time while the trip is paid and not completed, choosing the refund.
import {
  cancellationOutcome,
  describeCancellationPolicy,
  formatRand,
  freeCancellationUntil,
  hostPenaltiesOf,
  isAdmin,
  tripStart,
  type AdminRefund,
  type CancelBookingBody,
  type CancellationActor,
  type CancellationOutcome,
  type CancellationQuote,
  type PaidTrip,
} from '@karoo/shared';
import type { AppContext } from '../../context';
import type { UserRow } from '../../db/schema';
import { inTransaction } from '../../events/domain-events';
import { AppError, conflict, notFound } from '../../lib/app-error';
import { findVisibleBooking, lockBookingForPayment, transition, type BookingRecord, type CancelCause } from '../bookings';
import * as ledger from '../ledger';
import { getSettings } from '../settings';
import { attemptRefund, partiesOf } from './payments.service';
import { enqueueRefundAttempt } from './refund-queue';

/** What the person asked for: a no-show report (host), an administrator's refund choice, a reason. */
export interface CancelTripRequest {
  noShow?: boolean;
  refund?: 'full' | 'policy' | 'amount';
  /** Cents, for refund 'amount'. */
  refundAmountCents?: number;
  reason?: string;
  /** Cents: the refund the screen showed; a different one now is refused (409), never carried out unseen. */
  expectedRefundCents?: number;
}

export function cancelTripRequestOf(body: CancelBookingBody | null | undefined): CancelTripRequest {
  const reason = (body?.reason ?? body?.host_response)?.trim();
  return {
    ...(body?.no_show ? { noShow: true } : {}),
    ...(body?.refund ? { refund: body.refund } : {}),
    ...(body?.refund_amount !== undefined ? { refundAmountCents: Math.round(body.refund_amount * 100) } : {}),
    ...(body?.expected_refund !== undefined ? { expectedRefundCents: Math.round(body.expected_refund * 100) } : {}),
    ...(reason ? { reason } : {}),
  };
}

/** The policy's view of a paid booking. */
export function paidTripOf(b: BookingRecord): PaidTrip {
  return {
    isHourly: b.is_hourly_booking,
    startDate: b.start_date,
    startTime: b.start_time,
    durationDays: b.duration_days,
    subtotalCents: b.subtotal_cents,
    totalCents: b.total_price_cents,
    hostFeeRate: Number(b.commission_rate),
    paidAt: new Date(b.paid_at ?? b.created_at),
  };
}

/** The part the viewer cancels as: their own booking's side first, then an administrator. */
function partOf(viewer: UserRow, b: BookingRecord): CancellationActor {
  if (b.renter_id === viewer.id) return 'renter';
  if (b.owner_id === viewer.id) return 'host';
  return 'admin';
}

interface Decision {
  actor: CancellationActor;
  /** Why the viewer cannot cancel now; null when they can. */
  blocked: string | null;
  noShowAvailable: boolean;
  outcome: CancellationOutcome;
}

function adminRefundOf(request: CancelTripRequest): AdminRefund {
  if (request.refund === 'amount') return { kind: 'amount', amountCents: request.refundAmountCents ?? 0, reason: request.reason ?? '' };
  return { kind: request.refund ?? 'full' };
}

/** What cancelling would do now for this viewer, and whether they may (the quote and the change both ask this). */
function decide(b: BookingRecord, viewer: UserRow, request: CancelTripRequest, now: Date, penalties: ReturnType<typeof hostPenaltiesOf>, purpose: 'quote' | 'cancel'): Decision {
  const actor = partOf(viewer, b);
  const trip = paidTripOf(b);
  const started = now.getTime() >= tripStart(trip).getTime();
  const noShow = actor === 'host' && !!request.noShow;
  let blocked: string | null = null;
  if (b.status !== 'active' || b.payment_status !== 'paid') blocked = `A ${b.status} booking cannot be cancelled by the cancellation policy.`;
  else if (actor === 'renter' && started) blocked = 'Your trip has started. To end it, return the car to the host.';
  else if (actor === 'host' && started && !noShow) blocked = 'The trip has started. If the renter did not come, report a no-show instead.';
  else if (actor === 'host' && !started && noShow) blocked = 'A no-show can be reported only once the trip has started.';
  else if (purpose === 'cancel' && actor === 'admin' && request.refund === 'amount' && !request.reason) blocked = 'Give a reason for the refund amount you chose.';
  else if (actor === 'admin' && request.refund === 'amount' && (request.refundAmountCents ?? 0) > b.total_price_cents) blocked = 'The refund cannot be more than what the renter paid.';
  const outcome = cancellationOutcome({ trip, actor, now, noShow, penalties, ...(actor === 'admin' ? { adminRefund: adminRefundOf(request) } : {}) });
  return { actor, blocked, noShowAvailable: actor === 'host' && started, outcome };
}

const rand = (cents: number) => cents / 100;

/** What each charge can give back to the trip's refund: the trip's own charge keeps back the deposit still held (its release comes from it). */
function reserveDeposit(charges: readonly { reference: string; cents: number }[], tripReference: string | null, heldCents: number) {
  return charges.map((c) => (c.reference === tripReference ? { ...c, cents: Math.max(0, c.cents - heldCents) } : c));
}

/** GET /booking/{id}/cancellation: what cancelling now would give back and cost, for the viewer's part. */
export async function quoteCancellation(ctx: AppContext, viewer: UserRow, idOrNumber: string, request: CancelTripRequest): Promise<CancellationQuote> {
  const booking = await findVisibleBooking(ctx, viewer, idOrNumber);
  if (booking.payment_status !== 'paid') throw conflict('Only a paid trip has a cancellation quote; an unpaid booking is cancelled free.');
  const settings = await getSettings(ctx);
  const penalties = hostPenaltiesOf(settings);
  const d = decide(booking, viewer, request, ctx.clock.now(), penalties, 'quote');
  const trip = paidTripOf(booking);
  const o = d.outcome;
  return {
    booking_id: booking.id,
    actor: d.actor,
    can_cancel: d.blocked === null,
    blocked_reason: d.blocked,
    no_show_available: d.noShowAvailable,
    rule: o.rule,
    paid: rand(booking.total_price_cents),
    refund: rand(o.refundCents),
    fee: rand(o.feeCents),
    host_share: rand(o.hostShareCents),
    platform_share: rand(o.platformShareCents),
    host_penalty: rand(o.hostPenaltyCents),
    trip_start: tripStart(trip).toISOString(),
    free_until: freeCancellationUntil(trip).toISOString(),
    policy: describeCancellationPolicy(trip),
    summary: o.summary,
    penalties: { early: settings.host_cancellation_penalty_early, late: settings.host_cancellation_penalty_late },
  };
}

const CAUSES: Record<CancellationActor, CancelCause> = { renter: 'renter', host: 'host', admin: 'admin' };
const MACHINE_ACTOR = { renter: 'renter', host: 'owner', admin: 'admin' } as const;

function defaultReason(actor: CancellationActor, noShow: boolean): string {
  if (noShow) return 'The renter did not come to collect the car (reported by the host).';
  if (actor === 'renter') return 'Trip cancelled by the renter';
  if (actor === 'host') return 'Trip cancelled by the host';
  return 'Trip cancelled by Karoo';
}

/**
 * PATCH /booking/{id}/cancel on a paid trip: checked and priced again on the locked booking, then
 * cancelled with its ledger rows in one transaction; the refund is asked for once it has committed.
 */
export async function cancelPaidTrip(ctx: AppContext, viewer: UserRow, idOrNumber: string, request: CancelTripRequest): Promise<BookingRecord> {
  const visible = await findVisibleBooking(ctx, viewer, idOrNumber);
  const settings = await getSettings(ctx);
  const penalties = hostPenaltiesOf(settings);
  const { booking, refundIds, releaseId } = await inTransaction(
    ctx,
    async (tx) => {
      const current = await lockBookingForPayment(tx, visible.id);
      const d = decide(current, viewer, request, tx.now, penalties, 'cancel');
      if (d.blocked) throw conflict(d.blocked);
      if (request.expectedRefundCents !== undefined && request.expectedRefundCents !== d.outcome.refundCents) {
        throw conflict(`The amounts have changed since they were shown: cancelling now gives back ${formatRand(rand(d.outcome.refundCents))}. ${d.outcome.summary} Look again and confirm.`);
      }
      if (d.actor === 'admin' && !isAdmin(viewer)) throw notFound('Booking not found');
      // A fee kept by an earlier change (decision 081) stays kept: only the trip's shares come back.
      const shares = await ledger.sharesOfBooking(tx.db, current.id, { exceptCodes: [ledger.CHANGE_FEE_CODE] });
      const shared = shares.hostCents + Object.values(shares.platformByCode).reduce((a, c) => a + c, 0);
      if (shared !== current.total_price_cents) {
        throw new AppError(409, 'This trip has no complete payment record to refund from. Please contact Karoo support.');
      }
      const noShow = d.actor === 'host' && !!request.noShow;
      const o = d.outcome;
      const reason = request.reason ?? defaultReason(d.actor, noShow);
      const cancelled = await transition(tx, current, {
        to: 'cancelled',
        actor: MACHINE_ACTOR[d.actor],
        cause: noShow ? 'no_show' : CAUSES[d.actor],
        reason,
      });
      // Newest charge first (a change's), the trip's own last: the deposit comes back from that one.
      const held = await ledger.depositHeldCents(tx.db, current.id);
      const charges = await ledger.refundableCharges(tx.db, current.id);
      const refundParts = charges.length > 1 ? ledger.splitRefund(reserveDeposit(charges, current.payment_reference, held), o.refundCents) : undefined;
      const { refunds } = await ledger.recordCancellation(tx.db, partiesOf(current), tx.now, {
        chargeReference: current.payment_reference,
        refundCents: o.refundCents,
        ...(refundParts ? { refundParts } : {}),
        refundCode: `cancelled_${o.rule}`,
        refundReason: o.feeCents > 0 ? `Refund of your cancelled trip, less the ${formatRand(rand(o.feeCents))} cancellation fee.` : 'Refund of your cancelled trip, in full.',
        shares,
        feeHostCents: o.hostShareCents,
        feePlatformCents: o.platformShareCents,
        penaltyCents: o.hostPenaltyCents,
        penaltyCode: o.rule === 'host' ? (o.hostPenaltyCents === penalties.hostPenaltyEarlyCents ? 'host_cancelled_early' : 'host_cancelled_late') : 'none',
        actorId: viewer.id,
      });
      for (const refund of refunds) await enqueueRefundAttempt(ctx, tx, refund.id);
      // A cancelled trip keeps no deposit: all of it goes back with the refund (decision 064).
      const release =
        held > 0
          ? await ledger.recordDepositRelease(tx.db, partiesOf(current), { amountCents: held, chargeReference: current.payment_reference, at: tx.now, reason: 'Your deposit back: the trip was cancelled.', actorId: viewer.id })
          : undefined;
      if (release) await enqueueRefundAttempt(ctx, tx, release.id);
      tx.emit({ type: 'trip.cancelled', booking: cancelled, actor: d.actor, noShow, outcome: o, reason });
      return { booking: cancelled, refundIds: refunds.map((r) => r.id), releaseId: release?.id };
    },
    { by: viewer },
  );
  for (const refundId of refundIds) await attemptRefund(ctx, refundId);
  if (releaseId) await attemptRefund(ctx, releaseId);
  return booking;
}
