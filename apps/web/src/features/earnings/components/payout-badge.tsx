// A booking's payout badge on the host's Earnings (issue 32, decision 056): its payout's state while
// the trip holds a share for the host (shownPayoutStatus, from the ledger); nothing owed, no badge.
import { shownPayoutStatus, type Earning } from '@karoo/shared';
import { Badge } from '@/components/ui/badge';

const PAYOUT_TONES = { pending: 'warning', processing: 'info', paid: 'success' } as const;

export function PayoutBadge({ earning: e }: { earning: Pick<Earning, 'payout_status' | 'car_owner_earnings'> }) {
  const status = shownPayoutStatus(e.payout_status, e.car_owner_earnings);
  return status ? <Badge tone={PAYOUT_TONES[status]}>Payout {status}</Badge> : null;
}
