// Who reacts to what: the one list. Every consequence of a change that is not part of the change
// itself (a browse page to forget, a notification and its email) is a subscriber here, run after
// the transaction that raised the event has committed (domain-events.ts). docs/architecture.md
// shows the same table.
import { forgetBrowsePages } from '../modules/cars/listing-cache';
import * as notices from '../modules/notifications/notices';
import type { DomainEventType, Subscriber } from './domain-events';

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
};
