// What a user still needs for verification: the profile fields of document 1 and the required
// documents. And what an admin can approve (docs/decisions/033-what-an-admin-can-approve.md): a
// user only with every required document uploaded, a car only with an approved registration
// document, a photo and a listing that passes the listing rules. The server refuses the rest with a
// 409 carrying these words; the admin panel shows the same words beside a disabled Verify button.
import { validateCarListing, type Car } from './cars';
import { DOCUMENT_LABELS, REQUIRED_DOCUMENT_TYPES, type Documents, type DocumentType } from './users';

export interface ProfileFields {
  full_name?: string | null;
  email?: string | null;
  phone_number?: string | null;
  address?: string | null;
  id_number?: string | null;
  bank_account?: { account_number?: string | null; bank_code?: string | null } | null;
}

export const PROFILE_FIELDS = [
  { key: 'full_name', label: 'Full name', hint: 'Full name is required for verification' },
  { key: 'email', label: 'Email', hint: 'Email is required for account security' },
  { key: 'phone_number', label: 'Phone number', hint: 'Phone number is required for booking confirmations' },
  { key: 'address', label: 'Address', hint: 'Address is required for identity verification' },
  { key: 'id_number', label: 'ID number', hint: 'ID number is required for identity verification' },
  { key: 'account_number', label: 'Bank account number', hint: 'Bank account number is required for payment processing' },
  { key: 'bank_code', label: 'Bank code', hint: 'Bank code is required to identify the financial institution' },
] as const;
export type ProfileFieldKey = (typeof PROFILE_FIELDS)[number]['key'];

export const VERIFICATION_DOCUMENTS_ITEM = 'Verification Documents';

/** Empty, blank or the literal 'Not provided' counts as missing (document 1, profile screen). */
export function isMissingValue(value: string | null | undefined): boolean {
  return value == null || value.trim() === '' || value.trim() === 'Not provided';
}

export function profileFieldValue(profile: ProfileFields, key: ProfileFieldKey): string | null | undefined {
  if (key === 'account_number') return profile.bank_account?.account_number;
  if (key === 'bank_code') return profile.bank_account?.bank_code;
  return profile[key];
}

export function missingProfileFields(profile: ProfileFields): string[] {
  return PROFILE_FIELDS.filter((field) => isMissingValue(profileFieldValue(profile, field.key))).map((f) => f.label);
}

export function hasRequiredDocuments(documents: Partial<Documents> | null | undefined): boolean {
  return REQUIRED_DOCUMENT_TYPES.every((type) => !!documents?.[type]);
}

/** The items the verification banner lists: missing profile fields, then documents. */
export function missingVerificationItems(profile: ProfileFields, documents: Partial<Documents> | null | undefined): string[] {
  const items = missingProfileFields(profile);
  if (!hasRequiredDocuments(documents)) items.push(VERIFICATION_DOCUMENTS_ITEM);
  return items;
}

// ---- What an admin can approve ----

/** "a, b and c". */
function listOf(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** The required documents a user has not uploaded, in REQUIRED_DOCUMENT_TYPES order. */
export function missingRequiredDocuments(documents: Partial<Documents> | null | undefined): DocumentType[] {
  return REQUIRED_DOCUMENT_TYPES.filter((type) => !documents?.[type]);
}

/**
 * Why an admin cannot verify this user yet ("Cannot verify: missing ID Document and Driver's
 * License."), or null when the required documents are all in.
 */
export function userVerificationBlocker(documents: Partial<Documents> | null | undefined): string | null {
  const missing = missingRequiredDocuments(documents);
  return missing.length ? `Cannot verify: missing ${listOf(missing.map((type) => DOCUMENT_LABELS[type]))}.` : null;
}

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
