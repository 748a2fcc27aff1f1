// Final payouts and money codes (issue 18; docs/decisions/032-final-payouts-and-money-codes.md).
// - A paid payout is final: a mistake is corrected by a reversal, kept as its own row
//   (payout_reversals: what was paid, its reference and time, why, who and when), never by
//   overwriting the booking's payout state. Only a completed trip can be paid out (or be in
//   processing): bookings_payout_only_completed.
// - Money never branches on message text: why a charge is refunded is a code
//   (payments.refund_reason_code), and why a booking was cancelled is a code too
//   (bookings.cancel_cause: an expired booking's refund says so). Rows written before this
//   migration get their codes here, from the state and the exact sentences the old code wrote;
//   migration 0014's history is left as it was.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE bookings
    ADD COLUMN cancel_cause text CHECK (cancel_cause IN ('renter', 'admin', 'expired', 'car_removed', 'renter_closed'))`.execute(db);
  // The expiry job always wrote its reason starting 'Expired:' (packages/shared expiryReason); the
  // other causes of old cancellations were never stored and stay unknown (null).
  await sql`UPDATE bookings SET cancel_cause = 'expired' WHERE status = 'cancelled' AND host_response LIKE 'Expired:%'`.execute(db);

  await sql`ALTER TABLE payments
    ADD COLUMN refund_reason_code text CHECK (refund_reason_code IN
      ('already_paid', 'booking_expired', 'booking_cancelled', 'booking_not_payable', 'wrong_amount', 'wrong_currency'))`.execute(db);
  // Old refunds: a charge of another amount than the booking's total is a wrong amount whatever its
  // text says; otherwise the sentence the old code wrote names the case, and the booking's state
  // decides what no sentence does.
  await sql`UPDATE payments p SET refund_reason_code = CASE
      WHEN p.refund_amount_cents IS DISTINCT FROM b.total_price_cents THEN 'wrong_amount'
      WHEN p.refund_reason LIKE 'The amount paid does not match%' THEN 'wrong_amount'
      WHEN p.refund_reason LIKE 'The payment was not made in rand%' THEN 'wrong_currency'
      WHEN p.refund_reason LIKE 'This booking was already paid%' THEN 'already_paid'
      WHEN p.refund_reason LIKE 'This booking had expired%' THEN 'booking_expired'
      WHEN p.refund_reason LIKE 'This booking was cancelled%' THEN 'booking_cancelled'
      WHEN b.payment_status = 'paid' THEN 'already_paid'
      WHEN b.status = 'cancelled' AND b.cancel_cause = 'expired' THEN 'booking_expired'
      WHEN b.status = 'cancelled' THEN 'booking_cancelled'
      ELSE 'booking_not_payable' END
    FROM bookings b
    WHERE b.id = p.booking_id AND p.refund_status IS NOT NULL`.execute(db);
  await sql`ALTER TABLE payments ADD CONSTRAINT payments_refund_reason_code_present CHECK (refund_status IS NULL OR refund_reason_code IS NOT NULL)`.execute(db);

  // Only a completed trip is paid out. NOT VALID: checked for every row written from now on, while
  // a payout an old version recorded on a trip still under way is kept as the record it is (an
  // administrator reverses it, or the trip completes).
  await sql`ALTER TABLE bookings ADD CONSTRAINT bookings_payout_only_completed CHECK (payout_status = 'pending' OR status = 'completed') NOT VALID`.execute(db);

  await sql`
    CREATE TABLE payout_reversals (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      booking_id uuid NOT NULL REFERENCES bookings (id),
      amount_cents bigint NOT NULL CHECK (amount_cents >= 0),
      payout_reference text,
      paid_at timestamptz,
      reason text NOT NULL CHECK (length(btrim(reason)) > 0),
      reversed_by uuid NOT NULL REFERENCES users (id),
      reversed_by_username text NOT NULL,
      reversed_at timestamptz NOT NULL
    )
  `.execute(db);
  await sql`CREATE INDEX payout_reversals_booking_idx ON payout_reversals (booking_id, reversed_at DESC)`.execute(db);
  await sql`CREATE INDEX payout_reversals_recent_idx ON payout_reversals (reversed_at DESC, id DESC)`.execute(db);
  // Admin Finance's list of paid payouts, newest first.
  await sql`CREATE INDEX bookings_paid_payouts_idx ON bookings (payout_at DESC NULLS LAST, id DESC) WHERE payout_status = 'paid'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS bookings_paid_payouts_idx`.execute(db);
  await sql`DROP TABLE IF EXISTS payout_reversals`.execute(db);
  await sql`ALTER TABLE bookings DROP CONSTRAINT IF EXISTS bookings_payout_only_completed`.execute(db);
  await sql`ALTER TABLE payments DROP CONSTRAINT IF EXISTS payments_refund_reason_code_present, DROP COLUMN IF EXISTS refund_reason_code`.execute(db);
  await sql`ALTER TABLE bookings DROP COLUMN IF EXISTS cancel_cause`.execute(db);
}
