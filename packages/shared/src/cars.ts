// Cars (document 2 sections 3-5, decisions.md section 4): the car as every screen reads it, the
// requests that change it, the browse query, and the wizard's listing rules with their messages.
import { z } from './zod';
import { TIME_PATTERN } from './booking-rules';
import { calendarDateOrTimestamp, optionalCalendarDate } from './calendar-date';
import { CAR_BADGES, CAR_SORTS, DEFAULT_NEW_CAR, DEFAULT_PICKUP_TIMES, PICKUP_OPTION_TYPES, PICKUP_TYPES } from './catalogues';
import {
  atMostCount,
  atMostRand,
  MAX_CAR_VALUE,
  MAX_CAR_YEAR,
  MAX_DAILY_RATE,
  MAX_EXCESS,
  MAX_INSURANCE_DAILY_RATE,
  MAX_ODOMETER_KM,
  MAX_PAGE,
  MAX_PICKUP_FEE,
} from './limits';
import { formatRand } from './pricing';
import { safeText } from './text';
import { tripRulesSchema } from './trip-rules-schema';
import { instantBookingSchema } from './instant-booking-schema';

// ---- A car photo in several widths and formats (issue 22, decision 045; helpers in car-photos.ts) ----
export const carPhotoVariantSchema = z.object({
  width: z.number().int(),
  height: z.number().int(),
  jpeg: z.string(),
  webp: z.string(),
  avif: z.string(),
});
export type CarPhotoVariant = z.infer<typeof carPhotoVariantSchema>;

export const carPhotoSchema = z
  .object({
    /** The full JPEG: the same URL as in the car's `images`, at the same position. */
    src: z.string(),
    /** The full photo's size in pixels; null until the photo is converted. */
    width: z.number().int().nullable(),
    height: z.number().int().nullable(),
    /** Narrowest first, at most 1 280 wide (a narrower photo ends with its own width, whose `jpeg` is `src`). Empty until converted. */
    variants: z.array(carPhotoVariantSchema),
  })
  .describe('A car photo with the widths and formats it is stored in (issue 22).');
export type CarPhoto = z.infer<typeof carPhotoSchema>;

export const CAR_STATUSES = ['available', 'offline', 'active', 'rented', 'maintenance'] as const;
export type CarStatus = (typeof CAR_STATUSES)[number];
/** Statuses an owner or admin may set; `rented` follows the bookings and is never set by hand. */
export const SETTABLE_CAR_STATUSES = ['available', 'offline', 'maintenance'] as const;
export const CAR_VERIFICATION_STATUSES = ['pending_verification', 'verified', 'rejected'] as const;
export type CarVerificationStatus = (typeof CAR_VERIFICATION_STATUSES)[number];

export const MAX_CAR_PHOTOS = 10;
export const MAX_CAR_PHOTO_BYTES = 10 * 1024 * 1024;
export const CAR_LIST_DEFAULT_LIMIT = 12;
export const CAR_LIST_MAX_LIMIT = 48;
export const SEATS_MIN = 2;
export const SEATS_MAX = 8;
export const DOORS_MIN = 2;
export const DOORS_MAX = 5;
export const CAR_YEAR_MIN = 1950;
export const DEFAULT_RETURN_NOTES = 'Returned via host dashboard';

// ---- Inputs ----
/** Rand, 0 to `max`, kept to whole cents (the database holds cents: R0.001 is R0.00). */
const amount = (label: string, max: number) =>
  z.coerce
    .number({ error: `${label} must be a number` })
    .min(0, `${label} cannot be negative`)
    .max(max, atMostRand(label, max))
    .transform((v) => Math.round(v * 100) / 100);
const wholeNumber = (label: string, max: number, maxMessage = atMostCount(label, max)) =>
  z.coerce
    .number({ error: `${label} must be a number` })
    .int(`${label} must be a whole number`)
    .min(0, `${label} cannot be negative`)
    .max(max, maxMessage);
const text = (label: string, max: number, options: { multiline?: boolean } = {}) =>
  safeText(label, options).max(max, `${label} must be at most ${max} characters`);
const textList = (label: string, maxItems: number) =>
  z
    .array(safeText(`${label[0]!.toUpperCase()}${label.slice(1)}`).max(200, `Each ${label} must be at most 200 characters`))
    .max(maxItems, `At most ${maxItems} ${label}s`)
    .transform((items) => [...new Set(items.filter((item) => item !== ''))]);

