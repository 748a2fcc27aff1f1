// The daily clean-up of records that only matter for a while (docs/decisions/016-pruning.md):
// ended sessions, used or expired reset and sign-in links, idle sign-in throttles and delivered mail. Safe with
// several API instances: each step is one DELETE of the rows past a cutoff, so two instances (or two
// runs) at once delete each row once and nothing else. Tests call pruneOldRecords with their clock;
// server.ts alone starts the timer.
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../context';
import { startIntervalJob, type IntervalJob } from './interval-job';
import { deleteMailSentBefore } from '../lib/mail-outbox.repository';
import { pruneBrowseChanges } from '../modules/cars';
import { pruneEndedAuthRecords } from '../modules/users';

const DAY_MS = 24 * 60 * 60 * 1000;

export const PRUNE_INTERVAL_MS = DAY_MS;

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
}

export async function pruneOldRecords(ctx: AppContext): Promise<PruneCounts> {
  const auth = await pruneEndedAuthRecords(ctx, {
    sessionsMs: SESSION_RETENTION_MS,
    resetTokensMs: RESET_TOKEN_RETENTION_MS,
    throttlesMs: THROTTLE_RETENTION_MS,
  });
  const mail = await deleteMailSentBefore(ctx.db, new Date(ctx.clock.now().getTime() - SENT_MAIL_RETENTION_MS));
  const browseChanges = await pruneBrowseChanges(ctx.db);
  return { ...auth, mail, browseChanges };
}

/** Prunes at start and then once a day; returns the job, to stop it. */
export function startPruneJob(ctx: AppContext, log: FastifyBaseLogger, intervalMs = PRUNE_INTERVAL_MS): IntervalJob {
  return startIntervalJob({
    name: 'prune',
    intervalMs,
    log,
    runtime: ctx.runtime,
    run: async () => {
      const counts = await pruneOldRecords(ctx);
      if (Object.values(counts).some((n) => n > 0)) log.info({ pruned: counts }, 'old records pruned');
    },
  });
}
