// Who reacts to what: the one list. What is part of the change itself (the audit row, a
// notification and its email in the outbox) is written in the transaction that raised the event;
// every other consequence (a cache to forget, on every instance) is a subscriber run after that
// transaction has committed (domain-events.ts). docs/architecture.md shows the same table.
import { forgetBrowsePages } from '../modules/cars/listing-cache';
import * as notices from '../modules/notifications/notices';
import { recordAdminAction } from '../modules/audit/audit.service';
import { forgetSettingsEverywhere } from '../modules/settings/settings.service';
import type { DomainEventType, Subscriber, TransactionalSubscriber } from './domain-events';

type Subscribers = { [T in DomainEventType]?: Subscriber<T>[] };

export const SUBSCRIBERS: Subscribers = {
  // A booking holds or frees dates, and "rented now" follows it: public browse pages change.
  'booking.requested': [forgetBrowsePages],
  'booking.confirmed': [forgetBrowsePages],
  'booking.rejected': [forgetBrowsePages],
  'booking.cancelled': [forgetBrowsePages],
  'booking.paid': [forgetBrowsePages],
  'booking.completed': [forgetBrowsePages],
  'car.changed': [forgetBrowsePages],
  'car.removed': [forgetBrowsePages],
  'car.verified': [forgetBrowsePages],
  'car.rejected': [forgetBrowsePages],
  'car.force_returned': [forgetBrowsePages],
  // Ratings order and label the browse list.
  'review.created': [forgetBrowsePages],
  'review.changed': [forgetBrowsePages],
  // Prices, fees and maintenance mode: every instance forgets its cached settings.
  'settings.changed': [forgetSettingsEverywhere],
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
  'payout.reversed',
];
/**
 * Who is told what (notices.ts): the notification and its email are written in the transaction of
 * the change, so a change that rolls back tells no one, and a committed one cannot lose its mail
 * (the mail worker sends it from the outbox).
 */
const NOTICES: TransactionalSubscribers = {
  'booking.requested': [notices.bookingRequested],
  'booking.confirmed': [notices.bookingConfirmed],
  'booking.rejected': [notices.bookingRejected],
  'booking.cancelled': [notices.bookingCancelled],
  'booking.paid': [notices.bookingPaid],
  'booking.completed': [notices.bookingCompleted],
  'car.verified': [notices.carVerified],
  'car.rejected': [notices.carRejected],
  'car.registration_verified': [notices.registrationVerified],
  'car.registration_rejected': [notices.registrationRejected],
  'car.force_returned': [notices.carForceReturned],
  'review.created': [notices.reviewCreated],
  'user.verified': [notices.userVerified],
  'user.rejected': [notices.userRejected],
  'payment.refund_due': [notices.paymentRefundDue],
  // The link goes by email only, in the transaction that stored its token (decision 030).
  'user.sign_in_link_requested': [notices.signInLinkRequested],
  // settings.changed, payout.updated, payout.reversed, user.created/updated/deleted: audited only.
};

/** The audit row first, then the notices, for each event. */
export const IN_TRANSACTION: TransactionalSubscribers = (() => {
  const all: Record<string, TransactionalSubscriber<never>[]> = {};
  for (const type of AUDITED) (all[type] ??= []).push(recordAdminAction as TransactionalSubscriber<never>);
  for (const [type, list] of Object.entries(NOTICES)) (all[type] ??= []).push(...(list as unknown as TransactionalSubscriber<never>[]));
  return all as TransactionalSubscribers;
})();
