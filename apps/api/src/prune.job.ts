// The daily clean-up of records that only matter for a while (docs/decisions/016-pruning.md):
// ended sessions, used or expired reset and sign-in links, idle sign-in throttles and delivered mail. Safe with
// several API instances: it is a scheduled job on the one queue (decision 038), sent once a day by
// one instance and run by one; and each step is one DELETE of the rows past a cutoff, so two runs
// at once would still delete each row once and nothing else. Tests call pruneOldRecords with their
// clock.
// It composes the users, mail and cars modules' prune steps, so it lives beside app-context.ts, above
// the modules, not in jobs/, which depends on no module (npm run graph checks it).
import type { AppContext } from './context';
import { NO_PAYLOAD, type JobDefinition } from './jobs/queue';
import { deleteMailSentBefore } from './lib/mail-outbox.repository';
import { pruneBrowseChanges } from './modules/cars';
import { pruneLiveEvents } from './modules/notifications';
import { pruneEndedAuthRecords } from './modules/users';

declare module './jobs/queue' {
  interface JobPayloads {
    'records.prune': Record<string, never>;
  }
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Every day at 03:30 in Johannesburg, the quietest hour. */
export const PRUNE_CRON = '30 3 * * *';

/**
 * A session is kept 30 days after it expired or was revoked: long enough for support to see when and
 * from where (IP, browser) an account was used when its owner reports a break-in, and no longer,
 * since an ended session is no use to anyone else (an unknown token reads "session expired" anyway).
 */
export const SESSION_RETENTION_MS = 30 * DAY_MS;

/** A reset or sign-in link is kept 30 days after it was used or expired, for the same support questions. */
export const RESET_TOKEN_RETENTION_MS = 30 * DAY_MS;

/**
 * A sign-in or reset throttle counts events inside a window (a day at most); once the window and
 * any wait ended, a new event starts afresh as if the row were not there. It is kept a day past
 * that, a margin so that a row is never deleted while it could still count or make anyone wait.
 */
export const THROTTLE_RETENTION_MS = DAY_MS;

/**
 * Delivered mail stays 90 days, to answer "I never got the email" about a recent booking or reset.
 * Mail that failed or was never sent (the outbox without SMTP) is not pruned: it is what someone
 * still has to look at.
 */
export const SENT_MAIL_RETENTION_MS = 90 * DAY_MS;

export interface PruneCounts {
  sessions: number;
  resetTokens: number;
  signInLinks: number;
  throttles: number;
  mail: number;
  /** The browse index's change notes (docs/decisions/028-browse-index.md), older than a day. */
  browseChanges: number;
  /** What live streams were told, older than a day (decision 083). */
  liveEvents: number;
}

export async function pruneOldRecords(ctx: AppContext): Promise<PruneCounts> {
  const auth = await pruneEndedAuthRecords(ctx, {
    sessionsMs: SESSION_RETENTION_MS,
    resetTokensMs: RESET_TOKEN_RETENTION_MS,
    throttlesMs: THROTTLE_RETENTION_MS,
  });
  const mail = await deleteMailSentBefore(ctx.db, new Date(ctx.clock.now().getTime() - SENT_MAIL_RETENTION_MS));
  const browseChanges = await pruneBrowseChanges(ctx.db);
  const liveEvents = await pruneLiveEvents(ctx.db, ctx.clock.now());
  return { ...auth, mail, browseChanges, liveEvents };
}

export const pruneJob = (ctx: AppContext): JobDefinition<'records.prune'> => ({
  name: 'records.prune',
  payload: NO_PAYLOAD,
  cron: PRUNE_CRON,
  // Deletes past a cutoff: a failed run is simply tried again, and tomorrow's catches up anyway.
  retry: { limit: 3, delaySeconds: 60, maxDelaySeconds: 15 * 60 },
  timeoutSeconds: 15 * 60,
  pollSeconds: 30,
  run: async (job) => {
    const counts = await pruneOldRecords(ctx);
    if (Object.values(counts).some((n) => n > 0)) job.log.info({ pruned: counts }, 'old records pruned');
  },
});
