// Bookings: statuses and their machine (decisions.md section 5), the create request of the detail
// page (document 2 section 3) and the booking as read by every screen (document 3 section 3).
import { z } from './zod';
import { TIME_PATTERN } from './booking-rules';
import { calendarDate } from './calendar-date';
import { midnightAfter } from './zoned-date';
import { safeText } from './text';

export const BOOKING_STATUSES = ['pending', 'confirmed', 'active', 'completed', 'cancelled', 'rejected'] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];
export const PAYMENT_STATUSES = ['unpaid', 'paid'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** Allowed status changes; anything else is refused with 409 (decisions.md section 5). */
export const BOOKING_TRANSITIONS: Record<BookingStatus, readonly BookingStatus[]> = {
  pending: ['confirmed', 'rejected', 'cancelled'],
  confirmed: ['cancelled', 'active'],
  active: ['completed', 'cancelled'],
  completed: [],
  cancelled: [],
  rejected: [],
};

export function canTransition(from: string, to: string): boolean {
  const allowed = BOOKING_TRANSITIONS[from.toLowerCase() as BookingStatus];
  return !!allowed && allowed.includes(to.toLowerCase() as BookingStatus);
}

/**
 * Who may make each allowed change. `payment` is a verified payment (never a person's choice);
 * `system` is the expiry job. The server refuses a change not in BOOKING_TRANSITIONS with 409 and a
 * change by the wrong party with 403; the web shows only the buttons this table allows.
 */
export type BookingActor = 'renter' | 'owner' | 'admin' | 'payment' | 'system';
export const BOOKING_TRANSITION_ACTORS: Record<string, readonly BookingActor[]> = {
  'pending->confirmed': ['owner', 'admin'],
  'pending->rejected': ['owner', 'admin'],
  'pending->cancelled': ['renter', 'admin', 'system'],
  'confirmed->cancelled': ['renter', 'admin', 'system'],
  'confirmed->active': ['payment'],
  'active->completed': ['owner', 'admin'],
  // A paid trip, by the cancellation policy (cancellation.ts): the renter before it starts, the
  // host before it starts (or reporting a no-show after), an administrator at any time.
  'active->cancelled': ['renter', 'owner', 'admin'],
};

/** True when `actor` may move a booking from `from` to `to` (the change must also be allowed). */
export function canActorTransition(from: string, to: string, actor: BookingActor): boolean {
  if (!canTransition(from, to)) return false;
  return (BOOKING_TRANSITION_ACTORS[`${from.toLowerCase()}->${to.toLowerCase()}`] ?? []).includes(actor);
}

/** Hours an unanswered request and an accepted-but-unpaid booking stay open (decisions.md section 5). */
export const PENDING_EXPIRY_HOURS = 48;
export const UNPAID_EXPIRY_HOURS = 24;

const timeField = (label: string) => safeText(label).regex(TIME_PATTERN, `${label} must be a time (HH:mm)`);

/** A chosen option may be sent as the option object (as the detail page does) or its id. */
const chosenOption = z
  .union([safeText('Option').max(100), z.object({ id: safeText('Option id').max(100).nullable().optional() }).loose()])
  .nullable()
  .optional()
  .transform((v) => (v == null ? null : typeof v === 'string' ? v || null : (v.id ?? null)));

/**
 * POST /booking/create. Price fields, status and the other fields of the seed's request
 * (total_price, commission_rate, duration_*, payment_method, ...) are accepted and ignored: the
 * server computes them. `user_username` is used only when an admin books on someone's behalf.
 */
export const createBookingBodySchema = z.object({
  car_username: safeText('car_username', { error: 'car_username is required' }).min(1, 'car_username is required').max(120),
  start_date: calendarDate('Start date'),
  end_date: calendarDate('End date'),
  start_time: z.union([timeField('Pickup time'), z.literal('')]).nullable().optional(),
  end_time: z.union([timeField('Return time'), z.literal('')]).nullable().optional(),
  is_hourly_booking: z.boolean().optional().default(false),
  pickup_option: chosenOption,
  insurance_option: chosenOption,
  special_requirements: safeText('Special requirements', { multiline: true })
    .max(1000, 'Special requirements must be at most 1000 characters')
    .nullable()
    .optional(),
  user_username: safeText('user_username').max(100).optional(),
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
  /** Null until the trip is paid, for the renter (decision 055); the host and admins always see it. */
  car_plate_number: z.string().nullable(),
  image: z.string().nullable(),
  /** The area only ("Gardens, Cape Town") until the trip is paid, for the renter; so is pickup_option.address. */
  pickup_location: z.string(),
  /** Whether the place and plate above are the exact ones. */
  exact_place: z.boolean(),
  specifications: z.object({ transmission: z.string(), fuelType: z.string() }),
});

/** A booking's ledger sums, in rand; null where the viewer has no business seeing it. */
export const bookingMoneySchema = z.object({
  charged: money.nullable(),
  refunded: money.nullable(),
  refund_pending: money.nullable(),
  cancellation_fee: money.nullable(),
  host_share: money.nullable(),
  host_penalty: money.nullable(),
});
export type BookingMoney = z.infer<typeof bookingMoneySchema>;

export const REFUND_STATUSES = ['pending', 'refunded', 'failed'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/**
 * A charge of the booking that could not stay on it (paid twice, paid after it expired or was
 * cancelled, a wrong amount) and goes back to the renter's card in full (docs/decisions/024):
 * `pending` until the payment provider accepts the refund, then `refunded`.
 */
export const bookingRefundSchema = z.object({
  /** The refund's ledger row (an administrator retries a failed one by it). */
  id: z.string(),
  /** The payment reference of the refunded charge (as in the renter's notification). */
  reference: z.string(),
  amount: money,
  status: z.enum(REFUND_STATUSES),
  reason: z.string(),
  /** What it gives back: the trip's money (a cancellation, a charge that could not stay), or the deposit once the claim window closed (decision 064). */
  of: z.enum(['trip', 'deposit']),
  requested_at: z.string(),
  refunded_at: z.string().nullable(),
  /** Why the provider refused it (administrators only). */
  last_error: z.string().optional(),
});
export type BookingRefund = z.infer<typeof bookingRefundSchema>;

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
  /** The host, named to the renter as the renter is to the host: full name (public on the car page), username as its fallback. */
  host: z.object({ username: z.string(), full_name: z.string() }),
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
  /** The rental after the discount (decision 048). */
  subtotal: money,
  /** The car's weekly or monthly discount taken off the rental, and its per cent (0 when none; decision 048). */
  discount: money.optional(),
  discount_rate: z.number().optional(),
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
  /** When a pending or confirmed-unpaid booking will expire if nothing happens; null otherwise. */
  expires_at: z.string().nullable(),
  /** Refunds of this booking's charges (a cancellation's, or an extra charge's), oldest first; shown to the renter and admins, empty for the car owner. */
  refunds: z.array(bookingRefundSchema),
  /** Why it was cancelled: 'renter', 'host', 'no_show', 'admin', 'expired', 'car_removed', 'renter_closed'; null otherwise. */
  cancel_cause: z.string().nullable(),
  /** The deposit taken with the trip's charge (rand; decision 064), and the trip terms the renter agreed to. */
  deposit: z.number(),
  distance_allowance_km: z.number().int().nullable(),
  extra_km_rate: z.number(),
  /** The booking's money as sums of its ledger rows, each party seeing their own side (null fields are not theirs to see). */
  money: bookingMoneySchema,
});
export type Booking = z.infer<typeof bookingSchema>;

