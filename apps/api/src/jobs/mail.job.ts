// The mail job (docs/decisions/025-mail-outbox.md, 038-one-job-queue.md): 'mail.send' delivers one
// outbox row. It is enqueued with the row, in the transaction of the change that wrote it, so it
// runs only for a committed message. Every attempt sends the row's stored Message-ID, so a message
// that goes out twice (a worker dying between the SMTP server's "accepted" and the row's "sent", the
// one window no SMTP client can close) is recognisably one. A refused or failed send throws: pg-boss
// tries again with exponential backoff, and after MAIL_MAX_ATTEMPTS the row is 'failed' (the admin
// panel lists it and can send it again) and the job is in 'mail.send.dead'.
// Without SMTP_URL the job "delivers" to the outbox: the row is 'kept' and its links logged.
import type { AppContext } from '../context';
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

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 500);

/** The soonest the retry after failed attempt number `attempt` can come (the admin's "next attempt"). */
export function earliestMailRetry(now: Date, attempt: number): Date {
  const seconds = Math.min(MAIL_RETRY.maxDelaySeconds, MAIL_RETRY.delaySeconds * 2 ** (attempt - 1));
  return new Date(now.getTime() + seconds * 1000);
}

/** One attempt at one outbox row, and its outcome recorded on the row. */
export async function deliverOutboxMail(ctx: AppContext, job: QueuedJob<'mail.send'>): Promise<void> {
  const mail = await startOutboxMailAttempt(ctx.db, job.data.mailId);
  // Delivered by an earlier attempt (whose job was then taken for dead), given up, or pruned.
  if (!mail) return;
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
  // Right after the server took it: this is the window in which a crash would send it twice.
  const delivered = ctx.mailer.transport === 'smtp' ? 'sent' : 'kept';
  await markOutboxMailDelivered(ctx.db, mail.id, { status: delivered, transport: ctx.mailer.transport, now: ctx.clock.now() });
}

export const mailJob = (ctx: AppContext): JobDefinition<'mail.send'> => ({
  name: 'mail.send',
  retry: MAIL_RETRY,
  timeoutSeconds: MAIL_TIMEOUT_SECONDS,
  pollSeconds: MAIL_POLL_SECONDS,
  run: (job) => deliverOutboxMail(ctx, job),
});
