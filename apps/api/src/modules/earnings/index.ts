// The earnings module's front door: earnings, summaries, invoices, payouts and admin finance.
import type { AppContext } from '../../context';
import type { Subscriptions } from '../../events/domain-events';
import { payoutReversed } from './earnings.notices';

export { earningsRoutes } from './earnings.routes';

export const earningsSubscriptions: Subscriptions<AppContext> = {
  within: { 'payout.reversed': [payoutReversed] },
};
