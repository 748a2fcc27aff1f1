// What the payments module tells the renter (decisions.md section 3), in the transaction of the change.
import { formatRand } from '@karoo/shared';
import type { AppContext } from '../../context';
import type { EventOf, Tx } from '../../events/domain-events';
import { bookingName, MY_BOOKINGS, notify } from '../notifications';

export async function paymentRefundDue(tx: Tx, { booking: b, reference, amountCents, reason }: EventOf<'payment.refund_due'>, ctx: AppContext) {
  await notify(ctx, tx, b.renter_id, {
    type: 'payment_refunded',
    title: 'Payment refunded',
    message: `Your payment of ${formatRand(amountCents / 100)} for the ${bookingName(b)} (reference ${reference}) could not be used. ${reason} It is being refunded in full to the card you paid with; refunds can take a few working days to show.`,
    link: MY_BOOKINGS,
  });
}
