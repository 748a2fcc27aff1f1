// One charge per booking (issue 12; docs/decisions/024-one-charge-per-booking.md). A booking has at
// most one open checkout: the unique partial index lets a second (or concurrent) initialise find the
// open one instead of starting another, on every instance. The checkout's access code and
// authorisation URL are kept, so the same session is answered again. A successful charge that
// cannot stay on its booking (already paid by another charge, expired or cancelled, a wrong amount)
// is refunded through the provider: refund_status 'pending' until the provider accepts the refund
// ('refunded'), retried with backoff when the provider call fails.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE payments
    ADD COLUMN access_code text,
    ADD COLUMN authorization_url text,
    ADD COLUMN refund_status text CHECK (refund_status IN ('pending', 'refunded')),
    ADD COLUMN refund_amount_cents bigint CHECK (refund_amount_cents >= 0),
    ADD COLUMN refund_reason text,
    ADD COLUMN refund_requested_at timestamptz,
    ADD COLUMN refunded_at timestamptz,
    ADD COLUMN refund_attempts integer NOT NULL DEFAULT 0,
    ADD COLUMN refund_next_attempt_at timestamptz,
    ADD COLUMN refund_error text,
    ADD COLUMN refund_provider_id text,
    ADD CONSTRAINT payments_refund_amount_check CHECK (refund_status IS NULL OR (status = 'success' AND refund_amount_cents IS NOT NULL))`.execute(db);
  // Older checkouts left open beside a newer one on the same booking are closed first (a late charge
  // on one of them is still settled: activated, or refunded).
  await sql`UPDATE payments p SET status = 'failed', message = 'Superseded by a newer checkout of this booking.'
    WHERE p.status = 'initialized'
      AND EXISTS (SELECT 1 FROM payments n WHERE n.booking_id = p.booking_id AND n.status = 'initialized'
                  AND (n.created_at, n.reference) > (p.created_at, p.reference))`.execute(db);
  // Charges the old code recorded as success but left on no booking (a second payment of a paid
  // booking, one that arrived after the booking expired or was cancelled) are owed back: the
  // refund retry job asks the provider for them like for any refund. A charge whose booking can
  // still be paid is left for the next pay call or webhook to settle.
  await sql`UPDATE payments p SET
      refund_status = 'pending',
      refund_amount_cents = p.amount_cents,
      refund_reason = CASE
        WHEN b.payment_status = 'paid' THEN 'This booking was already paid with another payment.'
        WHEN b.status = 'cancelled' AND b.host_response LIKE 'Expired%' THEN 'This booking had expired before the payment arrived.'
        WHEN b.status = 'cancelled' THEN 'This booking was cancelled before the payment arrived.'
        ELSE 'This booking is ' || b.status || ' and cannot be paid.' END,
      refund_requested_at = now(),
      refund_next_attempt_at = now(),
      updated_at = now()
    FROM bookings b
    WHERE b.id = p.booking_id AND p.status = 'success' AND p.refund_status IS NULL
      AND b.payment_reference IS DISTINCT FROM p.reference
      AND NOT (b.status = 'confirmed' AND b.payment_status = 'unpaid')`.execute(db);
  await sql`CREATE UNIQUE INDEX payments_one_open_per_booking ON payments (booking_id) WHERE status = 'initialized'`.execute(db);
  await sql`CREATE INDEX payments_refund_due_idx ON payments (refund_next_attempt_at) WHERE refund_status = 'pending'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS payments_refund_due_idx`.execute(db);
  await sql`DROP INDEX IF EXISTS payments_one_open_per_booking`.execute(db);
  await sql`ALTER TABLE payments
    DROP CONSTRAINT IF EXISTS payments_refund_amount_check,
    DROP COLUMN access_code,
    DROP COLUMN authorization_url,
    DROP COLUMN refund_status,
    DROP COLUMN refund_amount_cents,
    DROP COLUMN refund_reason,
    DROP COLUMN refund_requested_at,
    DROP COLUMN refunded_at,
    DROP COLUMN refund_attempts,
    DROP COLUMN refund_next_attempt_at,
    DROP COLUMN refund_error,
    DROP COLUMN refund_provider_id`.execute(db);
}
