// What the verification banner and the profile badges count as missing (document 1).
import { describe, expect, it } from 'vitest';
import type { Documents, StoredDocument } from './users';
import {
  hasRequiredDocuments,
  isMissingValue,
  missingProfileFields,
  missingVerificationItems,
  VERIFICATION_DOCUMENTS_ITEM,
  type ProfileFields,
} from './verification';

const complete: ProfileFields = {
  full_name: 'Sipho Nkosi',
  email: 'sipho@example.co.za',
  phone_number: '+27 82 555 0606',
  address: '48 Vilakazi St, Soweto',
  id_number: '9501015800086',
  bank_account: { account_number: '62098765432', bank_code: '250655' },
};

const doc: StoredDocument = { url: '/x', originalName: 'x.pdf', mime_type: 'application/pdf', size: 10, uploaded_at: '2025-01-01T00:00:00.000Z' };
const allDocuments: Documents = { id_document: doc, driver_license: doc, bank_confirmation_letter: doc, proof_of_address: null };

describe('isMissingValue', () => {
  it.each([null, undefined, '', '   ', 'Not provided', '  Not provided  '])('%j counts as missing', (value) => {
    expect(isMissingValue(value)).toBe(true);
  });

  it.each(['x', 'not provided yet', '0'])('%j counts as provided', (value) => {
    expect(isMissingValue(value)).toBe(false);
  });
});

describe('missingProfileFields', () => {
  it('is empty for a complete profile', () => {
    expect(missingProfileFields(complete)).toEqual([]);
  });

  it('lists every missing field in the profile order, bank fields included', () => {
    expect(missingProfileFields({ email: 'a@b.co' })).toEqual([
      'Full name',
      'Phone number',
      'Address',
      'ID number',
      'Bank account number',
      'Bank code',
    ]);
  });

  it("counts 'Not provided' and blanks as missing", () => {
    expect(missingProfileFields({ ...complete, address: 'Not provided', bank_account: { account_number: ' ', bank_code: '250655' } })).toEqual([
      'Address',
      'Bank account number',
    ]);
  });
});

describe('missingVerificationItems', () => {
  it('is empty when the profile is complete and the required documents are in', () => {
    expect(missingVerificationItems(complete, allDocuments)).toEqual([]);
  });

  it("adds 'Verification Documents' after the fields when a required document is missing", () => {
    expect(missingVerificationItems({ ...complete, phone_number: 'Not provided' }, { ...allDocuments, driver_license: null })).toEqual([
      'Phone number',
      VERIFICATION_DOCUMENTS_ITEM,
    ]);
    expect(VERIFICATION_DOCUMENTS_ITEM).toBe('Verification Documents');
  });

  it("lists 'Verification Documents' when the document check failed (no documents known)", () => {
    expect(missingVerificationItems(complete, null)).toEqual(['Verification Documents']);
    expect(missingVerificationItems(complete, undefined)).toEqual(['Verification Documents']);
  });
});

describe('hasRequiredDocuments', () => {
  it("needs the ID document, driver's licence and bank confirmation letter, not proof of address", () => {
    expect(hasRequiredDocuments(allDocuments)).toBe(true);
    expect(hasRequiredDocuments({ ...allDocuments, id_document: null })).toBe(false);
    expect(hasRequiredDocuments({ ...allDocuments, bank_confirmation_letter: null })).toBe(false);
    expect(hasRequiredDocuments({ id_document: doc, driver_license: doc })).toBe(false);
  });
});
