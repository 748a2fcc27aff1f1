// What a user still needs for verification: the profile fields of document 1 and the required documents.
import { REQUIRED_DOCUMENT_TYPES, type Documents } from './users';

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
