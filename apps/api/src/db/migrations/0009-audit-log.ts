// The audit log (issue 10): every change an administrator makes (verifying, rejecting, deleting,
// force returning, settings, payouts, role changes, booking decisions) with who, when, what, and
// the values before and after. Written in the same transaction as the change itself.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE audit_log (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      seq bigint GENERATED ALWAYS AS IDENTITY,
      admin_id uuid NOT NULL REFERENCES users (id),
      admin_username text NOT NULL,
      action text NOT NULL,
      target_type text NOT NULL,
      target_id text,
      target_label text,
      before jsonb,
      after jsonb,
      reason text,
      created_at timestamptz NOT NULL DEFAULT now()
    )
  `.execute(db);
  await sql`CREATE INDEX audit_log_order_idx ON audit_log (created_at DESC, seq DESC)`.execute(db);
  await sql`CREATE INDEX audit_log_action_idx ON audit_log (action, created_at DESC)`.execute(db);
  await sql`CREATE INDEX audit_log_admin_idx ON audit_log (admin_id, created_at DESC)`.execute(db);
  await sql`CREATE INDEX audit_log_target_idx ON audit_log (target_type, target_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS audit_log`.execute(db);
}