const hostResponse = safeText('The response', { multiline: true }).max(1000, 'The response must be at most 1000 characters');

/** PATCH /booking/approve|reject/{id}: an optional message to the renter. */
export const hostResponseBodySchema = z
  .object({ host_response: hostResponse.optional() })
  .loose()
  .nullable()
  .optional();

/** PATCH /booking/{id}/status and PUT /booking/update/{id}; the seed may send 'Cancelled' with a capital. */
export const bookingStatusBodySchema = z
  .object({
    status: z
      .string({ error: 'status is required' })
      .trim()
      .toLowerCase()
      .pipe(z.enum(BOOKING_STATUSES, { error: `status must be one of ${BOOKING_STATUSES.join(', ')}` })),
    host_response: hostResponse.optional(),
  })
  .loose();

/**
 * Whose bookings a list or the stats cover. Admins see the whole platform unless they ask for
 * `scope=mine` (their own pages show their own trips and cars; the admin panel shows all); everyone
 * else always sees only their own. `as` narrows "their own" to bookings of their cars (owner) or
 * their trips (renter).
 */
export const BOOKING_SCOPES = ['all', 'mine'] as const;
export const BOOKING_PARTS = ['owner', 'renter'] as const;
export const bookingScopeQuerySchema = z.object({
  scope: z.enum(BOOKING_SCOPES, { error: `scope must be one of ${BOOKING_SCOPES.join(', ')}` }).optional(),
  as: z.enum(BOOKING_PARTS, { error: `as must be one of ${BOOKING_PARTS.join(', ')}` }).optional(),
});
export type BookingScopeQuery = z.infer<typeof bookingScopeQuerySchema>;

