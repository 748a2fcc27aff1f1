// The notifications module's front door: the notification list, `notify()` (record + email through
// the outbox) and the words every module's notices share. Modules above it declare their own
// notices (e.g. bookings/bookings.notices.ts) and subscribe them to their own events.
import type { AppContext } from '../../context';
import type { Subscriptions } from '../../events/domain-events';
import { signInLinkRequested, userRejected, userVerified } from './account.notices';
import { deleteNotificationsOf } from './notifications.service';

export { notify, type NewNotification, type NotifyOptions } from './notifications.service';
export { bookingLine, bookingName, carName, dates, HOST_DASHBOARD, MY_BOOKINGS, tripTimes, when, withReason, type BookingMention } from './notice-words';
export { notificationsRoutes } from './notifications.routes';
export { liveRoutes } from './live.routes';
export { LIVE_EVENT_RETENTION_MS, pruneLiveEvents, recordLiveEvent } from './live-events';

export const notificationsSubscriptions: Subscriptions<AppContext> = {
  within: {
    'user.verified': [userVerified],
    'user.rejected': [userRejected],
    // The link goes by email only, in the transaction that stored its token (decision 030).
    'user.sign_in_link_requested': [signInLinkRequested],
    // A closed account's notifications go with it.
    'user.deleted': [deleteNotificationsOf],
  },
};
