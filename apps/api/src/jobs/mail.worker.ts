// The mail worker (docs/decisions/025-mail-outbox.md): delivers what the outbox holds, after the
// transaction that wrote it has committed. Safe with several API instances running it at once:
// a worker claims due rows in one short statement (FOR UPDATE SKIP LOCKED) and holds them with a
// lease (locked_until), so two workers never take the same row, and a row whose worker died is
// taken again once its lease has passed. A row is marked sent right after the SMTP server accepts
// it; the only way to send twice is a worker dying (or losing the database) between those two
// steps, and every attempt carries the same Message-ID, so such a duplicate is recognisable.
// A refused or failed send is tried again after MAIL_RETRY_DELAYS_MS, and after MAIL_MAX_ATTEMPTS
// the row is 'failed': the admin panel lists it and can send it again.
// Without SMTP_URL the worker "delivers" to the outbox: the row is 'kept' and its links logged.
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import type { AppContext } from '../context';
import { isDatabaseUnavailable } from '../db/connection-errors';
import {
  claimDueMail,
  markOutboxMailAttemptFailed,
  markOutboxMailDelivered,
  releaseOutboxMail,
  type OutboxMailRow,
} from '../lib/mail-outbox.repository';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** The wait after the 1st, 2nd, ... failed attempt: 30 s, 2 min, 10 min, 1 h, 6 h. */
export const MAIL_RETRY_DELAYS_MS = [30 * SECOND, 2 * MINUTE, 10 * MINUTE, HOUR, 6 * HOUR] as const;
/** Attempts before a message is 'failed' (the last one about 7 h 12 min after the first). */
export const MAIL_MAX_ATTEMPTS = MAIL_RETRY_DELAYS_MS.length + 1;
/**
 * How long a claim holds a row. Short, because it is also how long mail waits after its worker
 * died (a crash, kill -9) before another takes it; a send only starts while at least
 * MAIL_SEND_BUDGET_MS of the lease is left, so no send outlives its lease.
 */
export const MAIL_LEASE_MS = 2 * MINUTE;
/** The longest one SMTP send can take (mail.ts SMTP_TIMEOUTS: 10 s + 10 s + 30 s), with margin. */
export const MAIL_SEND_BUDGET_MS = MINUTE;
/** Rows claimed at a time, sent one after another. */
export const MAIL_BATCH_SIZE = 5;
/** How often an idle worker looks for due mail (retries, or mail committed by another instance). */
export const MAIL_POLL_MS = 3 * SECOND;

const silent = pino({ level: 'silent' });

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 500);

/** One attempt at one claimed row, and its outcome recorded. */
async function deliverOne(ctx: AppContext, log: FastifyBaseLogger, mail: OutboxMailRow): Promise<void> {
  // Too little of the lease is left for this row (the process or the database stalled since the
  // claim): another worker may take it before a send could finish, so leave it to the next claim.
  if (mail.locked_until && ctx.clock.now().getTime() + MAIL_SEND_BUDGET_MS > new Date(mail.locked_until).getTime()) return;
  // Claimed more often than allowed: earlier workers died holding it. Stop rather than loop.
  if (mail.attempts > MAIL_MAX_ATTEMPTS) {
    await markOutboxMailAttemptFailed(ctx.db, mail.id, mail.last_error ?? 'The worker stopped while sending it', null);
    return;
  }
  try {
    await ctx.mailer.deliver(mail);
  } catch (error) {
    const reason = reasonOf(error);
    const delay = mail.attempts < MAIL_MAX_ATTEMPTS ? MAIL_RETRY_DELAYS_MS[Math.min(mail.attempts, MAIL_RETRY_DELAYS_MS.length) - 1] : undefined;
    const next = delay === undefined ? null : new Date(ctx.clock.now().getTime() + delay);
    await markOutboxMailAttemptFailed(ctx.db, mail.id, reason, next);
    if (next) log.warn({ mailId: mail.id, mailTo: mail.to_address, attempts: mail.attempts, retryAt: next.toISOString(), reason }, 'mail not sent; will retry');
    else log.error({ mailId: mail.id, mailTo: mail.to_address, attempts: mail.attempts, reason }, 'mail failed after its last attempt');
    return;
  }
  // Right after the server took it: this is the window in which a crash would send it twice.
  const delivered = ctx.mailer.transport === 'smtp' ? 'sent' : 'kept';
  await markOutboxMailDelivered(ctx.db, mail.id, { status: delivered, transport: ctx.mailer.transport, now: ctx.clock.now() });
}

/** Claims one batch of due mail and delivers it; returns how many rows were claimed. */
async function deliverBatch(ctx: AppContext, log: FastifyBaseLogger, stopping: () => boolean): Promise<number> {
  const now = ctx.clock.now();
  const claimed = await claimDueMail(ctx.db, now, new Date(now.getTime() + MAIL_LEASE_MS), MAIL_BATCH_SIZE);
  // One message at a time: a worker killed mid-batch can then have at most one message between the
  // SMTP server's "accepted" and the row's "sent" (the only way a message goes out twice).
  for (const [index, mail] of claimed.entries()) {
    if (stopping()) {
      await releaseOutboxMail(ctx.db, claimed.slice(index).map((m) => m.id));
      break;
    }
    await deliverOne(ctx, log, mail);
  }
  return claimed.length;
}

/**
 * Delivers every message that is due now (by ctx.clock) and returns how many attempts were made.
 * The worker's own step; tests call it to send mail deterministically, then advance their clock
 * to reach the retries.
 */
export async function drainOutbox(ctx: AppContext, log: FastifyBaseLogger = silent): Promise<number> {
  let total = 0;
  for (let claimed = await deliverBatch(ctx, log, () => false); claimed > 0; claimed = await deliverBatch(ctx, log, () => false)) {
    total += claimed;
  }
  return total;
}

/**
 * Starts the worker: it drains the outbox now, whenever the mailer is woken (a commit that queued
 * mail in this process) and every `pollMs` otherwise. Returns `stop`, which resolves once the send
 * in flight (if any) has finished; rows it had claimed but not tried are handed back.
 */
export function startMailWorker(ctx: AppContext, log: FastifyBaseLogger, options: { pollMs?: number } = {}): () => Promise<void> {
  const pollMs = options.pollMs ?? MAIL_POLL_MS;
  let stopped = false;
  let woken = false;
  let wakeUp: (() => void) | null = null;
  const stopListening = ctx.mailer.onWake(() => {
    woken = true;
    wakeUp?.();
  });

  const loop = (async () => {
    while (!stopped) {
      woken = false;
      try {
        while (!stopped && (await deliverBatch(ctx, log, () => stopped)) > 0);
      } catch (error) {
        // The database away: the next poll tries again, and a claim it held expires with its lease.
        if (isDatabaseUnavailable(error)) log.warn({ err: error }, 'the mail worker could not reach the database');
        else log.error({ err: error }, 'the mail worker could not read the outbox');
      }
      if (stopped) break;
      if (woken) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollMs);
        timer.unref();
        wakeUp = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wakeUp = null;
    }
  })();

  return async () => {
    stopped = true;
    stopListening();
    wakeUp?.();
    await loop;
  };
}
