// SQL for mail_outbox: every message Karoo sends, written in the transaction that causes it together
// with its 'mail.send' job, and delivered by that job (jobs/mail.job.ts). The row is the message
// and its delivery state; pg-boss holds the job's claim, retries and dead letter. Read by admins and
// the end-to-end tests, and pruned by the daily job.
import type { Selectable } from 'kysely';
import type { Db } from '../db/connection';
import type { MailKind, MailOutboxTable, MailStatus } from '../db/schema';

export type OutboxMailRow = Selectable<MailOutboxTable>;

export interface NewOutboxMail {
  id?: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body?: string | null;
  transport: 'smtp' | 'outbox';
  message_id?: string | null;
  next_attempt_at?: Date | null;
  kind?: MailKind;
  user_id?: string | null;
  /** JSON of the extra headers. */
  headers?: string | null;
}

export async function insertOutboxMail(db: Db, mail: NewOutboxMail): Promise<string> {
  const row = await db.insertInto('mail_outbox').values(mail).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/**
 * The start of one delivery attempt: counts it, marks the row as being sent until `sendingUntil`
 * (cleared when the attempt records its outcome), and returns the row, or undefined when the message
 * is no longer waiting to be sent (delivered by an earlier attempt, given up, or pruned).
 * `afterUnfinishedAttempt` says an earlier attempt started and never recorded how it ended (its
 * worker died, or lost the database, perhaps after the SMTP server had taken the message).
 */
export async function startOutboxMailAttempt(db: Db, id: string, sendingUntil: Date): Promise<{ mail: OutboxMailRow; afterUnfinishedAttempt: boolean } | undefined> {
  const before = await db.selectFrom('mail_outbox').select('locked_until').where('id', '=', id).where('status', '=', 'pending').executeTakeFirst();
  if (!before) return undefined;
  const mail = await db
    .updateTable('mail_outbox')
    .set((eb) => ({ attempts: eb('attempts', '+', 1), locked_until: sendingUntil }))
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .returningAll()
    .executeTakeFirst();
  return mail ? { mail, afterUnfinishedAttempt: before.locked_until !== null } : undefined;
}

/** Delivered: 'sent' through SMTP, or 'kept' in the outbox when there is no SMTP server. */
export async function markOutboxMailDelivered(db: Db, id: string, outcome: { status: 'sent' | 'kept'; transport: 'smtp' | 'outbox'; now: Date }): Promise<void> {
  await db
    .updateTable('mail_outbox')
    .set({ status: outcome.status, transport: outcome.transport, sent_at: outcome.status === 'sent' ? outcome.now : null, locked_until: null })
    .where('id', '=', id)
    // Only a row still being tried: a late answer never rewrites what another worker recorded.
    .where('status', '=', 'pending')
    .execute();
}

/** A failed attempt: tried again not before `nextAttemptAt`, or given up ('failed') when it is null. */
export async function markOutboxMailAttemptFailed(db: Db, id: string, reason: string, nextAttemptAt: Date | null): Promise<void> {
  await db
    .updateTable('mail_outbox')
    .set({
      status: nextAttemptAt ? 'pending' : 'failed',
      next_attempt_at: nextAttemptAt,
      locked_until: null,
      last_error: reason,
      error: reason,
    })
    .where('id', '=', id)
    // An attempt that fails after another one delivered the row (a worker taken for dead) changes nothing.
    .where('status', '=', 'pending')
    .execute();
}

/** Failed mail goes back to the queue with fresh attempts; undefined unless the row is 'failed'. */
export function requeueFailedMail(db: Db, id: string, now: Date): Promise<OutboxMailRow | undefined> {
  return db
    .updateTable('mail_outbox')
    .set({ status: 'pending', attempts: 0, next_attempt_at: now, locked_until: null })
    .where('id', '=', id)
    .where('status', '=', 'failed')
    .returningAll()
    .executeTakeFirst();
}

export function findOutboxMail(db: Db, id: string): Promise<OutboxMailRow | undefined> {
  return db.selectFrom('mail_outbox').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The newest mail first, optionally only to one address (exact match) or in one status. */
export function listOutboxMail(db: Db, filters: { to?: string | undefined; status?: MailStatus | undefined; limit: number }) {
  let query = db.selectFrom('mail_outbox').selectAll().orderBy('created_at', 'desc').orderBy('id').limit(filters.limit);
  if (filters.to) query = query.where('to_address', '=', filters.to);
  if (filters.status) query = query.where('status', '=', filters.status);
  return query.execute();
}

/** Deletes mail that was delivered before `cutoff`; failed and never-sent mail stays. Returns the count. */
export async function deleteMailSentBefore(db: Db, cutoff: Date): Promise<number> {
  const result = await db.deleteFrom('mail_outbox').where('sent_at', '<', cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The outbox's backlog for /metrics: mail due now and not yet delivered, and the oldest one's due time. */
export async function outboxBacklog(db: Db, now: Date): Promise<{ due: number; oldestDueAt: Date | null; failed: number }> {
  const due = await db
    .selectFrom('mail_outbox')
    .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.min(eb.fn.coalesce('next_attempt_at', 'created_at')).as('oldest')])
    .where('status', '=', 'pending')
    .where((w) => w.or([w('next_attempt_at', 'is', null), w('next_attempt_at', '<=', now)]))
    .executeTakeFirstOrThrow();
  const failed = await db.selectFrom('mail_outbox').select((eb) => eb.fn.countAll<number>().as('count')).where('status', '=', 'failed').executeTakeFirstOrThrow();
  return { due: Number(due.count), oldestDueAt: due.oldest ? new Date(due.oldest as unknown as string) : null, failed: Number(failed.count) };
}
