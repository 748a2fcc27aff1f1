// The payouts module's front door (decision 068): hosts' checked bank accounts, their schedules,
// the scheduled run and the transfers through the payout provider, with their ledger rows.
import type { AppContext } from '../../context';
import type { Subscriptions } from '../../events/domain-events';
import './payouts.tables';
import { accountChanged, transferPaid, transferReturned } from './payouts.notices';

export { payoutRunJob, payoutSyncJob } from './payouts.job';
export { payoutsRoutes } from './payouts.routes';
export { handleTransferEvent, runPayouts, syncTransfers } from './payouts.service';

export const payoutsSubscriptions: Subscriptions<AppContext> = {
  within: {
    'payout.account_changed': [accountChanged],
    'payout.transfer_returned': [transferReturned],
    'payout.transfer_paid': [transferPaid],
  },
};
