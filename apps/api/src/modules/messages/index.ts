// The messages module's front door: one conversation per booking between its renter and its host
// (issue 21, decision 041), the unread counts, reports and the administrators' review of them, and
// the notices that tell the other side and every administrator.
import type { AppContext } from '../../context';
import type { Subscriptions } from '../../events/domain-events';
import { messagePosted, messageReported } from './messages.service';

export { messagesRoutes } from './messages.routes';

export const messagesSubscriptions: Subscriptions<AppContext> = {
  within: { 'message.posted': [messagePosted], 'message.reported': [messageReported] },
};
