// Vehicles: platform settings, cars, bookings (every column the booking lifecycle needs) and
// reviews. Money is integer cents. The exclusion constraint on bookings is the no-double-booking
// rule of decisions.md section 5: two holding bookings of one car can never share a date.
import { sql, type Kysely } from 'kysely';
import { DEFAULT_SETTINGS } from '@karoo/shared';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE settings (
      id integer PRIMARY KEY DEFAULT 1 CHECK (id = 1),
      data jsonb NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now(),
      updated_by uuid REFERENCES users (id) ON DELETE SET NULL
    );

    CREATE TABLE cars (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      car_username text NOT NULL,
      owner_id uuid NOT NULL REFERENCES users (id),
      car_make text NOT NULL,
      car_model text NOT NULL,
      car_year integer NOT NULL,
      car_color text NOT NULL,
      car_type text NOT NULL,
      car_plate_number text NOT NULL,
      car_value_cents bigint NOT NULL CHECK (car_value_cents >= 0),
      car_rent_price_cents integer NOT NULL CHECK (car_rent_price_cents > 0),
      car_odometer integer NOT NULL DEFAULT 0 CHECK (car_odometer >= 0),
      description text NOT NULL DEFAULT '',
      images jsonb NOT NULL DEFAULT '[]',
      pickup_location text NOT NULL,
      latitude double precision,
      longitude double precision,
      status text NOT NULL DEFAULT 'available'
        CHECK (status IN ('available', 'offline', 'active', 'rented', 'maintenance')),
      verification_status text NOT NULL DEFAULT 'pending_verification'
        CHECK (verification_status IN ('pending_verification', 'verified', 'rejected')),
      admin_notes text,
      specifications jsonb NOT NULL DEFAULT '{}',
      features jsonb NOT NULL DEFAULT '[]',
      safety jsonb NOT NULL DEFAULT '[]',
      rules jsonb NOT NULL DEFAULT '[]',
      pickup_options jsonb NOT NULL DEFAULT '[]',
      insurance_options jsonb NOT NULL DEFAULT '[]',
      registration_storage_key text,
      registration_filename text,
      registration_mime text,
      registration_uploaded_at timestamptz,
      registration_verified boolean,
      registration_verification_notes text,
      rating numeric(3, 2),
      total_reviews integer NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      deleted_at timestamptz,
      -- Derived, for the browse filters: kept by the database, never written by the code.
      search_text text GENERATED ALWAYS AS (lower(car_make || ' ' || car_model || ' ' || car_type || ' ' || pickup_location)) STORED,
      transmission_key text GENERATED ALWAYS AS (lower(specifications->>'transmission')) STORED,
      fuel_key text GENERATED ALWAYS AS (lower(specifications->>'fuelType')) STORED
    );
    CREATE UNIQUE INDEX cars_car_username_key ON cars (lower(car_username));
    CREATE INDEX cars_owner_idx ON cars (owner_id, created_at DESC) WHERE deleted_at IS NULL;
    -- The public browse list: listed cars by price and by relevance.
    CREATE INDEX cars_listed_price_idx ON cars (car_rent_price_cents, id)
      WHERE deleted_at IS NULL AND status = 'available' AND verification_status = 'verified';
    CREATE INDEX cars_listed_relevance_idx ON cars (rating DESC NULLS LAST, total_reviews DESC, created_at DESC, id)
      WHERE deleted_at IS NULL AND status = 'available' AND verification_status = 'verified';
    CREATE INDEX cars_features_idx ON cars USING gin (features jsonb_path_ops);
    CREATE INDEX cars_verification_idx ON cars (verification_status, created_at DESC) WHERE deleted_at IS NULL;

    CREATE TABLE bookings (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      booking_number text NOT NULL UNIQUE,
      car_id uuid NOT NULL REFERENCES cars (id),
      renter_id uuid NOT NULL REFERENCES users (id),
      owner_id uuid NOT NULL REFERENCES users (id),
      start_date date NOT NULL,
      end_date date NOT NULL,
      start_time text NOT NULL CHECK (start_time ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
      end_time text NOT NULL CHECK (end_time ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
      is_hourly_booking boolean NOT NULL DEFAULT false,
      duration_days integer NOT NULL CHECK (duration_days >= 1),
      duration_hours integer CHECK (duration_hours BETWEEN 1 AND 24),
      status text NOT NULL DEFAULT 'pending'
        CHECK (status IN ('pending', 'confirmed', 'active', 'completed', 'cancelled', 'rejected')),
      subtotal_cents integer NOT NULL CHECK (subtotal_cents >= 0),
      service_fee_cents integer NOT NULL CHECK (service_fee_cents >= 0),
      insurance_fee_cents integer NOT NULL DEFAULT 0 CHECK (insurance_fee_cents >= 0),
      pickup_fee_cents integer NOT NULL DEFAULT 0 CHECK (pickup_fee_cents >= 0),
      total_price_cents integer NOT NULL CHECK (total_price_cents >= 0),
      service_fee_rate numeric(5, 2) NOT NULL,
      commission_rate numeric(5, 2) NOT NULL,
      car_owner_earnings_cents integer NOT NULL,
      app_fee_cents integer NOT NULL,
      pickup_option jsonb,
      insurance_option jsonb,
      special_requirements text,
      host_response text,
      host_response_date timestamptz,
      payment_status text NOT NULL DEFAULT 'unpaid' CHECK (payment_status IN ('unpaid', 'paid')),
      payment_provider text,
      payment_reference text UNIQUE,
      paid_at timestamptz,
      confirmed_at timestamptz,
      completed_at timestamptz,
      cancelled_at timestamptz,
      actual_return_date timestamptz,
      condition_notes text,
      odometer_reading integer CHECK (odometer_reading >= 0),
      payout_status text NOT NULL DEFAULT 'pending' CHECK (payout_status IN ('pending', 'paid')),
      payout_reference text,
      payout_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CHECK (end_date >= start_date),
      CONSTRAINT bookings_no_overlap EXCLUDE USING gist (
        car_id WITH =,
        daterange(start_date, end_date, '[]') WITH &&
      ) WHERE (status IN ('pending', 'confirmed', 'active'))
    );
    CREATE INDEX bookings_car_idx ON bookings (car_id, start_date DESC);
    CREATE INDEX bookings_renter_idx ON bookings (renter_id, created_at DESC);
    CREATE INDEX bookings_owner_idx ON bookings (owner_id, created_at DESC);
    CREATE INDEX bookings_status_idx ON bookings (status, created_at DESC);

    CREATE TABLE reviews (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      booking_id uuid UNIQUE REFERENCES bookings (id),
      car_id uuid NOT NULL REFERENCES cars (id),
      reviewer_id uuid NOT NULL REFERENCES users (id),
      rating integer NOT NULL CHECK (rating BETWEEN 1 AND 5),
      comment text NOT NULL CHECK (char_length(comment) BETWEEN 1 AND 500),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX reviews_car_idx ON reviews (car_id, created_at DESC);
    CREATE INDEX reviews_reviewer_idx ON reviews (reviewer_id, created_at DESC);
  `.execute(db);

  await sql`INSERT INTO settings (id, data) VALUES (1, ${JSON.stringify(DEFAULT_SETTINGS)}::jsonb)`.execute(db);
}