/** Rows per page of GET /booking/getList when none is asked for (at most 100), as the Users list. */
export const BOOKING_LIST_PAGE_SIZE = 25;

/**
 * GET /booking/getList: status, car_username, and a case-insensitive search over the booking
 * number, the car (username, make, model) and the renter (username, full name); paged on the
 * server, newest first. Visibility as getAll.
 */
export const bookingListQuerySchema = bookingScopeQuerySchema.extend({
  status: z.string().trim().toLowerCase().pipe(z.enum(BOOKING_STATUSES)).optional(),
  car_username: safeText('car_username').max(120).optional(),
  search: safeText('Search').max(100).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(BOOKING_LIST_PAGE_SIZE),
});
export type BookingListQuery = z.infer<typeof bookingListQuerySchema>;

/** `total` counts the bookings matching the filters (every page). */
export const bookingListMetaSchema = z.object({
  total: z.number().int().nonnegative(),
  page: z.number().int(),
  limit: z.number().int(),
});
export type BookingListMeta = z.infer<typeof bookingListMetaSchema>;

export const bookingStatsSchema = z.object({
  total: z.number().int(),
  by_status: z.record(z.string(), z.number().int()),
  pending: z.number().int(),
  confirmed: z.number().int(),
  active: z.number().int(),
  completed: z.number().int(),
  cancelled: z.number().int(),
  rejected: z.number().int(),
  /** Ledger sums in rand (decision 039): revenue (what renters paid and kept paid), the host's
   * earnings and the platform's fees on the viewer's cars (admins: the platform), and what the
   * viewer spent as a renter (a cancelled trip counts only the fee kept). */
  total_revenue: z.number(),
  total_earnings: z.number(),
  total_app_fee: z.number(),
  total_spent: z.number(),
});
export type BookingStats = z.infer<typeof bookingStatsSchema>;

export const PAYMENT_PROVIDERS = ['paystack', 'sandbox'] as const;
export type PaymentProviderName = (typeof PAYMENT_PROVIDERS)[number];

export const paymentSessionSchema = z.object({
  provider: z.enum(PAYMENT_PROVIDERS),
  public_key: z.string().optional(),
  reference: z.string(),
  /** Cents: total_price x 100. */
  amount: z.number().int(),
  currency: z.literal('ZAR'),
  email: z.string(),
  access_code: z.string().optional(),
  /** Paystack's hosted checkout page for this reference (the same for every request while it is open). */
  authorization_url: z.string().optional(),
});
export type PaymentSession = z.infer<typeof paymentSessionSchema>;

export const payBookingBodySchema = z.object({
  paystack_reference: safeText('paystack_reference', { error: 'paystack_reference is required' }).min(1, 'paystack_reference is required').max(200),
});