export const pickupOptionInputSchema = z.object({
  id: safeText('Pickup option id').max(100).optional(),
  name: safeText('Pickup location name', { error: 'Pickup location name is required' })
    .min(1, 'Pickup location name is required')
    .max(120, 'Pickup location name must be at most 120 characters'),
  address: safeText('Pickup address', { error: 'Pickup address is required' })
    .min(1, 'Pickup address is required')
    .max(300, 'Pickup address must be at most 300 characters'),
  additional_fee: amount('Additional fee', MAX_PICKUP_FEE).optional().default(0),
  type: z.enum(PICKUP_OPTION_TYPES, { error: `Pickup type must be one of ${PICKUP_OPTION_TYPES.join(', ')}` }).optional().default('standard'),
  available_times: z
    .array(safeText('Pickup times').regex(TIME_PATTERN, 'Pickup times must be HH:mm'))
    .max(24, 'At most 24 pickup times')
    .optional()
    .transform((times) => (times && times.length ? [...new Set(times)].sort() : [...DEFAULT_PICKUP_TIMES])),
});
export type PickupOptionInput = z.input<typeof pickupOptionInputSchema>;

export const insuranceOptionInputSchema = z.object({
  id: safeText('Insurance plan id').max(100).optional(),
  name: safeText('Insurance plan name', { error: 'Insurance plan name is required' })
    .min(1, 'Insurance plan name is required')
    .max(120, 'Insurance plan name must be at most 120 characters'),
  description: safeText('Insurance plan description', { error: 'Insurance plan description is required', multiline: true })
    .min(1, 'Insurance plan description is required')
    .max(1000, 'Insurance plan description must be at most 1000 characters'),
  daily_rate: amount('Daily rate', MAX_INSURANCE_DAILY_RATE).optional().default(0),
  excess_amount: amount('Excess amount', MAX_EXCESS).optional().default(0),
  /** A list, or comma-separated text as the host dashboard enters it. */
  coverage: z
    .union([z.array(safeText('Coverage').max(200)).max(50, 'At most 50 covered items'), safeText('Coverage', { multiline: true }).max(2000)])
    .optional()
    .transform((v) => (v === undefined ? [] : (Array.isArray(v) ? v : v.split(',')).map((s) => s.trim()).filter(Boolean))),
  included: z.boolean().optional().default(false),
  popular: z.boolean().optional().default(false),
  recommended: z.boolean().optional().default(false),
});
export type InsuranceOptionInput = z.input<typeof insuranceOptionInputSchema>;

export const specificationsInputSchema = z.object({
  transmission: text('Transmission', 40).optional(),
  fuelType: text('Fuel type', 40).optional(),
  seats: wholeNumber('Seats', SEATS_MAX, `Seats must be between ${SEATS_MIN} and ${SEATS_MAX}.`).optional(),
  doors: wholeNumber('Doors', DOORS_MAX, `Doors must be between ${DOORS_MIN} and ${DOORS_MAX}.`).optional(),
  engine: text('Engine', 60).optional(),
  fuelConsumption: text('Fuel consumption', 60).optional(),
});

const latitude = z.coerce.number({ error: 'Latitude must be a number' }).min(-90, 'Latitude must be between -90 and 90').max(90, 'Latitude must be between -90 and 90');
const longitude = z.coerce.number({ error: 'Longitude must be a number' }).min(-180, 'Longitude must be between -180 and 180').max(180, 'Longitude must be between -180 and 180');

