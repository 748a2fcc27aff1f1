// What the payments module tells the renter and the host (decisions.md section 3), in the transaction of the change.
import { formatRand } from '@karoo/shared';
import type { AppContext } from '../../context';
import type { EventOf, Tx } from '../../events/domain-events';
import { bookingName, MY_BOOKINGS, notify } from '../notifications';

const rand = (cents: number) => formatRand(cents / 100);

export async function paymentRefundDue(tx: Tx, { booking: b, reference, amountCents, reason }: EventOf<'payment.refund_due'>, ctx: AppContext) {
  await notify(ctx, tx, b.renter_id, {
    type: 'payment_refunded',
    title: 'Payment refunded',
    message: `Your payment of ${rand(amountCents)} for the ${bookingName(b)} (reference ${reference}) could not be used. ${reason} It is being refunded in full to the card you paid with; refunds can take a few working days to show.`,
    link: MY_BOOKINGS,
    booking: b,
  });
}

/** Both parties learn what the cancellation of a paid trip means for them, in rand. */
export async function tripCancelled(tx: Tx, { booking: b, actor, noShow, outcome: o, reason }: EventOf<'trip.cancelled'>, ctx: AppContext) {
  const who = noShow ? 'The host reported that you did not collect the car, so your' : actor === 'renter' ? 'Your' : actor === 'host' ? 'The host cancelled your' : 'Karoo cancelled your';
  const renterMoney =
    o.feeCents > 0
      ? `You get ${rand(o.refundCents)} back; the cancellation fee of ${rand(o.feeCents)} is kept.`
      : `You get all ${rand(o.refundCents)} back.`;
  await notify(ctx, tx, b.renter_id, {
    type: 'trip_cancelled',
    title: 'Trip cancelled',
    message: `${who} trip in the ${bookingName(b)} was cancelled. ${renterMoney} Refunds reach your card within a few working days.${actor === 'admin' ? ` Reason: ${reason}` : ''}`,
    link: MY_BOOKINGS,
    booking: b,
  });
  const hostMoney =
    o.hostPenaltyCents > 0
      ? `A cancellation penalty of ${rand(o.hostPenaltyCents)} will be deducted from your next payout.`
      : o.hostShareCents > 0
        ? `You earn ${rand(o.hostShareCents)} from the cancellation fee.`
        : 'The renter is refunded in full.';
  const byWhom = noShow ? 'You reported a no-show for' : actor === 'renter' ? `${b.renter_full_name} cancelled` : actor === 'host' ? 'You cancelled' : 'Karoo cancelled';
  await notify(ctx, tx, b.owner_id, {
    type: 'trip_cancelled',
    title: 'Trip cancelled',
    message: `${byWhom} the paid trip in your ${bookingName(b)}. ${hostMoney}${actor === 'admin' ? ` Reason: ${reason}` : ''}`,
    link: MY_BOOKINGS,
    booking: b,
  });
}

/** A refund that was delayed (the provider refused it at first) has gone through at last. */
export async function paymentRefunded(tx: Tx, { bookingId, renterId, amountCents }: EventOf<'payment.refunded'>, ctx: AppContext) {
  await notify(ctx, tx, renterId, {
    type: 'refund_sent',
    title: 'Refund sent',
    message: `Your refund of ${rand(amountCents)}, delayed by the payment provider, has now been accepted and is on its way to your card; it can take a few working days to show.`,
    link: MY_BOOKINGS,
    booking: { id: bookingId },
  });
}

/** The renter hears the decision on their CPA s. 17 request; approved, the host hears that their share of the fee went back (never why). */
export async function feeWaiverDecided(tx: Tx, { waiver, decision, reason }: EventOf<'payment.fee_waiver_decided'>, ctx: AppContext) {
  await notify(ctx, tx, waiver.renter_id, {
    type: 'fee_waiver_decided',
    title: decision === 'approve' ? `Cancellation fee of ${rand(waiver.fee_cents)} refunded` : 'Your request to waive the cancellation fee was declined',
    message:
      decision === 'approve'
        ? `Karoo waived the cancellation fee of booking ${waiver.booking_number} (Consumer Protection Act, section 17): ${rand(waiver.fee_cents)} is being refunded to the card you paid with; refunds can take a few working days to show.`
        : `Karoo declined to waive the cancellation fee of booking ${waiver.booking_number}: ${reason} You may ask again with other evidence.`,
    link: MY_BOOKINGS,
    booking: { id: waiver.booking_id },
  });
  if (decision !== 'approve') return;
  await notify(ctx, tx, waiver.owner_id, {
    type: 'fee_waiver_decided',
    title: 'A cancellation fee was waived',
    message: `The cancellation fee of booking ${waiver.booking_number} was waived under the Consumer Protection Act (section 17) and refunded to the renter; your share of it is taken back from your earnings.`,
    link: MY_BOOKINGS,
    booking: { id: waiver.booking_id },
  });
}