/** Test cards of the sandbox checkout. */
export const SANDBOX_SUCCESS_CARD = '4084084084084081';
export const SANDBOX_DECLINED_CARD = '4000000000000002';
/** Pays at checkout, and is declined when charged again later (a claim beyond the deposit; decision 064). */
export const SANDBOX_DECLINES_LATER_CARD = '4000000000009995';

export const sandboxChargeBodySchema = z.object({
  reference: safeText('reference', { error: 'reference is required' }).min(1, 'reference is required').max(200),
  card_number: safeText('Card number', { error: 'Card number is required' })
    .max(40, 'Card number must be 12 to 19 digits')
    .transform((v) => v.replace(/[\s-]/g, ''))
    .pipe(z.string().regex(/^\d{12,19}$/, 'Card number must be 12 to 19 digits')),
  expiry: safeText('Expiry', { error: 'Expiry is required' }).regex(/^(0[1-9]|1[0-2])\/(\d{2}|\d{4})$/, 'Expiry must be MM/YY'),
  cvv: safeText('CVV', { error: 'CVV is required' }).regex(/^\d{3,4}$/, 'CVV must be 3 or 4 digits'),
});

export const sandboxChargeResultSchema = z.object({ status: z.enum(['success', 'failed']), message: z.string() });

/** Payment messages of document 3 section 8 that the server also speaks. */
export const PAYMENT_MESSAGES = {
  activated: 'Payment Successful: Booking activated!',
  couldNotActivate: 'Could not activate booking.',
  declined: 'Your card was declined.',
} as const;


/**
 * GET /car/{id}/availability: what holds a car, without personal data (decision 047): holding
 * bookings (their status) and the host's blocked periods (status 'blocked', kind 'block'). `from`
 * and `to` are the instants held, [from, to), a booking's buffer included; start_date and end_date
 * are the Johannesburg days that range touches.
 */
export const carAvailabilitySchema = z.object({
  start_date: z.string(),
  end_date: z.string(),
  status: z.enum(['pending', 'confirmed', 'active', 'blocked']),
  kind: z.enum(['booking', 'block']),
  from: z.string(),
  to: z.string(),
  is_hourly_booking: z.boolean().nullable().optional(),
  buffer_minutes: z.number().int().nullable().optional(),
});
export type CarAvailability = z.infer<typeof carAvailabilitySchema>;


/** What an expired booking's host_response says: which deadline passed (decisions.md section 5). */
export function expiryReason(b: { status: string; start_date: string; expires_at: Date | string }): string {
  const atStart = new Date(b.expires_at).getTime() === midnightAfter(b.start_date).getTime();
  if (b.status === 'pending') {
    return atStart ? 'Expired: the host did not answer before the start date.' : `Expired: the host did not answer within ${PENDING_EXPIRY_HOURS} hours.`;
  }
  return atStart
    ? 'Expired: the booking was not paid before the start date.'
    : `Expired: the booking was not paid within ${UNPAID_EXPIRY_HOURS} hours of being accepted.`;
}

/**
 * When a booking expires if nobody acts (decisions.md section 5): pending 48 hours after it was
 * made, confirmed-but-unpaid 24 hours after the host accepted; either at the midnight after its
 * start date if that comes first. Null for every other booking.
 */
export function bookingExpiresAt(b: {
  status: string;
  payment_status: string;
  start_date: string;
  created_at: Date | string;
  confirmed_at: Date | string | null;
}): Date | null {
  let deadline: number;
  if (b.status === 'pending') deadline = new Date(b.created_at).getTime() + PENDING_EXPIRY_HOURS * 3_600_000;
  else if (b.status === 'confirmed' && b.payment_status === 'unpaid') {
    deadline = new Date(b.confirmed_at ?? b.created_at).getTime() + UNPAID_EXPIRY_HOURS * 3_600_000;
  } else return null;
  return new Date(Math.min(deadline, midnightAfter(b.start_date).getTime()));
}