/** Fields a car is created or edited with. Required fields are checked by validateCarListing so the wizard's messages apply. */
const carFieldsShape = {
  car_make: text('Make', 60).optional(),
  car_model: text('Model', 80).optional(),
  // The listing rule (validateCarLimits) then allows CAR_YEAR_MIN to next year.
  car_year: z.coerce
    .number({ error: 'Year must be a number' })
    .int('Year must be a whole number')
    .min(0, 'Year cannot be negative')
    .max(MAX_CAR_YEAR, `Year must be at most ${MAX_CAR_YEAR}`)
    .optional(),
  car_color: text('Colour', 40).optional(),
  car_type: text('Type', 40).optional(),
  car_plate_number: text('Plate number', 20).optional(),
  car_value: amount('Vehicle value', MAX_CAR_VALUE).optional(),
  car_rent_price: amount('Daily price', MAX_DAILY_RATE).optional(),
  car_odometer: wholeNumber('Odometer', MAX_ODOMETER_KM, atMostCount('Odometer', MAX_ODOMETER_KM, 'km')).optional(),
  /** Trip terms (issue 34, decision 064): the deposit in rand (R 0, or within the admin's bounds), the tank, the daily km and the rate beyond them. */
  deposit: amount('Deposit', 100_000).optional(),
  tank_litres: z.coerce.number({ error: 'Tank size must be a number of litres' }).int('Tank size must be whole litres').min(10, 'Tank size must be 10 to 250 litres').max(250, 'Tank size must be 10 to 250 litres').nullable().optional(),
  /** Kilometres a day included; null: unlimited. */
  distance_allowance_km: z.coerce.number({ error: 'Daily kilometres must be a number' }).int('Daily kilometres must be whole').min(50, 'Daily kilometres must be 50 to 5 000').max(5000, 'Daily kilometres must be 50 to 5 000').nullable().optional(),
  extra_km_rate: amount('Rate per extra km', 100).optional(),
  description: text('Description', 4000, { multiline: true }).optional(),
  car_description: text('Description', 4000, { multiline: true }).optional(),
  /** Photo data URLs (as the wizard sends them) or URLs of photos already stored for this car. */
  images: z.array(safeText('Photo', { trim: false })).max(MAX_CAR_PHOTOS, `You can add at most ${MAX_CAR_PHOTOS} photos.`).optional(),
  car_images: z.array(safeText('Photo', { trim: false })).max(MAX_CAR_PHOTOS, `You can add at most ${MAX_CAR_PHOTOS} photos.`).optional(),
  pickup_location: text('Pickup location', 200).optional(),
  latitude: latitude.nullable().optional(),
  longitude: longitude.nullable().optional(),
  specifications: specificationsInputSchema.optional(),
  /** Flat aliases some screens send. */
  transmission: text('Transmission', 40).optional(),
  fuel_type: text('Fuel type', 40).optional(),
  seating_capacity: wholeNumber('Seats', SEATS_MAX, `Seats must be between ${SEATS_MIN} and ${SEATS_MAX}.`).optional(),
  features: textList('feature', 40).optional(),
  safety: textList('safety feature', 40).optional(),
  rules: textList('rule', 40).optional(),
  pickup_options: z.array(pickupOptionInputSchema).max(20, 'At most 20 pickup locations').optional(),
  insurance_options: z.array(insuranceOptionInputSchema).max(20, 'At most 20 insurance plans').optional(),
};

/** POST /car/newCar/{username}. */
export const newCarBodySchema = z.object({
  ...carFieldsShape,
  /** The wizard proposes one (make-model-6 digits); the server keeps it when free, or makes its own. */
  car_username: safeText('Car username').max(120).optional(),
});
export type NewCarBody = z.input<typeof newCarBodySchema>;

/** PUT /car/updateCar/{id}: any editable fields, or just { status }. */
export const updateCarBodySchema = z.object({
  ...carFieldsShape,
  status: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.enum(SETTABLE_CAR_STATUSES, { error: 'Status must be available, offline or maintenance' }))
    .optional(),
});
export type UpdateCarBody = z.input<typeof updateCarBodySchema>;

export const updateRentPriceBodySchema = z.object({
  car_rent_price: z.coerce
    .number({ error: 'Price must be a number' })
    // At least one cent: the database holds cents.
    .refine((v) => Math.round(v * 100) > 0, 'Price must be greater than 0')
    .max(MAX_DAILY_RATE, atMostRand('Daily price', MAX_DAILY_RATE))
    .transform((v) => Math.round(v * 100) / 100),
});
export const updatePickupLocationBodySchema = z.object({
  pickup_location: safeText('Pickup location', { error: 'Pickup location is required' }).min(1, 'Pickup location is required').max(200),
  latitude: latitude.nullable().optional(),
  longitude: longitude.nullable().optional(),
});
export const updatePickupOptionsBodySchema = z.object({
  pickup_options: z.array(pickupOptionInputSchema, { error: 'pickup_options must be a list' }).max(20, 'At most 20 pickup locations'),
});
export const updateInsuranceOptionsBodySchema = z.object({
  insurance_options: z.array(insuranceOptionInputSchema, { error: 'insurance_options must be a list' }).max(20, 'At most 20 insurance plans'),
});
export const returnCarBodySchema = z.object({
  /** A date or a timestamp; defaults to now. */
  actual_return_date: z.preprocess((v) => (v === '' ? undefined : v), calendarDateOrTimestamp('Return date').optional()),
  condition_notes: safeText('Notes', { multiline: true }).max(2000, 'Notes must be at most 2000 characters').optional(),
  odometer_reading: wholeNumber('Odometer reading', MAX_ODOMETER_KM, atMostCount('Odometer reading', MAX_ODOMETER_KM, 'km')).nullable().optional(),
});
export const verifyCarBodySchema = z
  .object({
    verification_status: z.enum(CAR_VERIFICATION_STATUSES, { error: 'Verification status must be verified, rejected or pending_verification' }),
    admin_notes: safeText('Notes', { multiline: true }).max(2000, 'Notes must be at most 2000 characters').optional(),
  })
  .refine((v) => v.verification_status !== 'rejected' || !!v.admin_notes, {
    message: 'Rejection notes are required',
    path: ['admin_notes'],
  });
