// Cars and bookings inserted straight into the database for the vehicle tests, priced with the
// shared pricing function so stored figures look like the API's own.
import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { addDays, bookingExpiresAt, calculatePrice, DEFAULT_SETTINGS, type NewCarBody } from '@karoo/shared';
import type { AppContext } from '../../src/context';
import type { BookingRow, CarRow, NewBooking, NewCar, StoredInsuranceOption, StoredPickupOption } from '../../src/db/schema';
import { storedInsuranceOption, storedPickupOption } from '../../src/modules/cars/cars.mapper';
import { refreshRatings } from '../../src/modules/reviews';
import type { TestUser } from './factories';
import { multipart, pdfBytes, pngBytes } from './files';

let carCounter = 0;

export const PICKUP_HOME: StoredPickupOption = storedPickupOption({
  id: 'pickup_home',
  name: "Host's home",
  address: '1 Long St, Cape Town',
  additional_fee: 0,
  type: 'standard',
  available_times: ['09:00', '13:00', '17:00'],
});
export const PICKUP_AIRPORT: StoredPickupOption = storedPickupOption({
  id: 'pickup_airport',
  name: 'Cape Town International Airport',
  address: 'Matroosfontein, Cape Town',
  additional_fee: 250,
  type: 'airport',
  available_times: ['07:00', '19:00'],
});
export const PICKUP_DELIVERY: StoredPickupOption = storedPickupOption({
  id: 'pickup_delivery',
  name: 'Delivery to your address',
  address: 'Anywhere in Cape Town',
  additional_fee: 350,
  type: 'premium',
  available_times: ['08:00', '16:00'],
});
export const INSURANCE_STANDARD: StoredInsuranceOption = storedInsuranceOption({
  id: 'insurance_standard',
  name: 'Standard Cover',
  description: 'Collision damage and theft',
  daily_rate: 85,
  excess_amount: 5000,
  coverage: ['Collision damage waiver', 'Theft protection'],
  included: false,
  popular: true,
  recommended: false,
});

export interface TestCarOptions {
  make?: string;
  model?: string;
  type?: string;
  price?: number;
  value?: number;
  city?: string;
  latitude?: number | null;
  longitude?: number | null;
  status?: CarRow['status'];
  verification_status?: CarRow['verification_status'];
  transmission?: string;
  fuelType?: string;
  seats?: number;
  features?: string[];
  pickup_options?: StoredPickupOption[];
  insurance_options?: StoredInsuranceOption[];
  rating?: number | null;
  total_reviews?: number;
  deleted?: boolean;
  created_at?: Date;
  overrides?: Partial<NewCar>;
}

