// Deposits and trip charges (issue 34; docs/decisions/064-deposits-charged-with-the-trip.md and
// 065-trip-charges.md).
// - cars: the host's deposit (null: the default for the car's value, a setting), the tank size, the
//   daily distance allowance (null: unlimited) and the rate per extra kilometre;
// - bookings: the deposit, allowance and rate as they stood when the trip was booked (the renter
//   agreed to those; a later edit of the car changes nothing of a booked trip);
// - payments: the card's reusable authorisation a successful charge returned (Paystack
//   `authorization.authorization_code` when `reusable`), kept to charge a claim larger than the deposit;
// - ledger_entries: two kinds, 'deposit' (taken with the trip's charge, never revenue) and
//   'deposit_applied' (moved from the held deposit to a claim); a deposit's release is a refund
//   (code 'deposit_release') on the refund queue;
// - trip_claims, trip_claim_items, trip_claim_evidence (the claims module): the host's charges after a
//   trip, the renter's answer, the admin's decision, and the files of both sides.
import { sql, type Kysely } from 'kysely';

const KINDS_BEFORE = "'charge', 'refund', 'host_earning', 'platform_fee', 'host_penalty', 'payout', 'payout_reversal'";
const KINDS_AFTER = `${KINDS_BEFORE}, 'deposit', 'deposit_applied'`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE cars
    ADD COLUMN deposit_cents integer CHECK (deposit_cents IS NULL OR deposit_cents >= 0),
    ADD COLUMN tank_litres integer CHECK (tank_litres IS NULL OR tank_litres BETWEEN 10 AND 250),
    ADD COLUMN distance_allowance_km integer CHECK (distance_allowance_km IS NULL OR distance_allowance_km BETWEEN 50 AND 5000),
    ADD COLUMN extra_km_rate_cents integer NOT NULL DEFAULT 0 CHECK (extra_km_rate_cents BETWEEN 0 AND 10000)`.execute(db);
  // Every listed car gets the default deposit for its value (the settings' bands as shipped), so a
  // car's deposit is one stored number that its page, the checkout and the booking all read.
  await sql`UPDATE cars SET deposit_cents = CASE WHEN car_value_cents <= 15000000 THEN 350000 WHEN car_value_cents <= 30000000 THEN 500000 ELSE 1000000 END`.execute(db);
  await sql`ALTER TABLE bookings
    ADD COLUMN deposit_cents integer NOT NULL DEFAULT 0 CHECK (deposit_cents >= 0),
    ADD COLUMN distance_allowance_km integer,
    ADD COLUMN extra_km_rate_cents integer NOT NULL DEFAULT 0`.execute(db);
  await sql`ALTER TABLE payments ADD COLUMN authorization_code text`.execute(db);

  await sql`ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_kind_check`.execute(db);
  await sql.raw(`ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_kind_check CHECK (kind IN (${KINDS_AFTER}))`).execute(db);

  await sql`
    CREATE TABLE trip_claims (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      booking_id uuid NOT NULL REFERENCES bookings (id),
      host_id uuid NOT NULL REFERENCES users (id),
      renter_id uuid NOT NULL REFERENCES users (id),
      status text NOT NULL DEFAULT 'awaiting_renter' CHECK (status IN ('awaiting_renter', 'disputed', 'settled', 'withdrawn')),
      claimed_cents integer NOT NULL CHECK (claimed_cents > 0),
      host_statement text NOT NULL DEFAULT '',
      answer_due_at timestamptz NOT NULL,
      renter_answer text CHECK (renter_answer IN ('accepted', 'disputed', 'unanswered')),
      renter_statement text,
      answered_at timestamptz,
      decided_cents integer CHECK (decided_cents >= 0),
      decided_by uuid REFERENCES users (id),
      decision_reason text,
      decided_at timestamptz,
      settled_cents integer CHECK (settled_cents >= 0),
      from_deposit_cents integer NOT NULL DEFAULT 0 CHECK (from_deposit_cents >= 0),
      card_cents integer NOT NULL DEFAULT 0 CHECK (card_cents >= 0),
      payment_state text NOT NULL DEFAULT 'none' CHECK (payment_state IN ('none', 'paid', 'card_declined')),
      card_reference text,
      payment_error text,
      settled_at timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      CONSTRAINT trip_claims_decided CHECK ((decided_cents IS NULL) = (decided_at IS NULL))
    )
  `.execute(db);
  await sql`CREATE INDEX trip_claims_booking_idx ON trip_claims (booking_id)`.execute(db);
  await sql`CREATE INDEX trip_claims_due_idx ON trip_claims (answer_due_at) WHERE status = 'awaiting_renter'`.execute(db);
  await sql`CREATE INDEX trip_claims_status_idx ON trip_claims (status, created_at)`.execute(db);
  await sql`
    CREATE TABLE trip_claim_items (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      claim_id uuid NOT NULL REFERENCES trip_claims (id),
      kind text NOT NULL CHECK (kind IN ('fuel', 'extra_km', 'late_return', 'cleaning', 'smoking', 'tolls', 'traffic_fine', 'damage')),
      amount_cents integer NOT NULL CHECK (amount_cents > 0),
      detail text NOT NULL DEFAULT '',
      note text NOT NULL DEFAULT '',
      position integer NOT NULL,
      CONSTRAINT trip_claim_items_one_kind UNIQUE (claim_id, kind)
    )
  `.execute(db);
  await sql`
    CREATE TABLE trip_claim_evidence (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      claim_id uuid NOT NULL REFERENCES trip_claims (id),
      party text NOT NULL CHECK (party IN ('host', 'renter')),
      storage_key text NOT NULL,
      mime_type text NOT NULL,
      position integer NOT NULL,
      created_at timestamptz NOT NULL
    )
  `.execute(db);
  await sql`CREATE INDEX trip_claim_evidence_claim_idx ON trip_claim_evidence (claim_id, position)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE trip_claim_evidence`.execute(db);
  await sql`DROP TABLE trip_claim_items`.execute(db);
  await sql`DROP TABLE trip_claims`.execute(db);
  await sql`ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_kind_check`.execute(db);
  await sql.raw(`ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_kind_check CHECK (kind IN (${KINDS_BEFORE}))`).execute(db);
  await sql`ALTER TABLE payments DROP COLUMN authorization_code`.execute(db);
  await sql`ALTER TABLE bookings DROP COLUMN deposit_cents, DROP COLUMN distance_allowance_km, DROP COLUMN extra_km_rate_cents`.execute(db);
  await sql`ALTER TABLE cars DROP COLUMN deposit_cents, DROP COLUMN tank_litres, DROP COLUMN distance_allowance_km, DROP COLUMN extra_km_rate_cents`.execute(db);
}
