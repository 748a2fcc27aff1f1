// Bookings and money: payment attempts (each reference the server issues, tied to one booking),
// invoices (one per booking, numbered INV-YYYY-NNNNNN) and the payout states of an earning.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE payments (
      reference text PRIMARY KEY,
      booking_id uuid NOT NULL REFERENCES bookings (id),
      provider text NOT NULL CHECK (provider IN ('paystack', 'sandbox')),
      amount_cents integer NOT NULL CHECK (amount_cents >= 0),
      currency text NOT NULL DEFAULT 'ZAR',
      status text NOT NULL DEFAULT 'initialized' CHECK (status IN ('initialized', 'success', 'failed')),
      message text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX payments_booking_idx ON payments (booking_id, created_at DESC);

    CREATE SEQUENCE invoice_number_seq;
    CREATE TABLE invoices (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      invoice_number text NOT NULL UNIQUE,
      booking_id uuid NOT NULL UNIQUE REFERENCES bookings (id),
      car_id uuid NOT NULL REFERENCES cars (id),
      owner_id uuid NOT NULL REFERENCES users (id),
      total_amount_cents integer NOT NULL,
      car_owner_earnings_cents integer NOT NULL,
      app_fee_cents integer NOT NULL,
      line_items jsonb NOT NULL,
      issued_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX invoices_owner_idx ON invoices (owner_id, issued_at DESC);

    ALTER TABLE bookings DROP CONSTRAINT bookings_payout_status_check;
    ALTER TABLE bookings ADD CONSTRAINT bookings_payout_status_check CHECK (payout_status IN ('pending', 'processing', 'paid'));
    CREATE INDEX bookings_expiry_idx ON bookings (status, created_at) WHERE status IN ('pending', 'confirmed');
  `.execute(db);
}
