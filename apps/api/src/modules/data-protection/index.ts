// The data-protection module's front door (issue 24; docs/decisions/050-account-deletion-retention-breaches.md):
// deleting one's own account and erasing the person everywhere, identity documents kept only as
// long as needed and sealed at rest, and security compromises recorded and told. It reacts to its
// own account.erasing event, last in the deleting unit of work.
import type { AppContext } from '../../context';
import type { Subscriptions, TransactionalSubscriber } from '../../events/domain-events';
import { eraseAccount } from './account-deletion';
import './data-protection.tables';

export { scrubMailJob, deletionBlockers, anonymousUsername, FORMER_MEMBER, DELETED_MESSAGE } from './account-deletion';
export { breachNoticeJob } from './breaches';
export { applyDocumentRetention, documentRetentionJob, documentSealJob, sealOlderDocuments } from './document-retention';
export { dataProtectionRoutes } from './data-protection.routes';
export { needlesFor, textColumns } from './erasure';
export { MENTION_TABLES, NO_MENTION, reachOf } from './erasure.registry';

export const dataProtectionSubscriptions: Subscriptions<AppContext> = {
  within: {
    'account.erasing': [eraseAccount as TransactionalSubscriber<'account.erasing', AppContext>],
  },
};
