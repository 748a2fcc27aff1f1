// POPIA on the platform's side (issue 24; docs/decisions/050-account-deletion-retention-breaches.md):
// - account_deletions: the register of erased accounts (when, what was erased, what is kept until when);
// - user_documents: when a file was erased and why, who verified it and when (kept after the file goes),
//   and whether its bytes are encrypted at rest (the encryption sweep marks each file it has seen);
// - cars.registration_encrypted: the same mark for a car's registration document;
// - data_breaches and data_breach_notices: a recorded security compromise and each affected person's notice;
// - the append-only triggers (ledger, messages, trip records, disputes, message reports) skip the
//   erasure of an account's personal text, and only that: a second trigger, active only inside an
//   erasure (the transaction-local setting karoo.erasure = 'on'), refuses any change but to the
//   named text columns, and any delete.
import { sql, type Kysely } from 'kysely';

/** Tables whose rows never change, and the text columns an erasure may rewrite. */
const GUARDED: { table: string; trigger: string; fn: string; events: string; text: string[] }[] = [
  { table: 'ledger_entries', trigger: 'ledger_entries_append_only', fn: 'ledger_entries_append_only', events: 'UPDATE OR DELETE', text: ['reason', 'last_error'] },
  { table: 'booking_messages', trigger: 'booking_messages_append_only', fn: 'booking_messages_append_only', events: 'UPDATE', text: ['body'] },
  { table: 'trip_records', trigger: 'trip_records_append_only', fn: 'trip_rows_append_only', events: 'UPDATE OR DELETE', text: ['note'] },
  { table: 'trip_disputes', trigger: 'trip_disputes_resolve_once', fn: 'trip_disputes_resolve_once', events: 'UPDATE OR DELETE', text: ['description', 'resolution_note'] },
  { table: 'booking_message_reports', trigger: 'booking_message_reports_resolve_once', fn: 'booking_message_reports_resolve_once', events: 'UPDATE', text: ['reason', 'resolution_note'] },
];

const ERASING = sql.raw(`current_setting('karoo.erasure', true) = 'on'`);

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE account_deletions (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL UNIQUE REFERENCES users (id),
      role text NOT NULL,
      deleted_at timestamptz NOT NULL,
      erased jsonb NOT NULL,
      kept jsonb NOT NULL,
      records_kept_until date NOT NULL
    )
  `.execute(db);
  await sql`CREATE INDEX account_deletions_order_idx ON account_deletions (deleted_at DESC)`.execute(db);

  await sql`
    ALTER TABLE user_documents
      ADD COLUMN file_erased_at timestamptz,
      ADD COLUMN erasure_reason text CHECK (erasure_reason IN ('verified_retention', 'rejected', 'not_submitted', 'account_deleted')),
      ADD COLUMN verified_by uuid REFERENCES users (id),
      ADD COLUMN verified_at timestamptz,
      ADD COLUMN encrypted boolean NOT NULL DEFAULT false
  `.execute(db);
  await sql`CREATE INDEX user_documents_unencrypted_idx ON user_documents (uploaded_at) WHERE NOT encrypted AND file_erased_at IS NULL`.execute(db);
  await sql`ALTER TABLE cars ADD COLUMN registration_encrypted boolean NOT NULL DEFAULT false`.execute(db);

  await sql`
    CREATE TABLE data_breaches (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
      summary text NOT NULL CHECK (char_length(summary) BETWEEN 10 AND 4000),
      discovered_at timestamptz NOT NULL,
      data_categories jsonb NOT NULL,
      measures text NOT NULL CHECK (char_length(measures) BETWEEN 10 AND 4000),
      advice text NOT NULL CHECK (char_length(advice) BETWEEN 10 AND 4000),
      scope text NOT NULL CHECK (scope IN ('all', 'listed')),
      recorded_by uuid NOT NULL REFERENCES users (id),
      recorded_at timestamptz NOT NULL,
      regulator_notified_at timestamptz,
      affected_count integer NOT NULL DEFAULT 0
    )
  `.execute(db);
  await sql`
    CREATE TABLE data_breach_notices (
      breach_id uuid NOT NULL REFERENCES data_breaches (id),
      user_id uuid NOT NULL REFERENCES users (id),
      notified_at timestamptz,
      PRIMARY KEY (breach_id, user_id)
    )
  `.execute(db);
  await sql`CREATE INDEX data_breach_notices_waiting_idx ON data_breach_notices (breach_id) WHERE notified_at IS NULL`.execute(db);

  await sql`
    CREATE FUNCTION erasure_changes_text_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'DELETE' THEN
        RAISE EXCEPTION 'an erasure never deletes a kept record (%)', TG_TABLE_NAME USING ERRCODE = 'check_violation';
      END IF;
      IF (to_jsonb(NEW) - TG_ARGV) <> (to_jsonb(OLD) - TG_ARGV) THEN
        RAISE EXCEPTION 'an erasure only rewrites personal text in % (%)', TG_TABLE_NAME, array_to_string(TG_ARGV, ', ') USING ERRCODE = 'check_violation';
      END IF;
      RETURN NEW;
    END $$
  `.execute(db);
  for (const g of GUARDED) {
    await sql`DROP TRIGGER ${sql.ref(g.trigger)} ON ${sql.table(g.table)}`.execute(db);
    await sql`
      CREATE TRIGGER ${sql.ref(g.trigger)} BEFORE ${sql.raw(g.events)} ON ${sql.table(g.table)}
      FOR EACH ROW WHEN (NOT coalesce(${ERASING}, false)) EXECUTE FUNCTION ${sql.raw(g.fn)}()
    `.execute(db);
    await sql`
      CREATE TRIGGER ${sql.ref(`${g.table}_erasure_text_only`)} BEFORE ${sql.raw(g.events)} ON ${sql.table(g.table)}
      FOR EACH ROW WHEN (coalesce(${ERASING}, false)) EXECUTE FUNCTION erasure_changes_text_only(${sql.raw(g.text.map((c) => `'${c}'`).join(', '))})
    `.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const g of GUARDED) {
    await sql`DROP TRIGGER IF EXISTS ${sql.ref(`${g.table}_erasure_text_only`)} ON ${sql.table(g.table)}`.execute(db);
    await sql`DROP TRIGGER IF EXISTS ${sql.ref(g.trigger)} ON ${sql.table(g.table)}`.execute(db);
    await sql`CREATE TRIGGER ${sql.ref(g.trigger)} BEFORE ${sql.raw(g.events)} ON ${sql.table(g.table)} FOR EACH ROW EXECUTE FUNCTION ${sql.raw(g.fn)}()`.execute(db);
  }
  await sql`DROP FUNCTION IF EXISTS erasure_changes_text_only()`.execute(db);
  await sql`DROP TABLE IF EXISTS data_breach_notices`.execute(db);
  await sql`DROP TABLE IF EXISTS data_breaches`.execute(db);
  await sql`ALTER TABLE cars DROP COLUMN IF EXISTS registration_encrypted`.execute(db);
  await sql`DROP INDEX IF EXISTS user_documents_unencrypted_idx`.execute(db);
  await sql`
    ALTER TABLE user_documents
      DROP COLUMN IF EXISTS encrypted, DROP COLUMN IF EXISTS verified_at, DROP COLUMN IF EXISTS verified_by,
      DROP COLUMN IF EXISTS erasure_reason, DROP COLUMN IF EXISTS file_erased_at
  `.execute(db);
  await sql`DROP TABLE IF EXISTS account_deletions`.execute(db);
}
