// Sign-in links (issue 18; docs/decisions/030-proxies-and-sign-in-links.md): when password sign-in
// is throttled or the account has reached its cap of consecutive failures, the owner can ask for a
// one-time link to the account's email. Like reset links, only the token's hash is kept; a link
// works once (used_at), within 15 minutes (expires_at), and goes with the account.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE sign_in_links (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      token_hash text NOT NULL UNIQUE,
      expires_at timestamptz NOT NULL,
      used_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    )
  `.execute(db);
  await sql`CREATE INDEX sign_in_links_user_idx ON sign_in_links (user_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS sign_in_links`.execute(db);
}
