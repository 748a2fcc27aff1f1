// What the earnings module tells a host (decisions.md section 3), in the transaction of the change.
import { formatRand } from '@karoo/shared';
import type { AppContext } from '../../context';
import type { EventOf, Tx } from '../../events/domain-events';
import { notify } from '../notifications';

/** A payout the host was told was paid has been taken back: they see why, and that it is owed again. */
export async function payoutReversed(tx: Tx, { bookingId, hostId, bookingNumber, amountCents, reason }: EventOf<'payout.reversed'>, ctx: AppContext) {
  await notify(ctx, tx, hostId, {
    type: 'payout_reversed',
    title: 'Payout reversed',
    message: `Karoo reversed the payout of ${formatRand(amountCents / 100)} for booking ${bookingNumber}: ${reason.replace(/[.!?]\s*$/, '')}. It shows as owed again and will be paid with your next payout.`,
    link: '/earnings',
    booking: { id: bookingId },
  });
}
