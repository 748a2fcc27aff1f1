// Mail through an outbox (issue 12; docs/decisions/025-mail-outbox.md): a message is a row written
// in the transaction of the change that causes it, and a worker sends it after the commit, with
// retries and backoff. The row now carries its delivery state: status, attempts, when it may be
// tried next, the lease of the worker sending it, the last error and a stable Message-ID.
// Rows written before keep their meaning: sent stays sent, an error becomes 'failed' (an admin can
// retry it), outbox-only mail becomes 'kept', and SMTP mail that was neither sent nor failed (the
// old inline send died half way) is 'failed' too, so nothing is sent twice without a person asking.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE mail_outbox
    ADD COLUMN status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'kept', 'failed')),
    ADD COLUMN attempts integer NOT NULL DEFAULT 0,
    ADD COLUMN next_attempt_at timestamptz,
    ADD COLUMN locked_until timestamptz,
    ADD COLUMN last_error text,
    ADD COLUMN message_id text`.execute(db);
  await sql`UPDATE mail_outbox SET
    status = CASE
      WHEN sent_at IS NOT NULL THEN 'sent'
      WHEN error IS NOT NULL THEN 'failed'
      WHEN transport = 'outbox' THEN 'kept'
      ELSE 'failed' END,
    attempts = CASE WHEN transport = 'smtp' THEN 1 ELSE 0 END,
    last_error = CASE
      WHEN sent_at IS NULL AND error IS NULL AND transport = 'smtp' THEN 'Not confirmed as sent before the outbox worker existed'
      ELSE error END,
    message_id = '<' || id::text || '@karoo.mail>'`.execute(db);
  // The worker's question: what is due now? Only pending rows are in the index.
  await sql`CREATE INDEX mail_outbox_due_idx ON mail_outbox (next_attempt_at) WHERE status = 'pending'`.execute(db);
  // The admin's question: which mail failed (newest first)?
  await sql`CREATE INDEX mail_outbox_status_idx ON mail_outbox (status, created_at DESC)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS mail_outbox_due_idx`.execute(db);
  await sql`DROP INDEX IF EXISTS mail_outbox_status_idx`.execute(db);
  await sql`ALTER TABLE mail_outbox
    DROP COLUMN status, DROP COLUMN attempts, DROP COLUMN next_attempt_at,
    DROP COLUMN locked_until, DROP COLUMN last_error, DROP COLUMN message_id`.execute(db);
}