export const verifyRegistrationDocumentBodySchema = z.object({
  verified: z.boolean({ error: 'verified must be true or false' }),
  notes: safeText('Notes', { multiline: true }).max(2000, 'Notes must be at most 2000 characters').optional(),
});
export const forceReturnBodySchema = z.object({
  admin_action: z.boolean().optional(),
  reason: safeText('Reason', { multiline: true }).max(2000, 'Reason must be at most 2000 characters').optional(),
});

// ---- Browse query ----
const queryText = (label: string, max: number) =>
  safeText(label)
    .max(max, `Must be at most ${max} characters`)
    .optional()
    .transform((v) => (v && v.toLowerCase() !== 'all' ? v : undefined));
const queryNumber = (label: string, min: number, max: number) =>
  z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    z.coerce.number({ error: `${label} must be a number` }).min(min, `${label} must be at least ${min}`).max(max, `${label} must be at most ${max}`).optional(),
  );
const upper = <T extends readonly [string, ...string[]]>(values: T, message: string) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() !== '' ? v.trim().toUpperCase() : undefined), z.enum(values, { error: message }).optional());

/** The browse answer's shapes: 'full' (every field of the car, api.md) or 'card' (what a browse card shows; car-cards.ts). */
export const CAR_LIST_FIELDS = ['full', 'card'] as const;
export type CarListFields = (typeof CAR_LIST_FIELDS)[number];

/** A map view, `west,south,east,north` in degrees (west not east of east: no view across the antimeridian). */
export interface BoundingBox {
  west: number;
  south: number;
  east: number;
  north: number;
}
export const BBOX_MESSAGE = 'bbox must be west,south,east,north in degrees (west <= east, south <= north)';
const bboxValue = (error: string) =>
  safeText('bbox', { error })
    .max(120, BBOX_MESSAGE)
    .transform((v, ctx): BoundingBox => {
      const parts = v.split(',').map((p) => (p.trim() === '' ? NaN : Number(p)));
      const [west, south, east, north] = parts as [number, number, number, number];
      const ok =
        parts.length === 4 &&
        parts.every(Number.isFinite) &&
        west >= -180 && east <= 180 && west <= east &&
        south >= -90 && north <= 90 && south <= north;
      if (!ok) {
        ctx.addIssue({ code: 'custom', message: BBOX_MESSAGE });
        return z.NEVER;
      }
      return { west, south, east, north };
    });
const emptyToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);
/** An optional view (the list's "Search as I move the map"). */
export const bboxParam = z.preprocess(emptyToUndefined, bboxValue(BBOX_MESSAGE).optional());
/** A view the answer needs (the map). */
export const requiredBboxParam = z.preprocess(emptyToUndefined, bboxValue('bbox is required: west,south,east,north'));

