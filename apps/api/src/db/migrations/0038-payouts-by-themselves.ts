// Payouts sent by themselves (issue 35; docs/decisions/068-payouts-by-themselves.md).
// - host_payout_accounts: a host's checked bank account (the bank's name for its holder, the
//   provider's recipient code), the hold a change puts on payouts, the host's schedule, and an
//   administrator's pause of that host's payouts (with its reason);
// - payout_transfers: one transfer per host per run (run_key unique: two instances running the job
//   at once make one), its reference (ours, sent to the provider, so a retried request is one
//   transfer), its state and the provider's code; the money is in ledger_entries (payout rows when
//   it is sent, payout_reversal rows when it fails or is reversed), each naming the reference;
// - sandbox_transfers: the local sandbox provider's own books of the transfers it was asked for.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE host_payout_accounts (
      host_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
      bank_code text NOT NULL,
      bank_name text NOT NULL,
      account_number text NOT NULL,
      account_name text NOT NULL,
      recipient_code text NOT NULL,
      confirmed_at timestamptz NOT NULL,
      hold_until timestamptz,
      schedule text NOT NULL DEFAULT 'weekly' CHECK (schedule IN ('trip', 'weekly', 'monthly')),
      weekday integer NOT NULL DEFAULT 5 CHECK (weekday BETWEEN 1 AND 5),
      month_day integer NOT NULL DEFAULT 25 CHECK (month_day BETWEEN 1 AND 28),
      paused_at timestamptz,
      paused_reason text,
      paused_by uuid REFERENCES users (id) ON DELETE SET NULL,
      updated_at timestamptz NOT NULL
    )
  `.execute(db);
  await sql`
    CREATE TABLE payout_transfers (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      host_id uuid NOT NULL REFERENCES users (id),
      run_key text NOT NULL UNIQUE,
      reference text NOT NULL UNIQUE,
      amount_cents integer NOT NULL CHECK (amount_cents > 0),
      state text NOT NULL CHECK (state IN ('queued', 'otp', 'pending', 'success', 'failed', 'reversed')),
      recipient_code text NOT NULL,
      bank_name text NOT NULL,
      account_number_last4 text NOT NULL,
      transfer_code text,
      failure_reason text,
      bookings jsonb NOT NULL DEFAULT '[]',
      retry_of uuid UNIQUE REFERENCES payout_transfers (id),
      actor_id uuid REFERENCES users (id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      settled_at timestamptz
    )
  `.execute(db);
  await sql`CREATE INDEX payout_transfers_host_idx ON payout_transfers (host_id, created_at DESC)`.execute(db);
  await sql`CREATE INDEX payout_transfers_open_idx ON payout_transfers (state, updated_at) WHERE state IN ('queued', 'otp', 'pending', 'success')`.execute(db);
  await sql`CREATE INDEX payout_transfers_actor_idx ON payout_transfers (actor_id) WHERE actor_id IS NOT NULL`.execute(db);
  await sql`CREATE INDEX host_payout_accounts_paused_by_idx ON host_payout_accounts (paused_by) WHERE paused_by IS NOT NULL`.execute(db);
  await sql`CREATE INDEX ledger_entries_provider_reference_idx ON ledger_entries (provider_reference) WHERE provider_reference IS NOT NULL`.execute(db);
  await sql`
    CREATE TABLE sandbox_transfers (
      reference text PRIMARY KEY,
      transfer_code text NOT NULL UNIQUE,
      recipient_code text NOT NULL,
      amount_cents integer NOT NULL,
      status text NOT NULL,
      created_at timestamptz NOT NULL
    )
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS ledger_entries_provider_reference_idx`.execute(db);
  await sql`DROP TABLE IF EXISTS sandbox_transfers`.execute(db);
  await sql`DROP TABLE IF EXISTS payout_transfers`.execute(db);
  await sql`DROP TABLE IF EXISTS host_payout_accounts`.execute(db);
}
