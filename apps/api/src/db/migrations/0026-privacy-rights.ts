// POPIA rights in the product (issue 24, decision 049), the privacy module's tables:
// - privacy_consents: every acceptance of the terms and privacy notice (with the version) and every
//   marketing choice (with the exact wording shown), append-only: the latest row of a kind is the
//   person's current answer, the rows before it the history the Act asks us to be able to show.
// - data_exports: a person's "download everything" request, built by a job into the private store,
//   downloadable by them for 24 hours; then its file is deleted and the row says 'expired'.
// - correction_requests: a correction of a field the person cannot change themselves (a verified
//   identity or bank detail), answered by an administrator.
// mail_outbox learns what kind of mail a row is and to whom it belongs, so the mail layer can refuse
// marketing without consent at queueing and again at delivery, and carries the unsubscribe headers.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE privacy_consents (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind IN ('terms', 'privacy', 'marketing')),
      version text NOT NULL CHECK (length(version) BETWEEN 1 AND 40),
      wording text NOT NULL CHECK (length(wording) BETWEEN 1 AND 2000),
      granted boolean NOT NULL,
      source text NOT NULL CHECK (source IN ('register', 'privacy_page', 'sign_in', 'unsubscribe', 'migration')),
      unsubscribe_token text UNIQUE,
      recorded_at timestamptz NOT NULL,
      CHECK (granted OR unsubscribe_token IS NULL),
      CHECK (kind = 'marketing' OR granted)
    )
  `.execute(db);
  await sql`CREATE INDEX privacy_consents_latest_idx ON privacy_consents (user_id, kind, recorded_at DESC)`.execute(db);
  // Everyone who accepted the terms and privacy notice before versions were recorded accepted the
  // versions in force then, which are the first recorded ones ('2025-01').
  await sql`
    INSERT INTO privacy_consents (user_id, kind, version, wording, granted, source, recorded_at)
    SELECT id, 'terms', '2025-01', 'I agree to the Terms and Conditions', true, 'migration', terms_accepted_at FROM users WHERE terms_accepted_at IS NOT NULL
    UNION ALL
    SELECT id, 'privacy', '2025-01', 'I agree to the Privacy Policy', true, 'migration', privacy_accepted_at FROM users WHERE privacy_accepted_at IS NOT NULL
  `.execute(db);

  await sql`
    CREATE TABLE data_exports (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      status text NOT NULL DEFAULT 'preparing' CHECK (status IN ('preparing', 'ready', 'expired', 'failed')),
      storage_key text,
      size_bytes bigint,
      requested_at timestamptz NOT NULL,
      ready_at timestamptz,
      expires_at timestamptz,
      CHECK ((status = 'ready') = (storage_key IS NOT NULL)),
      CHECK ((status IN ('ready', 'expired')) = (ready_at IS NOT NULL AND expires_at IS NOT NULL))
    )
  `.execute(db);
  await sql`CREATE INDEX data_exports_user_idx ON data_exports (user_id, requested_at DESC)`.execute(db);
  // One export in preparation per person at a time.
  await sql`CREATE UNIQUE INDEX data_exports_one_preparing ON data_exports (user_id) WHERE status = 'preparing'`.execute(db);

  await sql`
    CREATE TABLE correction_requests (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      field text NOT NULL CHECK (field IN ('full_name', 'email', 'address', 'id_number', 'bank_account_number', 'bank_code')),
      current_value text,
      proposed_value text NOT NULL CHECK (length(proposed_value) BETWEEN 1 AND 300),
      reason text NOT NULL CHECK (length(reason) BETWEEN 1 AND 1000),
      status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'approved', 'declined')),
      decided_by uuid REFERENCES users (id),
      decided_at timestamptz,
      decision_note text,
      created_at timestamptz NOT NULL,
      CHECK ((status = 'open') = (decided_at IS NULL) AND (decided_at IS NULL) = (decided_by IS NULL) AND (decided_at IS NULL) = (decision_note IS NULL))
    )
  `.execute(db);
  await sql`CREATE UNIQUE INDEX correction_requests_one_open ON correction_requests (user_id, field) WHERE status = 'open'`.execute(db);
  await sql`CREATE INDEX correction_requests_open_idx ON correction_requests (created_at) WHERE status = 'open'`.execute(db);

  await sql`
    ALTER TABLE mail_outbox
      ADD COLUMN kind text NOT NULL DEFAULT 'transactional' CHECK (kind IN ('transactional', 'marketing')),
      ADD COLUMN user_id uuid REFERENCES users (id) ON DELETE SET NULL,
      ADD COLUMN headers jsonb
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE mail_outbox DROP COLUMN headers, DROP COLUMN user_id, DROP COLUMN kind`.execute(db);
  await sql`DROP TABLE IF EXISTS correction_requests`.execute(db);
  await sql`DROP TABLE IF EXISTS data_exports`.execute(db);
  await sql`DROP TABLE IF EXISTS privacy_consents`.execute(db);
}
