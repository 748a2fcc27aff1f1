// Bookings: statuses and their machine (decisions.md section 5), the create request of the detail
// page (document 2 section 3) and the booking as read by every screen (document 3 section 3).
import { z } from 'zod';
import { DATE_PATTERN, TIME_PATTERN } from './booking-rules';

export const BOOKING_STATUSES = ['pending', 'confirmed', 'active', 'completed', 'cancelled', 'rejected'] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];
export const PAYMENT_STATUSES = ['unpaid', 'paid'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** Allowed status changes; anything else is refused with 409 (decisions.md section 5). */
export const BOOKING_TRANSITIONS: Record<BookingStatus, readonly BookingStatus[]> = {
  pending: ['confirmed', 'rejected', 'cancelled'],
  confirmed: ['cancelled', 'active'],
  active: ['completed'],
  completed: [],
  cancelled: [],
  rejected: [],
};

export function canTransition(from: string, to: string): boolean {
  const allowed = BOOKING_TRANSITIONS[from.toLowerCase() as BookingStatus];
  return !!allowed && allowed.includes(to.toLowerCase() as BookingStatus);
}

const dateField = (label: string) =>
  z.string({ error: `${label} is required` }).regex(DATE_PATTERN, `${label} must be a date (YYYY-MM-DD)`);
const timeField = (label: string) => z.string().regex(TIME_PATTERN, `${label} must be a time (HH:mm)`);

/** A chosen option may be sent as the option object (as the detail page does) or its id. */
const chosenOption = z
  .union([z.string().max(100), z.object({ id: z.string().max(100).nullable().optional() }).loose()])
  .nullable()
  .optional()
  .transform((v) => (v == null ? null : typeof v === 'string' ? v || null : (v.id ?? null)));

/**
 * POST /booking/create. Price fields, status and the other fields of the seed's request
 * (total_price, commission_rate, duration_*, payment_method, ...) are accepted and ignored: the
 * server computes them. `user_username` is used only when an admin books on someone's behalf.
 */
export const createBookingBodySchema = z.object({
  car_username: z.string({ error: 'car_username is required' }).trim().min(1, 'car_username is required').max(120),
  start_date: dateField('Start date'),
  end_date: dateField('End date'),
  start_time: z.union([timeField('Pickup time'), z.literal('')]).nullable().optional(),
  end_time: z.union([timeField('Return time'), z.literal('')]).nullable().optional(),
  is_hourly_booking: z.boolean().optional().default(false),
  pickup_option: chosenOption,
  insurance_option: chosenOption,
  special_requirements: z.string().trim().max(1000, 'Special requirements must be at most 1000 characters').nullable().optional(),
  user_username: z.string().trim().max(100).optional(),
});
export type CreateBookingBody = z.input<typeof createBookingBodySchema>;

const money = z.number();

export const bookingPickupOptionSchema = z.object({
  id: z.string().nullable(),
  name: z.string(),
  address: z.string(),
  type: z.string(),
  additional_fee: money,
  /** The seed's booking card reads `price` and `is_airport`. */
  price: money,
  is_airport: z.boolean(),
  available_times: z.array(z.string()),
});

export const bookingInsuranceOptionSchema = z.object({
  id: z.string().nullable(),
  name: z.string(),
  description: z.string(),
  daily_rate: money,
  /** Per day, as the seed's booking card reads it. */
  price: money,
  excess_amount: money,
  coverage: z.array(z.string()),
});

export const bookingCarSummarySchema = z.object({
  id: z.string(),
  car_username: z.string(),
  car_make: z.string(),
  car_model: z.string(),
  car_year: z.number().int(),
  car_color: z.string(),
  car_type: z.string(),
  car_plate_number: z.string(),
  image: z.string().nullable(),
  pickup_location: z.string(),
  specifications: z.object({ transmission: z.string(), fuelType: z.string() }),
});

export const bookingSchema = z.object({
  id: z.string(),
  booking_id: z.string(),
  status: z.enum(BOOKING_STATUSES),
  car_id: z.string(),
  car_username: z.string(),
  car_owner: z.string(),
  car_name: z.string(),
  car_details: z.object({ car_name: z.string() }),
  car: bookingCarSummarySchema,
  user_id: z.string(),
  user_username: z.string(),
  username: z.string(),
  renter: z.object({ username: z.string(), full_name: z.string() }),
  start_date: z.string(),
  end_date: z.string(),
  pickup_date: z.string(),
  return_date: z.string(),
  start_time: z.string(),
  end_time: z.string(),
  is_hourly_booking: z.boolean(),
  booking_type: z.enum(['hourly', 'daily']),
  duration_days: z.number().int(),
  duration_hours: z.number().int().nullable(),
  subtotal: money,
  service_fee: money,
  insurance_fee: money,
  pickup_fee: money,
  total_price: money,
  total_cost: money,
  total_amount: money,
  service_fee_rate: z.number(),
  commission_rate: z.number(),
  car_owner_earnings: money,
  app_fee: money,
  pickup_option: bookingPickupOptionSchema.nullable(),
  insurance_option: bookingInsuranceOptionSchema.nullable(),
  special_requirements: z.string().nullable(),
  host_response: z.string().nullable(),
  host_response_date: z.string().nullable(),
  payment_status: z.enum(PAYMENT_STATUSES),
  payment_reference: z.string().nullable(),
  paid_at: z.string().nullable(),
  confirmed_at: z.string().nullable(),
  completed_at: z.string().nullable(),
  cancelled_at: z.string().nullable(),
  actual_return_date: z.string().nullable(),
  condition_notes: z.string().nullable(),
  odometer_reading: z.number().int().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Booking = z.infer<typeof bookingSchema>;

/** GET /car/{id}/availability: the dates a car is held, without personal data. */
export const carAvailabilitySchema = z.object({
  start_date: z.string(),
  end_date: z.string(),
  status: z.enum(['pending', 'confirmed', 'active']),
});
export type CarAvailability = z.infer<typeof carAvailabilitySchema>;
