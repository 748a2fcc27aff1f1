// The payments module's front door: payment sessions (one open per booking), verifying a reference,
// the Paystack webhook, the sandbox checkout, refunds of charges that cannot stay on a booking and
// their retry job. The only file other modules and the app import.
import type { AppContext } from '../../context';
import type { Subscriptions } from '../../events/domain-events';
import './fee-waivers.tables';
import { feeWaiverDecided, paymentRefundDue, paymentRefunded, tripCancelled } from './payments.notices';
import { tripChangeAccepted, tripChangeEnded, tripChangeRequested } from './trip-changes.notices';

export { findVisibleLedger } from './payments.service';
export { cancelPaidTrip, cancelTripRequestOf, quoteCancellation } from './trip-cancellations';
export { refundAttemptJob, refundSweepJob } from './refund.job';
export { paymentsRoutes } from './payments.routes';
export { askReleaseNow, chargeSavedCard, releaseDeposit, type SavedCardCharge } from './deposits';
export { amountToPay } from './payments.service';
export { lapseOverdueChanges } from './trip-changes';
export { tripChangeLapseJob } from './trip-changes.job';
export { tripChangesRoutes } from './trip-changes.routes';
export { openClaimCheckout, verifyClaimPayment, type ClaimChargeHandler, type ClaimChargeOutcome } from './claim-checkouts';

export const paymentsSubscriptions: Subscriptions<AppContext> = {
  within: {
    'payment.refund_due': [paymentRefundDue],
    'payment.refunded': [paymentRefunded],
    'trip.cancelled': [tripCancelled],
    'payment.fee_waiver_decided': [feeWaiverDecided],
    'trip.change_requested': [tripChangeRequested],
    'trip.change_accepted': [tripChangeAccepted],
    'trip.change_ended': [tripChangeEnded],
  },
};
