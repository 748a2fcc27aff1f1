// The audit module's front door: the audit log of every administrator action. It reacts to other
// modules' events (their types reach it through events/domain-events.ts) and imports no module.
import type { AppContext } from '../../context';
import type { DomainEventType, Subscriptions, TransactionalSubscriber } from '../../events/domain-events';
import { recordAdminAction } from './audit.service';

export { auditRoutes } from './audit.routes';

/** The events that are an administrator's decisions when an administrator raises them (audit.service.ts). */
const AUDITED: DomainEventType[] = [
  'user.verified',
  'user.rejected',
  'user.created',
  'user.updated',
  'user.deleted',
  'user.document_viewed',
  'privacy.correction_decided',
  'car.verified',
  'car.rejected',
  'car.registration_verified',
  'car.registration_rejected',
  'car.changed',
  'car.removed',
  'car.force_returned',
  'booking.confirmed',
  'booking.rejected',
  'booking.cancelled',
  'trip.cancelled',
  'payment.refund_retried',
  'settings.changed',
  'payout.updated',
  'payout.reversed',
  'payout.host_paused',
  'payout.transfer_retried',
  'payout.transfer_finalized',
  'trip.dispute_resolved',
  'trip.claim_settled',
  'trip.records_read',
  'conversation.read_by_admin',
  'message.report_resolved',
  'breach.recorded',
  'trip.fine_recorded',
  'trip.fine_nomination_issued',
  'trip.fine_status_changed',
  'payment.fee_waiver_decided',
];

/** The audit row commits with the change itself; listed first, so it is written before the notices. */
export const auditSubscriptions: Subscriptions<AppContext> = {
  within: Object.fromEntries(AUDITED.map((type) => [type, [recordAdminAction as TransactionalSubscriber<DomainEventType, AppContext>]])),
};
