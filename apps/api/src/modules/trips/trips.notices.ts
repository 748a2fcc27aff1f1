// What trip records tell people (in the transaction of the change): the other party that the car's
// condition was recorded, the renter that the host flagged damage, both parties how it was resolved.
import type { AppContext } from '../../context';
import type { EventOf, Tx } from '../../events/domain-events';
import { formatDay, formatMoment, formatRand } from '@karoo/shared';
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
    // The renter can pay the rest with another card through the claim's payment link (decision 073).
    const next = e.owedCents > 0 && userId === claim.renter_id ? ' Pay it with another card on My Bookings.' : '';
    await notify(ctx, tx, userId, {
      type: 'trip_charges_settled',
      title: e.owedCents > 0 ? `Trip charges: ${money(e.owedCents)} still owed` : `Trip charges of ${money(paid)} paid`,
      message: `Booking ${claim.booking_number}: ${how}${parts ? ` Paid ${parts}.` : ''}${owed}${next}`,
      link: MY_BOOKINGS,
      booking: { id: claim.booking_id },
    });
  }
}

/** What a declined card left owed was paid through the payment link: both parties are told (decision 073). */
export async function claimPaid(tx: Tx, { claim, cardCents }: EventOf<'trip.claim_paid'>, ctx: AppContext) {
  const words = { [claim.renter_id]: `You paid the ${money(cardCents)} still owed on the trip charges of booking ${claim.booking_number} by card. The charges are paid in full.`, [claim.owner_id]: `The renter paid the ${money(cardCents)} still owed on your trip charges of booking ${claim.booking_number}. It is added to your earnings for the trip.` };
  for (const userId of [claim.renter_id, claim.owner_id]) {
    await notify(ctx, tx, userId, {
      type: 'trip_charges_paid',
      title: `Trip charges: the ${money(cardCents)} owed is paid`,
      message: words[userId]!,
      link: MY_BOOKINGS,
      booking: { id: claim.booking_id },
    });
  }
}

// ---- Traffic fines (decision 066) ----

const deadlineWords = (nominateBy: string) => formatDay(nominateBy);

/** The renter of the trip a fine fell in hears of it at once (the host will nominate them as the driver). */
export async function fineRecorded(tx: Tx, { fine }: EventOf<'trip.fine_recorded'>, ctx: AppContext) {
  if (!fine.renter_id || !fine.booking_id) return;
  await notify(ctx, tx, fine.renter_id, {
    type: 'traffic_fine_recorded',
    title: `A traffic fine of ${money(fine.amount_cents)} on your trip`,
    message: `A traffic fine (notice ${fine.notice_number}, ${money(fine.amount_cents)}) was issued for the ${fine.car_name} during your trip ${fine.booking_number ?? ''}. The host may nominate you as the driver (AARTO 07) by ${deadlineWords(fine.nominate_by)}; you can then pay it or make representations to the RTIA. See it on My Bookings.`,
    link: MY_BOOKINGS,
    booking: { id: fine.booking_id },
  });
}

export async function fineStatusChanged(tx: Tx, e: EventOf<'trip.fine_status_changed'>, ctx: AppContext) {
  const { fine } = e;
  const to = e.byRenter ? fine.host_id : fine.renter_id;
  if (!to) return;
  const words: Record<string, string> = {
    nominated: 'The host nominated you as the driver (AARTO 07): the RTIA will send the notice to you.',
    paid_by_renter: 'The fine is marked paid by the renter.',
    paid_by_host: 'The host paid the fine.',
    disputed: `The renter disputes the fine${e.note ? `: ${e.note}` : '.'}`,
    withdrawn: 'The fine was withdrawn.',
    open: 'The fine is open again.',
  };
  await notify(ctx, tx, to, {
    type: 'traffic_fine_updated',
    title: `Traffic fine ${fine.notice_number}: ${e.after.replace(/_/g, ' ')}`,
    message: words[e.after] ?? `The fine is now ${e.after}.`,
    link: MY_BOOKINGS,
    ...(fine.booking_id ? { booking: { id: fine.booking_id } } : { aboutRecipientOnly: true as const }),
  });
}

/** A week before the deadline the host is reminded to nominate (or pay) an open fine. */
export async function fineDeadlineNear(tx: Tx, { fine, daysLeft }: EventOf<'trip.fine_deadline_near'>, ctx: AppContext) {
  await notify(ctx, tx, fine.host_id, {
    type: 'traffic_fine_deadline',
    title: `Nominate the driver of fine ${fine.notice_number} by ${deadlineWords(fine.nominate_by)}`,
    message: `${daysLeft === 0 ? 'Today is the last day' : `${daysLeft} day(s) are left`} to nominate the driver of traffic fine ${fine.notice_number} (${money(fine.amount_cents)}): the 32 days from the notice's service end on ${deadlineWords(fine.nominate_by)}. ${fine.booking_id ? 'Download the AARTO 07 nomination on the trip, sign it and submit it on aarto.gov.za or to the RTIA.' : 'No trip covers the fine: pay it or make representations.'}`,
    link: MY_BOOKINGS,
    ...(fine.booking_id ? { booking: { id: fine.booking_id } } : { aboutRecipientOnly: true as const }),
  });
}