/** A car owned by `owner`; verified and available unless told. */
export async function createTestCar(ctx: AppContext, owner: { id: string }, options: TestCarOptions = {}): Promise<CarRow> {
  carCounter += 1;
  const make = options.make ?? 'Toyota';
  const model = options.model ?? 'Corolla';
  const now = options.created_at ?? new Date(ctx.clock.now().getTime() - carCounter * 1000);
  return ctx.db
    .insertInto('cars')
    .values({
      id: randomUUID(),
      car_username: `${make}-${model}-${carCounter}${randomBytes(3).toString('hex')}`.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
      owner_id: owner.id,
      car_make: make,
      car_model: model,
      car_year: 2022,
      car_color: 'White',
      car_type: options.type ?? 'Sedan',
      car_plate_number: `CA ${100 + carCounter}-000`,
      car_value_cents: (options.value ?? 300000) * 100,
      car_rent_price_cents: Math.round((options.price ?? 500) * 100),
      car_odometer: 42000,
      description: `A test ${make} ${model}`,
      images: '[]',
      pickup_location: options.city ?? 'Cape Town',
      latitude: options.latitude === undefined ? -33.9249 : options.latitude,
      longitude: options.longitude === undefined ? 18.4241 : options.longitude,
      status: options.status ?? 'available',
      verification_status: options.verification_status ?? 'verified',
      specifications: JSON.stringify({
        transmission: options.transmission ?? 'Automatic',
        fuelType: options.fuelType ?? 'Petrol',
        seats: options.seats ?? 5,
        doors: 4,
        engine: '1.8L',
        fuelConsumption: '6.2L/100km',
      }),
      features: JSON.stringify(options.features ?? ['Bluetooth']),
      safety: '["Airbags"]',
      rules: '["No smoking"]',
      pickup_options: JSON.stringify(options.pickup_options ?? [PICKUP_HOME, PICKUP_AIRPORT]),
      insurance_options: JSON.stringify(options.insurance_options ?? [INSURANCE_STANDARD]),
      rating: options.rating ?? null,
      total_reviews: options.total_reviews ?? 0,
      created_at: now,
      updated_at: now,
      deleted_at: options.deleted ? now : null,
      ...options.overrides,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export interface TestBookingOptions {
  start: string;
  days?: number;
  end?: string;
  status?: BookingRow['status'];
  payment_status?: 'unpaid' | 'paid';
}

/** A daily booking of `car` by `renter`, priced like the API would. */
export async function createTestBooking(ctx: AppContext, car: CarRow, renter: TestUser | { id: string }, options: TestBookingOptions): Promise<BookingRow> {
  const end = options.end ?? addDays(options.start, options.days ?? 2);
  const days = Math.max(1, (Date.parse(end) - Date.parse(options.start)) / 86_400_000);
  const price = calculatePrice({ dailyPrice: car.car_rent_price_cents / 100, isHourly: false, days, hours: 0, settings: DEFAULT_SETTINGS });
  const status = options.status ?? 'pending';
  const values: NewBooking = {
    booking_number: `KT${randomBytes(5).toString('hex').toUpperCase()}`,
    car_id: car.id,
    renter_id: renter.id,
    owner_id: car.owner_id,
    start_date: options.start,
    end_date: end,
    start_time: '09:00',
    end_time: '17:00',
    is_hourly_booking: false,
    duration_days: days,
    status,
    subtotal_cents: price.cents.subtotal,
    service_fee_cents: price.cents.serviceFee,
    insurance_fee_cents: 0,
    pickup_fee_cents: 0,
    total_price_cents: price.cents.total,
    service_fee_rate: price.serviceFeeRate,
    commission_rate: price.commissionRate,
    car_owner_earnings_cents: price.cents.carOwnerEarnings,
    app_fee_cents: price.cents.appFee,
    payment_status: options.payment_status ?? (status === 'active' || status === 'completed' ? 'paid' : 'unpaid'),
    // On the test clock, so expiry (48 h pending, 24 h unpaid) is measured from the test's "now",
    // by the same rule the bookings module stores.
    expires_at: bookingExpiresAt({
      status,
      payment_status: options.payment_status ?? (status === 'active' || status === 'completed' ? 'paid' : 'unpaid'),
      start_date: options.start,
      created_at: ctx.clock.now(),
      confirmed_at: null,
    }),
    created_at: ctx.clock.now(),
    updated_at: ctx.clock.now(),
  };
  return ctx.db.insertInto('bookings').values(values).returningAll().executeTakeFirstOrThrow();
}

/** A review of `car` by `reviewer`; the car's and its host's ratings follow. */
export async function createTestReview(ctx: AppContext, car: CarRow, reviewer: { id: string }, rating: number, comment = 'Great car'): Promise<void> {
  await ctx.db.insertInto('reviews').values({ car_id: car.id, reviewer_id: reviewer.id, rating, comment }).execute();
  await refreshRatings(ctx.db, car.id);
}

let plateCounter = 0;

/** A valid body for POST /car/newCar (what the wizard sends), with a plate no other car has. */
export function newCarBody(overrides: Partial<NewCarBody> = {}): NewCarBody {
  plateCounter += 1;
  return {
    car_make: 'Toyota',
    car_model: 'Corolla Cross',
    car_year: 2023,
    car_color: 'White',
    car_type: 'SUV',
    car_plate_number: `WP ${String(plateCounter).padStart(6, '0')}`,
    car_value: 450000,
    car_rent_price: 750,
    car_odometer: 12000,
    description: 'Clean, reliable and ready for the Garden Route.',
    pickup_location: 'Cape Town',
    specifications: { transmission: 'Automatic', fuelType: 'Petrol', seats: 5, doors: 5, engine: '1.8L', fuelConsumption: '6.8L/100km' },
    features: ['Bluetooth', 'Apple CarPlay'],
    safety: ['Airbags'],
    rules: ['No smoking', ''],
    pickup_options: [],
    insurance_options: [],
    ...overrides,
  };
}

/** A tiny valid PNG as a data URL. */
export function pngDataUrl(): string {
  return `data:image/png;base64,${pngBytes().toString('base64')}`;
}

/**
 * Through the API, as a car gets there: its owner uploads a registration document and an admin
 * approves it, which a car needs before it can be verified (decision 033).
 */
export async function approveRegistration(app: FastifyInstance, car: string, ownerHeaders: Record<string, string>, adminHeaders: Record<string, string>): Promise<void> {
  const body = multipart([{ name: 'registrationDocument', filename: 'registration.pdf', data: pdfBytes('Registration'), contentType: 'application/pdf' }]);
  const uploaded = await app.inject({ method: 'POST', url: `/api/car/uploadRegistrationDocument/${car}`, headers: { ...ownerHeaders, ...body.headers }, payload: body.payload });
  if (uploaded.statusCode !== 200) throw new Error(`registration upload: ${uploaded.statusCode} ${uploaded.body}`);
  const approved = await app.inject({ method: 'PATCH', url: `/api/car/verifyRegistrationDocument/${car}`, headers: adminHeaders, payload: { verified: true } });
  if (approved.statusCode !== 200) throw new Error(`registration approval: ${approved.statusCode} ${approved.body}`);
}
