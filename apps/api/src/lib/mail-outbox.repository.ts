// SQL for mail_outbox: the record of every message the mailer handled (sent, failed or only kept
// in the outbox), read by admins and the end-to-end tests, and pruned by the daily job.
import type { Db } from '../db/connection';

export interface NewOutboxMail {
  to_address: string;
  subject: string;
  text_body: string;
  html_body?: string | null;
  transport: 'smtp' | 'outbox';
}

export async function insertOutboxMail(db: Db, mail: NewOutboxMail): Promise<string> {
  const row = await db.insertInto('mail_outbox').values(mail).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function markOutboxMailSent(db: Db, id: string, now: Date): Promise<void> {
  await db.updateTable('mail_outbox').set({ sent_at: now }).where('id', '=', id).execute();
}

export async function markOutboxMailFailed(db: Db, id: string, reason: string): Promise<void> {
  await db.updateTable('mail_outbox').set({ error: reason }).where('id', '=', id).execute();
}

/** The newest mail first, optionally only to one address (exact match). */
export function listOutboxMail(db: Db, filters: { to?: string | undefined; limit: number }) {
  let query = db.selectFrom('mail_outbox').selectAll().orderBy('created_at', 'desc').limit(filters.limit);
  if (filters.to) query = query.where('to_address', '=', filters.to);
  return query.execute();
}

/** Deletes mail that was delivered before `cutoff`; failed and never-sent mail stays. Returns the count. */
export async function deleteMailSentBefore(db: Db, cutoff: Date): Promise<number> {
  const result = await db.deleteFrom('mail_outbox').where('sent_at', '<', cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}
