// The privacy module's front door (issue 24, decision 049): what is held about a person, their data
// download, corrections, the marketing choice and the versions of the terms they accepted (which the
// bookings and cars modules ask before a booking request or a listing). Imports the users module (a
// correction an administrator approves changes the account) and notifications.
import type { AppContext } from '../../context';
import type { Subscriptions } from '../../events/domain-events';
import './privacy.events';
import './privacy.tables';
import { recordRegistrationConsents } from './privacy.service';

export { privacyExportJob, privacyExportsExpireJob } from './privacy.jobs';
export { privacyRoutes } from './privacy.routes';
export { EXCLUDED_TABLES, PERSONAL_TABLES } from './privacy.registry';
export { buildExport, collectRecords, expireExports, requireCurrentPolicies, sendNews } from './privacy.service';

export const privacySubscriptions: Subscriptions<AppContext> = {
  // The acceptances and the marketing choice commit with the new account.
  within: { 'user.registered': [recordRegistrationConsents] },
};
