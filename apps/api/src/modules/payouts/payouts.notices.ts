// What the payouts module tells a host (decision 068), in the transaction of the change.
import { formatMoment, formatRand } from '@karoo/shared';
import type { AppContext } from '../../context';
import type { EventOf, Tx } from '../../events/domain-events';
import { notify } from '../notifications';

const PAYOUTS_PAGE = '/earnings';

/** A changed bank account is the classic fraud of a stolen session: the host hears of it by email whatever their settings. */
export async function accountChanged(tx: Tx, e: EventOf<'payout.account_changed'>, ctx: AppContext) {
  const hold = e.holdUntil ? ` Payouts wait until ${formatMoment(e.holdUntil, tx.now)} as a precaution.` : '';
  await notify(
    ctx,
    tx,
    e.hostId,
    {
      type: 'payout_account_changed',
      title: 'Your payout bank account was changed',
      message: `Your payouts now go to ${e.bankName} account ending ${e.last4}.${hold} If you did not make this change, change your password and contact Karoo support at once.`,
      link: PAYOUTS_PAGE,
      aboutRecipientOnly: true,
    },
    { email: 'always' },
  );
}

export async function transferReturned(tx: Tx, e: EventOf<'payout.transfer_returned'>, ctx: AppContext) {
  const what = e.state === 'failed' ? 'could not be paid into your account' : 'was returned by your bank';
  await notify(ctx, tx, e.hostId, {
    type: 'payout_failed',
    title: e.state === 'failed' ? 'Payout failed' : 'Payout returned by your bank',
    message: `Your payout of ${formatRand(e.amountCents / 100)} (${e.reference}) ${what}: ${e.reason.replace(/[.!?]\s*$/, '')}. It is owed to you again; check your bank account on the Earnings page, and Karoo will send it again.`,
    link: PAYOUTS_PAGE,
    aboutRecipientOnly: true,
  });
}

export async function transferPaid(tx: Tx, e: EventOf<'payout.transfer_paid'>, ctx: AppContext) {
  await notify(ctx, tx, e.hostId, {
    type: 'payout_paid',
    title: 'Payout sent',
    message: `${formatRand(e.amountCents / 100)} was paid into your ${e.bankName} account ending ${e.last4} (reference ${e.reference}).`,
    link: PAYOUTS_PAGE,
    aboutRecipientOnly: true,
  });
}
