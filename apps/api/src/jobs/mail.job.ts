// The mail job (docs/decisions/025-mail-outbox.md, 038-one-job-queue.md, 058-mail-masking-and-ledger-guards.md):
// 'mail.send' delivers one outbox row. It is enqueued with the row, in the transaction of the change
// that wrote it, so it runs only for a committed message. Every attempt sends the row's stored
// Message-ID, so a message that goes out twice is recognisably one. A refused or failed send throws:
// pg-boss tries again with exponential backoff, and after MAIL_MAX_ATTEMPTS the row is 'failed' (the
// admin panel lists it and can send it again) and the job is in 'mail.send.dead'.
// Once the SMTP server has taken a message, recording 'sent' must not be lost to a dropped database
// connection (a terminated backend, a failover): the update is tried again for MAIL_RECORD_WINDOW_MS,
// and the instance remembers the delivery, so that a retry it runs records it instead of sending it
// again. What is left is a crash of the process itself (or a database away for longer than the
// window, the retry then run by another instance) between the server's 250 and the commit: that
// message goes out again, with the same Message-ID; an attempt that finds its predecessor unfinished
// says so in the log.
// Without SMTP_URL the job "delivers" to the outbox: the row is 'kept' and its links logged.
import { z } from 'zod';
import type { AppContext } from '../context';

/** What delivering mail needs of the app: the outbox's database, the clock and the mailer. */
type MailJobContext = Pick<AppContext, 'db' | 'clock' | 'mailer'>;
import { hasMarketingConsent, MARKETING_CONSENT_WITHDRAWN } from '../lib/marketing-consent';
import { markOutboxMailAttemptFailed, markOutboxMailDelivered, startOutboxMailAttempt } from '../lib/mail-outbox.repository';
import type { JobDefinition, QueuedJob, RetryPolicy } from './queue';

declare module './queue' {
  interface JobPayloads {
    /** One outbox row to deliver. */
    'mail.send': { mailId: string };
  }
}

/**
 * 9 retries, the n-th after 30 s × 2^(n-1) (times a random 1 to 2), at most 2 h: the last one comes
 * 4 to 8 hours after the first attempt, long enough to ride out an SMTP server's bad morning.
 */
export const MAIL_RETRY: RetryPolicy = { limit: 9, delaySeconds: 30, maxDelaySeconds: 2 * 60 * 60 };
/** Attempts before a message is 'failed'. */
export const MAIL_MAX_ATTEMPTS = MAIL_RETRY.limit + 1;
/**
 * How long an attempt may run before its worker is taken for dead and the job tried again; also how
 * long mail waits after its worker died. One SMTP send takes 50 s at most (mail.ts SMTP_DEFAULTS).
 */
export const MAIL_TIMEOUT_SECONDS = 120;
/** How often an idle mail worker looks for due mail (retries, mail committed by another instance). */
export const MAIL_POLL_SECONDS = 2;
/**
 * How long a delivered message's 'sent' is tried against a database that dropped the connection.
 * With one SMTP send's 50 s it stays inside MAIL_TIMEOUT_SECONDS, so no retry starts meanwhile.
 */
export const MAIL_RECORD_WINDOW_MS = 60_000;
const RECORD_FIRST_WAIT_MS = 100;
const RECORD_LONGEST_WAIT_MS = 5_000;
/** Deliveries an instance remembers while their 'sent' has not reached the database (oldest forgotten first). */
const REMEMBERED_DELIVERIES = 10_000;

export interface MailJobOptions {
  /** MAIL_RECORD_WINDOW_MS unless told (tests). */
  recordWindowMs?: number;
}

/** What one instance's mail job keeps between attempts: the messages it delivered whose 'sent' is not recorded yet. */
interface MailJobState {
  deliveredUnrecorded: Set<string>;
  recordWindowMs: number;
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 500);

/** The soonest the retry after failed attempt number `attempt` can come (the admin's "next attempt"). */
export function earliestMailRetry(now: Date, attempt: number): Date {
  const seconds = Math.min(MAIL_RETRY.maxDelaySeconds, MAIL_RETRY.delaySeconds * 2 ** (attempt - 1));
  return new Date(now.getTime() + seconds * 1000);
}

