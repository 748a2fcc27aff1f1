// What a user still needs for verification: the profile fields of document 1 and the required
// documents. And what an admin can approve (docs/decisions/033-what-an-admin-can-approve.md): a
// user only with every required document uploaded, a car only with an approved registration
// document, a photo and a listing that passes the listing rules. The server refuses the rest with a
// 409 carrying these words; the admin panel shows the same words beside a disabled Verify button.
import { DOCUMENT_LABELS, REQUIRED_DOCUMENT_TYPES, type DocumentType } from './documents';
import type { Documents } from './users';

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
export function listOf(items: readonly string[]): string {
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
