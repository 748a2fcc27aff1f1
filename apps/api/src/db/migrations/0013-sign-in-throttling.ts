// Sign-in throttling that cannot lock the owner out (issue 12; docs/decisions/023-sign-in-throttling.md).
// The old `auth_throttle` counted failures per account name and then locked the account for
// everyone; it is replaced by two tables. `sign_in_throttle` keeps a failure count and a growing
// wait per key: an (account, address) pair, an address, an account. `reset_request_throttle` keeps
// the moments reset mails were granted in the last hour, per email and per address, so "at most 3
// an hour" holds over any hour, not per calendar window. Both only hold short-lived counts: the
// old rows are dropped (at worst a throttle starts afresh once, on the upgrade).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS auth_throttle`.execute(db);
  await sql`
    CREATE TABLE sign_in_throttle (
      key text PRIMARY KEY,
      failures integer NOT NULL CHECK (failures >= 0),
      window_started_at timestamptz NOT NULL,
      last_failed_at timestamptz NOT NULL,
      wait_until timestamptz NOT NULL,
      prev_wait_until timestamptz NOT NULL
    )
  `.execute(db);
  await sql`
    CREATE TABLE reset_request_throttle (
      key text PRIMARY KEY,
      granted_at timestamptz[] NOT NULL
    )
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS reset_request_throttle`.execute(db);
  await sql`DROP TABLE IF EXISTS sign_in_throttle`.execute(db);
  await sql`
    CREATE TABLE auth_throttle (
      key text PRIMARY KEY,
      failures integer NOT NULL,
      window_started_at timestamptz NOT NULL,
      locked_until timestamptz
    )
  `.execute(db);
}