/**
 * 'sent' (or 'kept') for a message the server took, tried again with backoff while the database
 * refuses (a dropped connection is answered by a fresh one from the pool). The window is measured
 * on the process's own monotonic clock: it bounds a wait for the database, not a business time.
 */
async function recordDelivered(ctx: MailJobContext, mailId: string, state: MailJobState): Promise<void> {
  const status = ctx.mailer.transport === 'smtp' ? 'sent' : 'kept';
  const started = performance.now();
  for (let wait = RECORD_FIRST_WAIT_MS; ; wait = Math.min(wait * 2, RECORD_LONGEST_WAIT_MS)) {
    try {
      await markOutboxMailDelivered(ctx.db, mailId, { status, transport: ctx.mailer.transport, now: ctx.clock.now() });
      state.deliveredUnrecorded.delete(mailId);
      return;
    } catch (error) {
      const elapsed = performance.now() - started;
      if (elapsed >= state.recordWindowMs) throw error;
      await pause(Math.min(wait, state.recordWindowMs - elapsed));
    }
  }
}

function rememberDelivered(state: MailJobState, mailId: string): void {
  state.deliveredUnrecorded.add(mailId);
  if (state.deliveredUnrecorded.size > REMEMBERED_DELIVERIES) {
    const oldest = state.deliveredUnrecorded.values().next().value;
    if (oldest !== undefined) state.deliveredUnrecorded.delete(oldest);
  }
}

/** One attempt at one outbox row, and its outcome recorded on the row. */
export async function deliverOutboxMail(ctx: MailJobContext, job: QueuedJob<'mail.send'>, state: MailJobState): Promise<void> {
  const { mailId } = job.data;
  // This instance delivered it and could not record so: record it now, never send it again.
  if (state.deliveredUnrecorded.has(mailId)) return recordDelivered(ctx, mailId, state);
  const started = await startOutboxMailAttempt(ctx.db, mailId, new Date(ctx.clock.now().getTime() + MAIL_TIMEOUT_SECONDS * 1000));
  // Delivered by an earlier attempt (whose job was then taken for dead), given up, or pruned.
  if (!started) return;
  const { mail, afterUnfinishedAttempt } = started;
  if (afterUnfinishedAttempt) {
    job.log.warn(
      { mailId, messageId: mail.message_id, attempt: job.attempt },
      'mail.send: an earlier attempt ended without recording its outcome (its worker died or lost the database); sending again with the same Message-ID',
    );
  }
  // Marketing goes out only while the person still wants it (decision 049): withdrawn meanwhile, never sent.
  if (mail.kind === 'marketing' && !(mail.user_id && (await hasMarketingConsent(ctx.db, mail.user_id)))) {
    await markOutboxMailAttemptFailed(ctx.db, mail.id, MARKETING_CONSENT_WITHDRAWN, null);
    return;
  }
  try {
    await ctx.mailer.deliver(mail);
  } catch (error) {
    const next = job.isLastAttempt ? null : earliestMailRetry(ctx.clock.now(), job.attempt);
    await markOutboxMailAttemptFailed(ctx.db, mail.id, reasonOf(error), next);
    throw error;
  }
  // The server took it: from here on, a lost 'sent' would send it twice.
  rememberDelivered(state, mail.id);
  await recordDelivered(ctx, mail.id, state);
}

export function mailJob(ctx: MailJobContext, options: MailJobOptions = {}): JobDefinition<'mail.send'> {
  const state: MailJobState = { deliveredUnrecorded: new Set(), recordWindowMs: options.recordWindowMs ?? MAIL_RECORD_WINDOW_MS };
  return {
    name: 'mail.send',
    payload: z.object({ mailId: z.uuid() }),
    retry: MAIL_RETRY,
    timeoutSeconds: MAIL_TIMEOUT_SECONDS,
    pollSeconds: MAIL_POLL_SECONDS,
    run: (job) => deliverOutboxMail(ctx, job, state),
  };
}
