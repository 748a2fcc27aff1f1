// Who reacts to what: the one list. Every consequence of a change that is not part of the change
// itself (a browse page to forget, a notification and its email) is a subscriber here, run after
// the transaction that raised the event has committed (domain-events.ts). docs/architecture.md
// shows the same table.
import { forgetBrowsePages } from '../modules/cars/listing-cache';
import * as notices from '../modules/notifications/notices';
import { recordAdminAction } from '../modules/audit/audit.service';
import type { DomainEventType, Subscriber, TransactionalSubscriber } from './domain-events';

type Subscribers = { [T in DomainEventType]?: Subscriber<T>[] };

export const SUBSCRIBERS: Subscribers = {
  // A booking holds or frees dates, and "rented now" follows it: public browse pages change.
  'booking.requested': [forgetBrowsePages, notices.bookingRequested],
  'booking.confirmed': [forgetBrowsePages, notices.bookingConfirmed],
  'booking.rejected': [forgetBrowsePages, notices.bookingRejected],
  'booking.cancelled': [forgetBrowsePages, notices.bookingCancelled],
  'booking.paid': [forgetBrowsePages, notices.bookingPaid],
  'booking.completed': [forgetBrowsePages, notices.bookingCompleted],
  'car.changed': [forgetBrowsePages],
  'car.removed': [forgetBrowsePages],
  'car.verified': [forgetBrowsePages, notices.carVerified],
  'car.rejected': [forgetBrowsePages, notices.carRejected],
  'car.registration_verified': [notices.registrationVerified],
  'car.registration_rejected': [notices.registrationRejected],
  'car.force_returned': [forgetBrowsePages, notices.carForceReturned],
  // Ratings order and label the browse list.
  'review.created': [forgetBrowsePages, notices.reviewCreated],
  'review.changed': [forgetBrowsePages],
  'user.verified': [notices.userVerified],
  'user.rejected': [notices.userRejected],
  // settings.changed, payout.updated, user.created/updated/deleted: audited only (below).
};

type TransactionalSubscribers = { [T in DomainEventType]?: TransactionalSubscriber<T>[] };

/**
 * What commits with the change itself: an administrator's decisions are written to the audit log
 * in the same transaction (audit.service.ts decides which events are decisions).
 */
const AUDITED: DomainEventType[] = [
  'user.verified',
  'user.rejected',
  'user.created',
  'user.updated',
  'user.deleted',
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
  'settings.changed',
  'payout.updated',
];
export const IN_TRANSACTION: TransactionalSubscribers = Object.fromEntries(AUDITED.map((type) => [type, [recordAdminAction]]));