export const carListQuerySchema = z.object({
  /** `card`: each car as a browse card shows it (carCardSchema), with the same filters, sort, paging and meta. */
  fields: z.preprocess((v) => (v === '' ? undefined : v), z.enum(CAR_LIST_FIELDS, { error: `fields must be one of ${CAR_LIST_FIELDS.join(', ')}` }).optional()),
  /** Only cars whose position is inside this view (`west,south,east,north`): the map's "Search as I move the map". */
  bbox: bboxParam,
  search: queryText('Search', 100),
  location: queryText('Location', 100),
  type: queryText('Type', 60),
  transmission: queryText('Transmission', 40),
  fuel: queryText('Fuel', 40),
  /** Comma-separated (or repeated); a car must have all of them. */
  features: z
    .union([safeText('Features').max(1000), z.array(safeText('Features').max(100)).max(20)])
    .optional()
    .transform((v) => (v === undefined ? [] : (Array.isArray(v) ? v : v.split(',')).map((s) => s.trim()).filter(Boolean))),
  minPrice: queryNumber('Minimum price', 0, 1_000_000),
  maxPrice: queryNumber('Maximum price', 0, 1_000_000),
  pickupType: upper(PICKUP_TYPES, `pickupType must be one of ${PICKUP_TYPES.join(', ')}`),
  /** Only cars whose requests can be confirmed at once (the host's instant booking, under the platform's switch; decision 078). */
  instant: z.preprocess((v) => (v === '' || v === undefined ? undefined : v === 'true' || v === '1' || v === true), z.boolean().optional()),
  sort: upper(CAR_SORTS, `sort must be one of ${CAR_SORTS.join(', ')}`),
  lat: queryNumber('Latitude', -90, 90),
  lng: queryNumber('Longitude', -180, 180),
  startDate: optionalCalendarDate('startDate'),
  endDate: optionalCalendarDate('endDate'),
  owner: queryText('Owner', 100),
  status: z.preprocess((v) => (v === '' || v === 'all' ? undefined : v), z.enum(CAR_STATUSES, { error: `status must be one of ${CAR_STATUSES.join(', ')}` }).optional()),
  verification_status: z.preprocess(
    (v) => (v === '' || v === 'all' ? undefined : v),
    z.enum(CAR_VERIFICATION_STATUSES, { error: `verification_status must be one of ${CAR_VERIFICATION_STATUSES.join(', ')}` }).optional(),
  ),
  includeUnverified: z.preprocess((v) => v === 'true' || v === '1' || v === true, z.boolean()).optional(),
  page: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int('page must be a whole number').min(1, 'page must be at least 1').max(MAX_PAGE, `page must be at most ${MAX_PAGE}`).optional().default(1)),
  limit: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.coerce.number().int('limit must be a whole number').min(1, 'limit must be at least 1').max(CAR_LIST_MAX_LIMIT, `limit must be at most ${CAR_LIST_MAX_LIMIT}`).optional().default(CAR_LIST_DEFAULT_LIMIT),
  ),
});
export type CarListQuery = z.input<typeof carListQuerySchema>;
export type CarListFilters = z.output<typeof carListQuerySchema>;

// ---- Responses ----
export const pickupOptionSchema = z.object({
  id: z.string(),
  name: z.string(),
  address: z.string(),
  additional_fee: z.number(),
  type: z.enum(PICKUP_OPTION_TYPES),
  available_times: z.array(z.string()),
});
export type PickupOption = z.infer<typeof pickupOptionSchema>;

export const insuranceOptionSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  daily_rate: z.number(),
  excess_amount: z.number(),
  coverage: z.array(z.string()),
  included: z.boolean(),
  popular: z.boolean(),
  recommended: z.boolean(),
});
export type InsuranceOption = z.infer<typeof insuranceOptionSchema>;

export const specificationsSchema = z.object({
  transmission: z.string(),
  fuelType: z.string(),
  seats: z.number().int(),
  doors: z.number().int(),
  engine: z.string(),
  fuelConsumption: z.string(),
});
export type Specifications = z.infer<typeof specificationsSchema>;

export const registrationDocumentSchema = z.object({
  url: z.string(),
  filename: z.string(),
  mime_type: z.string(),
  uploaded_at: z.string(),
  verified: z.boolean().nullable(),
  verification_notes: z.string().nullable(),
});
export type RegistrationDocument = z.infer<typeof registrationDocumentSchema>;

/**
 * A host's record of cancelling trips (issue 20, "Cancelled 2 of 40 trips"): of the paid trips on
 * their cars, whatever became of them, the ones the host cancelled. A no-show the host reported is
 * the renter's doing and is not counted; an unpaid request was never a trip.
 */
export const hostCancellationsSchema = z.object({
  paid_trips: z.number().int(),
  cancelled_by_host: z.number().int(),
});
export type HostCancellations = z.infer<typeof hostCancellationsSchema>;

export const carHostSchema = z.object({
  username: z.string(),
  full_name: z.string(),
  rating: z.number().nullable(),
  host_since: z.string().nullable(),
  /** One car's details only (GET /car/getCarDetails): the browse list's cards leave it out. */
  cancellations: hostCancellationsSchema.optional(),
});

/**
 * The browse list's meta: `total` counts the matching cars exactly for owners and admins; for the
 * public it stops at 1,000 (then `total_exact` is false and the page says "1,000+ vehicles").
 * `has_more` tells whether another page follows.
 */
export const carListMetaSchema = z.object({
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
  total_exact: z.boolean(),
  has_more: z.boolean(),
});
export type CarListMeta = z.infer<typeof carListMetaSchema>;

