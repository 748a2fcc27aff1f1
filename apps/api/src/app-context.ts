// Builds the AppContext (context.ts) from what the process opened: the one place where every
// module's per-app state and every module's event subscriptions are wired together. server.ts, the
// tests and the scripts all build their context here, so none of them can forget a part.
import type { AppContext } from './context';
import { createEventBus } from './events/domain-events';
import { mailJob } from './jobs/mail.job';
import { pruneJob } from './prune.job';
import { detachedJobQueue, type AnyJobDefinition } from './jobs/queue';
import { LocalCacheBus } from './lib/cache-bus';
import { createPaymentProvider, createPayoutProvider } from './lib/payments';
import { auditSubscriptions } from './modules/audit';
import { bookingExpiryJob, bookingRemindersJob, bookingsSubscriptions } from './modules/bookings';
import { breachNoticeJob, dataProtectionSubscriptions, documentRetentionJob, documentSealJob, scrubMailJob } from './modules/data-protection';
import { carsSubscriptions, createBrowseIndex, createListingCache, photoConvertJob, photoSweepJob } from './modules/cars';
import { earningsSubscriptions } from './modules/earnings';
import { payoutRunJob, payoutsSubscriptions, payoutSyncJob } from './modules/payouts';
import { messagesSubscriptions } from './modules/messages';
import { notificationsSubscriptions } from './modules/notifications';
import { paymentsSubscriptions, refundAttemptJob, refundSweepJob, tripChangeLapseJob } from './modules/payments';
import { privacyExportJob, privacyExportsExpireJob, privacySubscriptions } from './modules/privacy';
import { reviewRevealJob, reviewsSubscriptions } from './modules/reviews';
import { createSettingsCache, settingsSubscriptions } from './modules/settings';
import { trafficFinesRemindJob, tripChargesSweepJob, tripsSubscriptions } from './modules/trips';

/**
 * Every module's subscriptions, in the order each event's subscribers run: the audit row first,
 * then each module's reactions from the bottom of the module graph up (an account's cars go before
 * its trips).
 */
export const SUBSCRIPTIONS = [
  auditSubscriptions,
  settingsSubscriptions,
  notificationsSubscriptions,
  carsSubscriptions,
  bookingsSubscriptions,
  paymentsSubscriptions,
  earningsSubscriptions,
  payoutsSubscriptions,
  reviewsSubscriptions,
  messagesSubscriptions,
  tripsSubscriptions,
  dataProtectionSubscriptions,
  privacySubscriptions,
];

/** Every job on the queue (decision 038): each module's, defined over the context when it is built. */
export const JOBS: ((ctx: AppContext) => AnyJobDefinition)[] = [mailJob, refundAttemptJob, refundSweepJob, bookingExpiryJob, bookingRemindersJob, pruneJob, reviewRevealJob, photoConvertJob, photoSweepJob, privacyExportJob, privacyExportsExpireJob, scrubMailJob, documentRetentionJob, documentSealJob, breachNoticeJob, tripChargesSweepJob, trafficFinesRemindJob, payoutRunJob, payoutSyncJob, tripChangeLapseJob];

/**
 * What the process opens before the app: the database, mail, files, the clock, the job queue and
 * the shared services. Without a job queue (scripts that enqueue nothing), enqueuing throws.
 */
export type Infrastructure = Omit<AppContext, 'cacheBus' | 'events' | 'payments' | 'payouts' | 'settingsCache' | 'listingCache' | 'browseIndex' | 'jobs'> &
  Partial<Pick<AppContext, 'cacheBus' | 'jobs'>>;

export function createAppContext(infrastructure: Infrastructure): AppContext {
  // Without a shared bus (tests, scripts, one embedded instance) the caches hear this process alone.
  const cacheBus = infrastructure.cacheBus ?? new LocalCacheBus();
  const { db, env } = infrastructure;
  const ctx: AppContext = {
    ...infrastructure,
    jobs: infrastructure.jobs ?? detachedJobQueue(),
    cacheBus,
    events: createEventBus(SUBSCRIPTIONS),
    payments: createPaymentProvider(env, db),
    payouts: createPayoutProvider(env, db, infrastructure.clock),
    settingsCache: createSettingsCache(cacheBus),
    listingCache: createListingCache(cacheBus),
    browseIndex: createBrowseIndex(db, env.BROWSE_INDEX_POLL_MS, cacheBus),
  };
  for (const job of JOBS) ctx.jobs.define(job(ctx));
  return ctx;
}
