// What trip records tell people (in the transaction of the change): the other party that the car's
// condition was recorded, the renter that the host flagged damage, both parties how it was resolved.
import type { AppContext } from '../../context';
import type { EventOf, Tx } from '../../events/domain-events';
import { formatMoment, formatRand } from '@karoo/shared';
import { carName, MY_BOOKINGS, notify } from '../notifications';

const STAGE = { check_in: 'check-in', check_out: 'check-out' } as const;

export async function tripRecorded(tx: Tx, { booking, stage, party }: EventOf<'trip.recorded'>, ctx: AppContext) {
  const other = party === 'host' ? booking.renter_id : booking.owner_id;
  await notify(ctx, tx, other, {
    type: 'trip_recorded',
    title: `The ${party} recorded the ${STAGE[stage]}`,
    message: `The ${party} recorded the ${carName(booking)}'s condition at ${STAGE[stage]} (booking ${booking.booking_number}). See the photos and readings, and record your own, on My Bookings.`,
    link: MY_BOOKINGS,
    booking: { id: booking.id },
  });
}

export async function disputeOpened(tx: Tx, { booking, kind }: EventOf<'trip.dispute_opened'>, ctx: AppContext) {
  await notify(ctx, tx, booking.renter_id, {
    type: 'dispute_opened',
    title: kind === 'damage' ? 'The host flagged damage' : 'The host flagged a missing item',
    message: `The host of the ${carName(booking)} (booking ${booking.booking_number}) flagged ${kind === 'damage' ? 'damage' : 'a missing item'}. Karoo will look at the photos and both check-in and check-out records; see them on My Bookings.`,
    link: MY_BOOKINGS,
    booking: { id: booking.id },
  });
}

export async function disputeResolved(tx: Tx, { booking, note }: EventOf<'trip.dispute_resolved'>, ctx: AppContext) {
  for (const userId of [booking.owner_id, booking.renter_id]) {
    await notify(ctx, tx, userId, {
      type: 'dispute_resolved',
      title: 'Dispute resolved',
      message: `Karoo resolved the dispute on booking ${booking.booking_number}: ${note}`,
      link: MY_BOOKINGS,
      booking: { id: booking.id },
    });
  }
}

const money = (cents: number) => formatRand(cents / 100);

/** The renter hears of charges at once, with the time they have to answer. */
export async function claimFiled(tx: Tx, { claim }: EventOf<'trip.claim_filed'>, ctx: AppContext) {
  await notify(ctx, tx, claim.renter_id, {
    type: 'trip_charges_filed',
    title: `The host filed ${money(claim.amount_cents)} of trip charges`,
    message: `The host of booking ${claim.booking_number} filed trip charges of ${money(claim.amount_cents)}. Accept or dispute them by ${formatMoment(claim.answer_due_at, tx.now)} on My Bookings; unanswered, they are accepted and paid from your deposit first.`,
    link: MY_BOOKINGS,
    booking: { id: claim.booking_id },
  });
}

export async function claimDisputed(tx: Tx, { claim }: EventOf<'trip.claim_disputed'>, ctx: AppContext) {
  await notify(ctx, tx, claim.owner_id, {
    type: 'trip_charges_disputed',
    title: 'The renter disputed your trip charges',
    message: `The renter of booking ${claim.booking_number} disputed your trip charges of ${money(claim.amount_cents)}. Karoo will look at both sides' evidence and decide an amount.`,
    link: MY_BOOKINGS,
    booking: { id: claim.booking_id },
  });
}

export async function claimSettled(tx: Tx, e: EventOf<'trip.claim_settled'>, ctx: AppContext) {
  const { claim } = e;
  const paid = e.fromDepositCents + e.cardCents;
  const how = e.how === 'decided' ? `Karoo decided ${money(claim.amount_cents)}: ${e.reason ?? ''}` : e.how === 'unanswered' ? 'The time to answer passed, so the charges were accepted.' : 'The charges were accepted.';
  const parts = [e.fromDepositCents > 0 ? `${money(e.fromDepositCents)} from the deposit` : '', e.cardCents > 0 ? `${money(e.cardCents)} from the card` : ''].filter(Boolean).join(' and ');
  const owed = e.owedCents > 0 ? ` The card was declined (${e.cardError ?? 'no reason given'}): ${money(e.owedCents)} is still owed.` : '';
  for (const userId of [claim.renter_id, claim.owner_id]) {
    await notify(ctx, tx, userId, {
      type: 'trip_charges_settled',
      title: e.owedCents > 0 ? `Trip charges: ${money(e.owedCents)} still owed` : `Trip charges of ${money(paid)} paid`,
      message: `Booking ${claim.booking_number}: ${how}${parts ? ` Paid ${parts}.` : ''}${owed}`,
      link: MY_BOOKINGS,
      booking: { id: claim.booking_id },
    });
  }
}
