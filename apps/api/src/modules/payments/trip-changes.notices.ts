// What the renter and the host are told about a change of their trip (decision 081), in the transaction of the change.
import { describeTripTimes, formatPolicyMoment, formatRand } from '@karoo/shared';
import type { AppContext } from '../../context';
import type { EventOf, Tx } from '../../events/domain-events';
import { bookingName, HOST_DASHBOARD, MY_BOOKINGS, notify } from '../notifications';

const rand = (cents: number) => formatRand(cents / 100);
const HOSTED = HOST_DASHBOARD;
const times = (c: EventOf<'trip.change_requested'>['change']) => describeTripTimes({ start_date: c.to_start_date, end_date: c.to_end_date, start_time: c.to_start_time, end_time: c.to_end_time });

function hostMoney(cents: number): string {
  if (cents > 0) return `Your earnings from the trip rise by ${rand(cents)}.`;
  if (cents < 0) return `Your earnings from the trip fall by ${rand(-cents)}.`;
  return 'Your earnings from the trip stay the same.';
}

function renterMoney(cents: number): string {
  if (cents > 0) return `${rand(cents)} was charged to the card you paid with.`;
  if (cents < 0) return `${rand(-cents)} is being refunded to the card you paid with; refunds can take a few working days to show.`;
  return 'The price stays the same.';
}

export async function tripChangeRequested(tx: Tx, { booking: b, change: c }: EventOf<'trip.change_requested'>, ctx: AppContext) {
  await notify(ctx, tx, b.owner_id, {
    type: 'trip_change_requested',
    title: 'Trip change requested',
    message: `${b.renter_full_name} asks to change the trip in your ${bookingName(b)} to ${times(c)}. ${hostMoney(c.host_difference_cents)} Answer by ${formatPolicyMoment(new Date(c.answer_by))}, or the request lapses and the trip stays as it was.${c.message ? ` Their message: "${c.message}"` : ''}`,
    link: HOSTED,
    booking: b,
  });
}

export async function tripChangeAccepted(tx: Tx, { booking: b, change: c, instant }: EventOf<'trip.change_accepted'>, ctx: AppContext) {
  await notify(ctx, tx, b.renter_id, {
    type: 'trip_change_accepted',
    title: 'Trip changed',
    message: `${instant ? 'Your change was confirmed at once' : 'The host accepted your change'}: your trip in the ${bookingName(b)} is now ${times(c)}. ${renterMoney(c.net_cents)} Your receipt is updated with a new number.`,
    link: MY_BOOKINGS,
    booking: b,
  });
  await notify(ctx, tx, b.owner_id, {
    type: 'trip_change_accepted',
    title: 'Trip changed',
    message: `${instant ? `${b.renter_full_name}'s change was confirmed at once (instant booking)` : 'You accepted the change'}: the trip in your ${bookingName(b)} is now ${times(c)}. ${hostMoney(c.host_difference_cents)}`,
    link: HOSTED,
    booking: b,
  });
}

const ENDINGS = {
  declined: { renter: 'The host declined your change', host: 'You declined the change' },
  withdrawn: { renter: 'You withdrew your change', host: 'The renter withdrew their change' },
  lapsed: { renter: 'The host did not answer your change in time', host: 'You did not answer the change in time' },
  failed: { renter: 'Your change could not be made', host: 'The change could not be made' },
} as const;

export async function tripChangeEnded(tx: Tx, { booking: b, change: c }: EventOf<'trip.change_ended'>, ctx: AppContext) {
  if (c.status === 'pending' || c.status === 'accepted') return;
  const words = ENDINGS[c.status];
  const why = c.failure ? ` ${c.failure}` : c.note ? ` The host's note: "${c.note}"` : '';
  await notify(ctx, tx, b.renter_id, {
    type: 'trip_change_ended',
    title: c.status === 'declined' ? 'Trip change declined' : c.status === 'lapsed' ? 'Trip change lapsed' : c.status === 'failed' ? 'Trip change not made' : 'Trip change withdrawn',
    message: `${words.renter} (${times(c)}) for the ${bookingName(b)}: the trip stays as it was.${why}`,
    link: MY_BOOKINGS,
    booking: b,
  });
  if (c.status === 'declined') return;
  await notify(ctx, tx, b.owner_id, {
    type: 'trip_change_ended',
    title: c.status === 'lapsed' ? 'Trip change lapsed' : c.status === 'failed' ? 'Trip change not made' : 'Trip change withdrawn',
    message: `${words.host} (${times(c)}) for your ${bookingName(b)}: the trip stays as it was.${c.failure ? ` ${c.failure}` : ''}`,
    link: HOSTED,
    booking: b,
  });
}
