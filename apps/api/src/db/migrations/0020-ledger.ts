// One ledger for every rand (issue 20; docs/decisions/039-one-ledger.md).
// - ledger_entries: every money movement of a booking as its own row: the renter's charge, each
//   refund (full or partial, many per charge), how a charge is shared (the host's earning, the
//   platform's fees, later corrected by a cancellation and its fee), a host's penalty, a payout
//   and its reversal. Money screens and exports are sums of these rows, dated by moved_at, so a
//   closed period never changes.
// - Append-only, enforced by the database (ledger_entries_append_only): a row's amount, kind,
//   parties and dates are never changed and no row is deleted; the only change allowed is a
//   pending row settling once (pending -> succeeded with the moment the money moved, or -> failed
//   with the provider's error).
// - The existing money (payments and their refunds, the split stored on each earning booking, paid
//   payouts and payout reversals) is written into the ledger here, so every old figure is a sum of
//   rows (apps/api/test/ledger-migration.test.ts compares them).
// - A host's cancellation is a cause of its own (cancel_cause 'host', and 'no_show' when the host
//   reports that the renter never came), counted on the host's profile.
// - A cancelled trip that kept a fee is final and payable like a completed one.
// - payments keeps the charge's decision (refund_status 'pending': not kept, with its code and
//   reason); the columns that tracked the one refund's attempts go: refunds are ledger rows.
// - sandbox_refunds: the sandbox provider's own books of refunds (partial amounts, many per charge),
//   so tests can check that the ledger agrees with what the provider holds.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE ledger_entries (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
      booking_id uuid NOT NULL REFERENCES bookings (id),
      renter_id uuid NOT NULL REFERENCES users (id),
      host_id uuid NOT NULL REFERENCES users (id),
      kind text NOT NULL CHECK (kind IN ('charge', 'refund', 'host_earning', 'platform_fee', 'host_penalty', 'payout', 'payout_reversal')),
      code text NOT NULL,
      amount_cents bigint NOT NULL,
      state text NOT NULL DEFAULT 'succeeded' CHECK (state IN ('pending', 'succeeded', 'failed')),
      moved_at timestamptz,
      recorded_at timestamptz NOT NULL,
      charge_reference text,
      provider_reference text,
      reason text,
      actor_id uuid REFERENCES users (id),
      last_error text,
      -- How a pending refund is being asked for (not money: the trigger lets these change).
      attempts integer NOT NULL DEFAULT 0,
      next_attempt_at timestamptz,
      locked_until timestamptz,
      CONSTRAINT ledger_entries_moved_when_succeeded CHECK ((state = 'succeeded') = (moved_at IS NOT NULL)),
      CONSTRAINT ledger_entries_sign CHECK (kind IN ('host_earning', 'platform_fee') OR amount_cents > 0),
      CONSTRAINT ledger_entries_only_movements_wait CHECK (state = 'succeeded' OR kind IN ('refund', 'payout'))
    )
  `.execute(db);
  await sql`CREATE INDEX ledger_entries_booking_idx ON ledger_entries (booking_id, seq)`.execute(db);
  await sql`CREATE INDEX ledger_entries_host_idx ON ledger_entries (host_id, kind)`.execute(db);
  await sql`CREATE INDEX ledger_entries_moved_idx ON ledger_entries (moved_at, kind) WHERE state = 'succeeded'`.execute(db);
  await sql`CREATE INDEX ledger_entries_charge_idx ON ledger_entries (charge_reference) WHERE charge_reference IS NOT NULL`.execute(db);
  await sql`CREATE INDEX ledger_entries_unsettled_idx ON ledger_entries (kind, state, recorded_at) WHERE state <> 'succeeded'`.execute(db);
  await sql`
    CREATE FUNCTION ledger_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'DELETE' THEN
        RAISE EXCEPTION 'ledger entries are never deleted' USING ERRCODE = 'check_violation';
      END IF;
      IF NEW.id <> OLD.id OR NEW.seq <> OLD.seq OR NEW.booking_id <> OLD.booking_id OR NEW.renter_id <> OLD.renter_id
        OR NEW.host_id <> OLD.host_id OR NEW.kind <> OLD.kind OR NEW.code <> OLD.code OR NEW.amount_cents <> OLD.amount_cents
        OR NEW.recorded_at <> OLD.recorded_at OR NEW.charge_reference IS DISTINCT FROM OLD.charge_reference
        OR NEW.reason IS DISTINCT FROM OLD.reason OR NEW.actor_id IS DISTINCT FROM OLD.actor_id THEN
        RAISE EXCEPTION 'a ledger entry is never changed; record a new one' USING ERRCODE = 'check_violation';
      END IF;
      IF OLD.state <> 'pending' AND (NEW.state <> OLD.state OR NEW.moved_at IS DISTINCT FROM OLD.moved_at
        OR NEW.provider_reference IS DISTINCT FROM OLD.provider_reference) THEN
        RAISE EXCEPTION 'a settled ledger entry is never changed; record a new one' USING ERRCODE = 'check_violation';
      END IF;
      RETURN NEW;
    END $$
  `.execute(db);
  await sql`CREATE TRIGGER ledger_entries_append_only BEFORE UPDATE OR DELETE ON ledger_entries FOR EACH ROW EXECUTE FUNCTION ledger_entries_append_only()`.execute(db);

  await sql`
    CREATE TABLE sandbox_refunds (
      id text PRIMARY KEY,
      reference text NOT NULL REFERENCES payments (reference),
      amount_cents bigint NOT NULL CHECK (amount_cents > 0),
      created_at timestamptz NOT NULL
    )
  `.execute(db);
  await sql`CREATE INDEX sandbox_refunds_reference_idx ON sandbox_refunds (reference)`.execute(db);

  await sql`ALTER TABLE bookings DROP CONSTRAINT IF EXISTS bookings_cancel_cause_check`.execute(db);
  await sql`ALTER TABLE bookings ADD CONSTRAINT bookings_cancel_cause_check
    CHECK (cancel_cause IN ('renter', 'admin', 'expired', 'car_removed', 'renter_closed', 'host', 'no_show'))`.execute(db);
  // A cancelled trip that kept a fee is paid out like a completed one.
  await sql`ALTER TABLE bookings DROP CONSTRAINT IF EXISTS bookings_payout_only_completed`.execute(db);
  await sql`ALTER TABLE bookings ADD CONSTRAINT bookings_payout_only_final CHECK (payout_status = 'pending' OR status IN ('completed', 'cancelled')) NOT VALID`.execute(db);

  await backfill(db);

  // A charge that could not stay on its booking keeps, on its payments row, the decision and why
  // (refund_status 'pending' marks it not kept; refund_reason_code, refund_reason, the amount and
  // when); the refund itself and every attempt at it are the ledger's now.
  await sql`ALTER TABLE payments
    DROP COLUMN refunded_at,
    DROP COLUMN refund_attempts,
    DROP COLUMN refund_next_attempt_at,
    DROP COLUMN refund_error,
    DROP COLUMN refund_provider_id`.execute(db);
}

/** The money recorded before the ledger, as ledger rows (each dated when it moved, as far as it was kept). */
async function backfill(db: Kysely<unknown>): Promise<void> {
  // Successful charges: each payments row that took money.
  await sql`
    INSERT INTO ledger_entries (booking_id, renter_id, host_id, kind, code, amount_cents, moved_at, recorded_at, charge_reference)
    SELECT p.booking_id, b.renter_id, b.owner_id, 'charge', 'trip', p.amount_cents,
           CASE WHEN b.payment_reference = p.reference AND b.paid_at IS NOT NULL THEN b.paid_at ELSE p.updated_at END,
           CASE WHEN b.payment_reference = p.reference AND b.paid_at IS NOT NULL THEN b.paid_at ELSE p.updated_at END,
           p.reference
    FROM payments p JOIN bookings b ON b.id = p.booking_id
    WHERE p.status = 'success'
  `.execute(db);
  // Bookings that earn (completed, or paid) whose charge has no payments row (demo data, older imports).
  await sql`
    INSERT INTO ledger_entries (booking_id, renter_id, host_id, kind, code, amount_cents, moved_at, recorded_at, charge_reference)
    SELECT b.id, b.renter_id, b.owner_id, 'charge', 'trip', b.total_price_cents,
           coalesce(b.paid_at, b.created_at), coalesce(b.paid_at, b.created_at), b.payment_reference
    FROM bookings b
    WHERE (b.status = 'completed' OR b.payment_status = 'paid') AND b.total_price_cents > 0
      AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.booking_id = b.id AND p.status = 'success'
                      AND (p.reference = b.payment_reference OR b.payment_reference IS NULL) AND p.refund_status IS NULL)
  `.execute(db);
  // Refunds of charges that could not stay on their booking.
  await sql`
    INSERT INTO ledger_entries (booking_id, renter_id, host_id, kind, code, amount_cents, state, moved_at, recorded_at, charge_reference, provider_reference, reason)
    SELECT p.booking_id, b.renter_id, b.owner_id, 'refund', coalesce(p.refund_reason_code, 'booking_not_payable'),
           coalesce(p.refund_amount_cents, p.amount_cents),
           CASE WHEN p.refund_status = 'refunded' THEN 'succeeded' ELSE 'pending' END,
           CASE WHEN p.refund_status = 'refunded' THEN coalesce(p.refunded_at, p.updated_at) END,
           coalesce(p.refund_requested_at, p.updated_at), p.reference, p.refund_provider_id, p.refund_reason
    FROM payments p JOIN bookings b ON b.id = p.booking_id
    WHERE p.status = 'success' AND p.refund_status IS NOT NULL
  `.execute(db);
  // How each earning booking's charge is shared, as stored on the booking (decisions.md section 5).
  const shares: [string, string, string][] = [
    ['host_earning', 'trip', 'b.car_owner_earnings_cents'],
    ['platform_fee', 'service_fee', 'b.service_fee_cents'],
    ['platform_fee', 'insurance', 'b.insurance_fee_cents'],
    ['platform_fee', 'host_fee', 'b.app_fee_cents - b.service_fee_cents - b.insurance_fee_cents'],
  ];
  for (const [kind, code, amount] of shares) {
    await sql`
      INSERT INTO ledger_entries (booking_id, renter_id, host_id, kind, code, amount_cents, moved_at, recorded_at, charge_reference)
      SELECT b.id, b.renter_id, b.owner_id, ${kind}, ${code}, ${sql.raw(amount)},
             coalesce(b.paid_at, b.created_at), coalesce(b.paid_at, b.created_at), b.payment_reference
      FROM bookings b
      WHERE (b.status = 'completed' OR b.payment_status = 'paid') AND ${sql.raw(amount)} <> 0
    `.execute(db);
  }
  // Payouts taken back: the payout that had been made, then its reversal.
  await sql`
    INSERT INTO ledger_entries (booking_id, renter_id, host_id, kind, code, amount_cents, moved_at, recorded_at, provider_reference)
    SELECT r.booking_id, b.renter_id, b.owner_id, 'payout', 'trip', r.amount_cents,
           coalesce(r.paid_at, r.reversed_at), coalesce(r.paid_at, r.reversed_at), r.payout_reference
    FROM payout_reversals r JOIN bookings b ON b.id = r.booking_id
    WHERE r.amount_cents > 0
  `.execute(db);
  await sql`
    INSERT INTO ledger_entries (booking_id, renter_id, host_id, kind, code, amount_cents, moved_at, recorded_at, provider_reference, reason, actor_id)
    SELECT r.booking_id, b.renter_id, b.owner_id, 'payout_reversal', 'trip', r.amount_cents, r.reversed_at, r.reversed_at,
           r.payout_reference, r.reason, r.reversed_by
    FROM payout_reversals r JOIN bookings b ON b.id = r.booking_id
    WHERE r.amount_cents > 0
  `.execute(db);
  // Payouts marked paid.
  await sql`
    INSERT INTO ledger_entries (booking_id, renter_id, host_id, kind, code, amount_cents, moved_at, recorded_at, provider_reference)
    SELECT b.id, b.renter_id, b.owner_id, 'payout', 'trip', b.car_owner_earnings_cents,
           coalesce(b.payout_at, b.updated_at), coalesce(b.payout_at, b.updated_at), b.payout_reference
    FROM bookings b
    WHERE b.payout_status = 'paid' AND b.car_owner_earnings_cents > 0
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE payments
    ADD COLUMN refunded_at timestamptz,
    ADD COLUMN refund_attempts integer NOT NULL DEFAULT 0,
    ADD COLUMN refund_next_attempt_at timestamptz,
    ADD COLUMN refund_error text,
    ADD COLUMN refund_provider_id text`.execute(db);
  await sql`ALTER TABLE bookings DROP CONSTRAINT IF EXISTS bookings_payout_only_final`.execute(db);
  await sql`ALTER TABLE bookings ADD CONSTRAINT bookings_payout_only_completed CHECK (payout_status = 'pending' OR status = 'completed') NOT VALID`.execute(db);
  await sql`ALTER TABLE bookings DROP CONSTRAINT IF EXISTS bookings_cancel_cause_check`.execute(db);
  await sql`UPDATE bookings SET cancel_cause = 'admin' WHERE cancel_cause IN ('host', 'no_show')`.execute(db);
  await sql`ALTER TABLE bookings ADD CONSTRAINT bookings_cancel_cause_check
    CHECK (cancel_cause IN ('renter', 'admin', 'expired', 'car_removed', 'renter_closed'))`.execute(db);
  await sql`DROP TABLE IF EXISTS sandbox_refunds`.execute(db);
  await sql`DROP TABLE IF EXISTS ledger_entries`.execute(db);
  await sql`DROP FUNCTION IF EXISTS ledger_entries_append_only()`.execute(db);
}
