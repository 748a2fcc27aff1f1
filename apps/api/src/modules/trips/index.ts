// The trips module's front door (issue 21; docs/decisions/042-trip-records.md): check-in and
// check-out records with private photos, the comparison the host's return shows, and disputes.
// The only file the app imports. It imports the bookings module (who sees a booking) and the
// notifications module (its notices).
import type { AppContext } from '../../context';
import type { Subscriptions } from '../../events/domain-events';
import './trips.tables';
import './trip-claims.tables';
import './traffic-fines.tables';
import { claimDisputed, claimFiled, claimPaid, claimSettled, disputeOpened, disputeResolved, fineDeadlineNear, fineRecorded, fineStatusChanged, tripRecorded } from './trips.notices';

export { tripsRoutes } from './trips.routes';
export { recordClaimCardPayment } from './trip-claims.service';
export { tripChargesSweepJob } from './trip-claims.job';
export { trafficFinesRemindJob } from './traffic-fines.job';

export const tripsSubscriptions: Subscriptions<AppContext> = {
  within: {
    'trip.recorded': [tripRecorded],
    'trip.dispute_opened': [disputeOpened],
    'trip.dispute_resolved': [disputeResolved],
    'trip.claim_filed': [claimFiled],
    'trip.claim_disputed': [claimDisputed],
    'trip.claim_settled': [claimSettled],
    'trip.claim_paid': [claimPaid],
    'trip.fine_recorded': [fineRecorded],
    'trip.fine_status_changed': [fineStatusChanged],
    'trip.fine_deadline_near': [fineDeadlineNear],
  },
};
