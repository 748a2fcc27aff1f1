import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE users (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      username text NOT NULL,
      email text NOT NULL,
      password_hash text NOT NULL,
      full_name text NOT NULL,
      phone_number text,
      address text,
      id_number text,
      bank_account_number text,
      bank_code text,
      role text NOT NULL DEFAULT 'customer' CHECK (role IN ('admin', 'host', 'customer')),
      user_type text,
      verification_status text NOT NULL DEFAULT 'pending_verification'
        CHECK (verification_status IN ('pending_upload', 'pending_verification', 'verified', 'rejected')),
      verification_notes text,
      verified_at timestamptz,
      host_since timestamptz,
      rating numeric(3, 2),
      total_trips integer NOT NULL DEFAULT 0,
      terms_accepted_at timestamptz,
      privacy_accepted_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      deleted_at timestamptz
    );
    CREATE UNIQUE INDEX users_username_key ON users (lower(username));
    CREATE UNIQUE INDEX users_email_key ON users (lower(email));
    CREATE INDEX users_status_idx ON users (verification_status) WHERE deleted_at IS NULL;

    CREATE TABLE sessions (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      token_hash text NOT NULL UNIQUE,
      expires_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      last_used_at timestamptz NOT NULL DEFAULT now(),
      revoked_at timestamptz,
      user_agent text,
      ip text
    );
    CREATE INDEX sessions_user_idx ON sessions (user_id);

    CREATE TABLE password_reset_tokens (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      token_hash text NOT NULL UNIQUE,
      expires_at timestamptz NOT NULL,
      used_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX password_reset_tokens_user_idx ON password_reset_tokens (user_id);

    CREATE TABLE user_documents (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      type text NOT NULL CHECK (type IN ('id_document', 'driver_license', 'proof_of_address', 'bank_confirmation_letter')),
      storage_key text NOT NULL,
      original_name text NOT NULL,
      mime_type text NOT NULL,
      size_bytes integer NOT NULL,
      uploaded_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (user_id, type)
    );

    CREATE TABLE notifications (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      type text NOT NULL,
      title text NOT NULL,
      message text NOT NULL,
      link text,
      read boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX notifications_user_idx ON notifications (user_id, created_at DESC);

    CREATE TABLE mail_outbox (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      to_address text NOT NULL,
      subject text NOT NULL,
      text_body text NOT NULL,
      html_body text,
      transport text NOT NULL CHECK (transport IN ('smtp', 'outbox')),
      sent_at timestamptz,
      error text,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX mail_outbox_created_idx ON mail_outbox (created_at DESC);

    CREATE TABLE auth_throttle (
      key text PRIMARY KEY,
      failures integer NOT NULL,
      window_started_at timestamptz NOT NULL,
      locked_until timestamptz
    );
  `.execute(db);
}
