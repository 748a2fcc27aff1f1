// Traffic fines and the CPA s. 17 waiver (issue 34; docs/decisions/066-traffic-fines-aarto.md and
// 067-cpa-section-17-waiver.md).
// - users.driver_licence_number: the one detail an AARTO 07 nomination needs that Karoo did not hold
//   (the ID number and address are on the profile already);
// - traffic_fines (the trips module): a fine the host or an admin entered, the car it names, the trip
//   it fell in (booking and renter, null when no trip covers its moment), the notice's file in the
//   private store, the 32-day deadline, its state and the reminder sent. The renter's details are
//   never copied here: the nomination PDF reads them from the profile when it is made (least data);
// - cancellation_fee_waivers (the payments module): the renter's request with its evidence, the fee
//   it is about, the admin's decision and reason, and the refund row that gave the fee back.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE users ADD COLUMN driver_licence_number text`.execute(db);
  await sql`
    CREATE TABLE traffic_fines (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      car_id uuid NOT NULL REFERENCES cars (id),
      host_id uuid NOT NULL REFERENCES users (id),
      booking_id uuid REFERENCES bookings (id),
      renter_id uuid REFERENCES users (id),
      plate text NOT NULL,
      occurred_at timestamptz NOT NULL,
      place text NOT NULL,
      amount_cents integer NOT NULL CHECK (amount_cents > 0),
      notice_number text NOT NULL,
      served_on date NOT NULL,
      nominate_by date NOT NULL,
      notice_storage_key text NOT NULL,
      notice_mime text NOT NULL,
      status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'nominated', 'paid_by_renter', 'paid_by_host', 'disputed', 'withdrawn')),
      status_note text,
      entered_by uuid NOT NULL REFERENCES users (id),
      reminded_at timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      CONSTRAINT traffic_fines_notice_unique UNIQUE (notice_number),
      CONSTRAINT traffic_fines_trip_whole CHECK ((booking_id IS NULL) = (renter_id IS NULL)),
      CONSTRAINT traffic_fines_served_after CHECK (nominate_by > served_on)
    )
  `.execute(db);
  await sql`CREATE INDEX traffic_fines_booking_idx ON traffic_fines (booking_id)`.execute(db);
  await sql`CREATE INDEX traffic_fines_car_idx ON traffic_fines (car_id, occurred_at)`.execute(db);
  await sql`CREATE INDEX traffic_fines_host_idx ON traffic_fines (host_id, created_at)`.execute(db);
  await sql`CREATE INDEX traffic_fines_renter_idx ON traffic_fines (renter_id)`.execute(db);
  await sql`CREATE INDEX traffic_fines_due_idx ON traffic_fines (nominate_by) WHERE status = 'open' AND reminded_at IS NULL`.execute(db);
  await sql`
    CREATE TABLE cancellation_fee_waivers (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      booking_id uuid NOT NULL REFERENCES bookings (id),
      renter_id uuid NOT NULL REFERENCES users (id),
      ground text NOT NULL CHECK (ground IN ('death', 'hospital')),
      person text NOT NULL CHECK (person IN ('renter', 'family')),
      statement text NOT NULL DEFAULT '',
      fee_cents integer NOT NULL CHECK (fee_cents > 0),
      evidence_storage_key text NOT NULL,
      evidence_mime text NOT NULL,
      status text NOT NULL DEFAULT 'requested' CHECK (status IN ('requested', 'approved', 'declined')),
      decided_by uuid REFERENCES users (id),
      decision_reason text,
      decided_at timestamptz,
      -- The refund row (no foreign key: the ledger's own migrations are rolled back alone in tests, and a ledger row is never deleted).
      refund_entry_id uuid,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      CONSTRAINT cancellation_fee_waivers_decided CHECK ((status = 'requested') = (decided_at IS NULL))
    )
  `.execute(db);
  // One request open or approved per booking: a declined one may be asked again with better evidence.
  await sql`CREATE UNIQUE INDEX cancellation_fee_waivers_one_live ON cancellation_fee_waivers (booking_id) WHERE status IN ('requested', 'approved')`.execute(db);
  await sql`CREATE INDEX cancellation_fee_waivers_status_idx ON cancellation_fee_waivers (status, created_at)`.execute(db);
  await sql`CREATE INDEX cancellation_fee_waivers_renter_idx ON cancellation_fee_waivers (renter_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE cancellation_fee_waivers`.execute(db);
  await sql`DROP TABLE traffic_fines`.execute(db);
  await sql`ALTER TABLE users DROP COLUMN driver_licence_number`.execute(db);
}