export const carSchema = z.object({
  id: z.string(),
  car_username: z.string(),
  car_owner: z.string(),
  car_make: z.string(),
  car_model: z.string(),
  car_year: z.number().int(),
  car_color: z.string(),
  car_type: z.string(),
  /** Null for a viewer who may not know it (decision 055): only the host, admins and the renter of a paid trip of the car see the plate. */
  car_plate_number: z.string().nullable(),
  car_value: z.number(),
  car_rent_price: z.number(),
  car_odometer: z.number().int(),
  /** The deposit in rand (taken with the trip, back after the claim window if nothing is claimed; decision 064). */
  deposit: z.number(),
  tank_litres: z.number().int().nullable(),
  /** Kilometres a day included; null: unlimited. */
  distance_allowance_km: z.number().int().nullable(),
  extra_km_rate: z.number(),
  description: z.string(),
  car_description: z.string(),
  images: z.array(z.string()),
  car_images: z.array(z.string()),
  /** The same photos as `images`, in the same order, with the widths and formats each is stored in (issue 22). */
  photos: z.array(carPhotoSchema),
  /**
   * Where the car is collected. For a viewer who may not know the exact place (decision 055) its area only
   * ("Gardens, Cape Town"); so are the pickup options' addresses, and latitude and longitude are the
   * centre of the car's cell of a 0.01° grid (about 1 km), the same for everyone and every request.
   */
  pickup_location: z.string(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  /** Whether pickup_location, the pickup addresses, the position and the plate are the exact ones (the host, admins, the renter of a paid trip) or the area only. */
  exact_place: z.boolean(),
  /** Minutes the car is kept free after every trip (decision 047): a trip holds its car until its return plus this. */
  buffer_minutes: z.number().int().optional(),
  status: z.enum(CAR_STATUSES),
  isRented: z.boolean(),
  rating: z.number().nullable(),
  totalReviews: z.number().int(),
  specifications: specificationsSchema,
  features: z.array(z.string()),
  safety: z.array(z.string()),
  rules: z.array(z.string()),
  pickup_options: z.array(pickupOptionSchema),
  insurance_options: z.array(insuranceOptionSchema),
  /** Trip rules and long-trip discounts (decision 048); always answered by the API. */
  trip_rules: tripRulesSchema.optional(),
  /** Instant booking, the host's choice, and its requirements (decision 078); always answered by the API. */
  instant_booking: instantBookingSchema.optional(),
  seating_capacity: z.number().int(),
  fuel_type: z.string(),
  transmission: z.string(),
  verification_status: z.enum(CAR_VERIFICATION_STATUSES),
  host: carHostSchema,
  /** Kilometres from the lat/lng of a browse request. */
  distance_km: z.number().nullable().optional(),
  created_at: z.string(),
  updated_at: z.string(),
  /** Owner and admins only. */
  registration_document: registrationDocumentSchema.nullable().optional(),
  admin_notes: z.string().nullable().optional(),
  /** Owner and admins only: the renter holding the car right now. */
  assigned_user: z.string().nullable().optional(),
});
export type Car = z.infer<typeof carSchema>;

export const carOwnerProfileSchema = z.object({
  id: z.string(),
  username: z.string(),
  full_name: z.string(),
  rating: z.number().nullable(),
  host_since: z.string().nullable(),
  total_cars: z.number().int(),
  cancellations: hostCancellationsSchema,
});
export type CarOwnerProfile = z.infer<typeof carOwnerProfileSchema>;

// ---- Listing rules (the wizard, document 2 section 5) ----
export interface CarListingInput {
  car_make?: string | null;
  car_model?: string | null;
  car_type?: string | null;
  car_color?: string | null;
  car_plate_number?: string | null;
  car_value?: number | null;
  car_rent_price?: number | null;
  car_odometer?: number | null;
  car_year?: number | null;
  description?: string | null;
  pickup_location?: string | null;
  seats?: number | null;
  doors?: number | null;
  photoCount?: number;
}

export interface CarListingFailure {
  title: string;
  message: string;
  errors: Record<string, string>;
}

const blank = (v: string | null | undefined) => !v || v.trim() === '';
const missingNumber = (v: number | null | undefined) => v == null || !(v > 0);

export const CAR_LISTING_MESSAGES = {
  missingSubmit: { title: 'Missing Required Fields', message: 'Please fill in car make, model, type, and rental price.' },
  missingDescription: { title: 'Description Required', message: 'Please provide a description for your vehicle.' },
  missingStep1: { title: 'Required Fields Missing', message: 'Please fill in all required fields before continuing.' },
} as const;

/**
 * The first listing rule a car breaks, or null. Order: the submit check (make, model, type,
 * price), the description, the other step-1 fields (colour, plate, value, pickup location), then
 * the limits the server adds: seats, doors, year, photos, the maxima of limits.ts and the minimum
 * car value setting.
 */
export function validateCarListing(input: CarListingInput, options: { minCarValue: number; currentYear: number }): CarListingFailure | null {
  const missing = (fields: [string, boolean][]) => Object.fromEntries(fields.filter(([, isMissing]) => isMissing).map(([f]) => [f, 'Required']));
  const submit = missing([
    ['car_make', blank(input.car_make)],
    ['car_model', blank(input.car_model)],
    ['car_type', blank(input.car_type)],
    ['car_rent_price', missingNumber(input.car_rent_price)],
  ]);
  if (Object.keys(submit).length) return { ...CAR_LISTING_MESSAGES.missingSubmit, errors: submit };
  if (blank(input.description)) return { ...CAR_LISTING_MESSAGES.missingDescription, errors: { description: 'Please provide a description for your vehicle.' } };
  const step1 = missing([
    ['car_color', blank(input.car_color)],
    ['car_plate_number', blank(input.car_plate_number)],
    ['car_value', missingNumber(input.car_value)],
    ['pickup_location', blank(input.pickup_location)],
  ]);
  if (Object.keys(step1).length) return { ...CAR_LISTING_MESSAGES.missingStep1, errors: step1 };
  return validateCarLimits(input, options);
}

/** Limits that apply to every edit as well as to a new listing. */
export function validateCarLimits(input: CarListingInput, options: { minCarValue: number; currentYear: number }): CarListingFailure | null {
  const one = (title: string, field: string, message: string) => ({ title, message, errors: { [field]: message } });
  if (input.seats != null && (input.seats < SEATS_MIN || input.seats > SEATS_MAX)) {
    return one('Invalid Seats', 'specifications.seats', `Seats must be between ${SEATS_MIN} and ${SEATS_MAX}.`);
  }
  if (input.doors != null && (input.doors < DOORS_MIN || input.doors > DOORS_MAX)) {
    return one('Invalid Doors', 'specifications.doors', `Doors must be between ${DOORS_MIN} and ${DOORS_MAX}.`);
  }
  if (input.car_year != null && (input.car_year < CAR_YEAR_MIN || input.car_year > options.currentYear + 1)) {
    return one('Invalid Year', 'car_year', `Year must be between ${CAR_YEAR_MIN} and ${options.currentYear + 1}.`);
  }
  if (input.photoCount != null && input.photoCount > MAX_CAR_PHOTOS) {
    return one('Too Many Photos', 'images', `You can add at most ${MAX_CAR_PHOTOS} photos.`);
  }
  if (input.car_rent_price != null && !(input.car_rent_price > 0)) {
    return one('Invalid Price', 'car_rent_price', 'Price must be greater than 0');
  }
  if (input.car_rent_price != null && input.car_rent_price > MAX_DAILY_RATE) {
    return one('Price Too High', 'car_rent_price', atMostRand('Daily price', MAX_DAILY_RATE));
  }
  if (input.car_value != null && input.car_value > MAX_CAR_VALUE) {
    return one('Vehicle Value Too High', 'car_value', atMostRand('Vehicle value', MAX_CAR_VALUE));
  }
  if (input.car_odometer != null && input.car_odometer > MAX_ODOMETER_KM) {
    return one('Invalid Odometer', 'car_odometer', atMostCount('Odometer', MAX_ODOMETER_KM, 'km'));
  }
  if (input.car_value != null && input.car_value < options.minCarValue) {
    return one('Vehicle Value Too Low', 'car_value', `Vehicle value must be at least ${formatRand(options.minCarValue)} to list on Karoo.`);
  }
  return null;
}

/** make-model-digits, lowercase, as the wizard builds it (6 digits at submit). */
export function buildCarUsername(make: string, model: string, digits: string): string {
  const slug = `${make}-${model}`
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return `${slug || 'car'}-${digits}`;
}

export const CAR_USERNAME_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/**
 * True when renters can find and book the car: verified by Karoo and set available by its host. The
 * server's browse applies the same rule in SQL (the LISTED condition of the browse index and its
 * partial indexes); a host's screens count and describe their cars by this one.
 */
export function isListedCar(car: { status: string; verification_status: string }): boolean {
  return car.verification_status === 'verified' && car.status === 'available';
}

export function carName(car: { car_make: string; car_model: string; car_year?: number | null }): string {
  return [car.car_year, car.car_make, car.car_model].filter(Boolean).join(' ');
}

export const DEFAULT_SPECIFICATIONS: Specifications = {
  transmission: DEFAULT_NEW_CAR.transmission,
  fuelType: DEFAULT_NEW_CAR.fuelType,
  seats: DEFAULT_NEW_CAR.seats,
  doors: DEFAULT_NEW_CAR.doors,
  engine: '',
  fuelConsumption: '',
};

// ---- The lean browse answers (issue 22, decision 046; built by car-cards.ts) ----
/**
 * A card's photo in few bytes: its URL, size and the widths it is stored in (each as JPEG, WebP and
 * AVIF, named as decision 045 names them: `<name>-w<width>.<ext>`, the full-width JPEG being the
 * photo itself). `cardPhotoSources` turns it into the CarPhoto a `<picture>` draws. Spelled out,
 * the twelve cards' variant URLs alone would be about 10 KB.
 */
export const cardPhotoSchema = z.object({
  src: z.string(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  /** Narrowest first; empty until the photo is converted. */
  widths: z.array(z.number().int()),
});
export type CardPhoto = z.infer<typeof cardPhotoSchema>;

/** What a browse card (and the map's car panel) shows of a car. */
export const carCardSchema = z.object({
  id: z.string(),
  /** The car page's address (/cars/{car_username}). */
  car_username: z.string(),
  /** "Toyota Corolla" (make and model; the year is its own field). */
  title: z.string(),
  car_make: z.string(),
  car_model: z.string(),
  car_year: z.number().int(),
  car_type: z.string(),
  /** Rand per day. */
  price_per_day: z.number(),
  /** The pickup place as the card shows it: its area (suburb and city), never a street (decision 055). */
  location: z.string(),
  rating: z.number().nullable(),
  reviews: z.number().int(),
  /** The first photo, or null without one. */
  photo: cardPhotoSchema.nullable(),
  /** The area's position: the centre of the car's cell of a 0.01° grid (about 1 km), never the exact one (decision 055). */
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  /** The facts the card states (carBadges): Instant (confirmed at once), Insured (cover included in the price). */
  badges: z.array(z.enum(CAR_BADGES)),
  status: z.enum(CAR_STATUSES),
  /** The specification chips: transmission, fuel and seats. */
  transmission: z.string(),
  fuel_type: z.string(),
  seats: z.number().int(),
  /** "Hosted by …" under a verified car. */
  host_name: z.string(),
  verified: z.boolean(),
  /** Kilometres from the lat/lng of a distance-sorted browse. */
  distance_km: z.number().nullable().optional(),
  /**
   * The car's long-trip discounts (its trip rules, decision 048), only when it has one: the card's
   * trip total for the searched dates is the booking's price (decision 060). Absent means none.
   */
  discounts: z.object({ weekly: z.number().int(), monthly: z.number().int() }).optional(),
});
export type CarCard = z.infer<typeof carCardSchema>;

// ---- The browse map ----
/** The map's query: the public browse's filters (the same definition as the list's), a view and a zoom. */
export const carMapQuerySchema = carListQuerySchema
  .pick({ search: true, location: true, type: true, transmission: true, fuel: true, features: true, minPrice: true, maxPrice: true, pickupType: true, instant: true, startDate: true, endDate: true })
  .extend({
    bbox: requiredBboxParam,
    zoom: z.coerce.number({ error: 'zoom must be a number' }).int('zoom must be a whole number').min(0, 'zoom must be at least 0').max(22, 'zoom must be at most 22'),
  });
export type CarMapQuery = z.input<typeof carMapQuerySchema>;
export type CarMapFilters = z.output<typeof carMapQuerySchema>;

/** Cars that crowd at this zoom, drawn as one circle; clicking it zooms to `expansion_zoom`. */
export const mapClusterSchema = z.object({
  cluster_id: z.number().int(),
  latitude: z.number(),
  longitude: z.number(),
  count: z.number().int(),
  /** The zoom at which the cluster splits. */
  expansion_zoom: z.number().int(),
});
export type MapCluster = z.infer<typeof mapClusterSchema>;

/** A car on its own at this zoom: a price pill at its area's position (the grid cell's centre, decision 055), never the exact one. */
export const mapCarSchema = z.object({
  id: z.string(),
  title: z.string(),
  price_per_day: z.number(),
  latitude: z.number(),
  longitude: z.number(),
});
export type MapCar = z.infer<typeof mapCarSchema>;

export const carMapSchema = z.object({
  clusters: z.array(mapClusterSchema),
  cars: z.array(mapCarSchema),
  /** Matching cars in the view (clusters' counts plus single cars, capped ones included). */
  total: z.number().int(),
  /** True when the view held more clusters and cars than an answer carries (MAX_MAP_ITEMS): zoom in. */
  capped: z.boolean(),
  zoom: z.number().int(),
});
export type CarMap = z.infer<typeof carMapSchema>;

/** At most this many clusters and single cars in one map answer (a view of the whole country holds a few dozen). */
export const MAX_MAP_ITEMS = 500;
