// What an admin can approve of a car (docs/decisions/033-what-an-admin-can-approve.md): an approved
// registration document, a photo and a listing that passes the listing rules. Apart from the
// user's part (verification.ts), because these rules need the listing rules and their schemas,
// which the landing page (the verification banner) must not load.
import { validateCarListing, type Car } from './cars';
import { listOf } from './verification';

/** What a car is judged on: the admin's view of it (registration document included). */
export type CarVerificationFacts = Pick<
  Car,
  | 'car_make'
  | 'car_model'
  | 'car_type'
  | 'car_color'
  | 'car_plate_number'
  | 'car_value'
  | 'car_rent_price'
  | 'car_odometer'
  | 'car_year'
  | 'description'
  | 'pickup_location'
  | 'specifications'
  | 'images'
  | 'registration_document'
>;

export interface CarVerificationGap {
  /** The field the gap is about (registration_document, images, or the listing field). */
  field: string;
  message: string;
}

const LISTING_FIELD_NAMES: Record<string, string> = {
  car_make: 'make',
  car_model: 'model',
  car_type: 'type',
  car_rent_price: 'daily price',
  description: 'description',
  car_color: 'colour',
  car_plate_number: 'plate number',
  car_value: 'value',
  pickup_location: 'pickup location',
};

/**
 * What keeps a car from being verified, in the order an admin fixes it: the registration document
 * (uploaded, then approved), a photo, then the first listing rule the car breaks (the wizard's
 * `validateCarListing`, with today's minimum car value). Empty when it can be verified.
 */
export function carVerificationGaps(car: CarVerificationFacts, options: { minCarValue: number; currentYear: number }): CarVerificationGap[] {
  const gaps: CarVerificationGap[] = [];
  const document = car.registration_document;
  if (!document) gaps.push({ field: 'registration_document', message: 'the registration document is not uploaded' });
  else if (document.verified === null) gaps.push({ field: 'registration_document', message: 'the registration document is awaiting review' });
  else if (document.verified === false) gaps.push({ field: 'registration_document', message: 'the registration document was rejected (the owner must upload a new one)' });
  if (car.images.length === 0) gaps.push({ field: 'images', message: 'the car has no photo (at least one is needed)' });
  const failure = validateCarListing(
    { ...car, seats: car.specifications.seats, doors: car.specifications.doors, photoCount: car.images.length },
    options,
  );
  if (failure) {
    const fields = Object.keys(failure.errors);
    const missing = fields.filter((field) => failure.errors[field] === 'Required' || field === 'description');
    gaps.push({
      field: fields[0] ?? 'listing',
      message: missing.length ? `the listing has no ${listOf(missing.map((field) => LISTING_FIELD_NAMES[field] ?? field))}` : `the listing breaks a rule: ${failure.message.replace(/\.$/, '')}`,
    });
  }
  return gaps;
}

/** The gaps in one sentence ("Cannot verify: the car has no photo (at least one is needed)."), or null. */
export function carVerificationBlocker(gaps: readonly CarVerificationGap[]): string | null {
  return gaps.length ? `Cannot verify: ${gaps.map((gap) => gap.message).join('; ')}.` : null;
}
