// What the verification banner and the profile badges count as missing (document 1).
import { describe, expect, it } from 'vitest';
import type { Documents, StoredDocument } from './users';
import { carVerificationBlocker, carVerificationGaps, type CarVerificationFacts } from './car-approval';
import {
  hasRequiredDocuments,
  missingRequiredDocuments,
  userVerificationBlocker,
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

// What an admin can approve (issue 18; docs/decisions/033-what-an-admin-can-approve.md).
describe('userVerificationBlocker', () => {
  it('names every missing required document, in order; proof of address is not required', () => {
    expect(userVerificationBlocker(null)).toBe("Cannot verify: missing ID Document, Driver's License and Bank Confirmation Letter.");
    expect(missingRequiredDocuments({ ...allDocuments, driver_license: null })).toEqual(['driver_license']);
    expect(userVerificationBlocker({ ...allDocuments, driver_license: null })).toBe("Cannot verify: missing Driver's License.");
    expect(userVerificationBlocker(allDocuments)).toBeNull();
  });
});

describe('carVerificationGaps', () => {
  const options = { minCarValue: 50_000, currentYear: 2030 };
  const registration = (verified: boolean | null) => ({ url: '/r', filename: 'r.pdf', mime_type: 'application/pdf', uploaded_at: '2030-01-01T00:00:00Z', verified, verification_notes: null });
  const car: CarVerificationFacts = {
    car_make: 'Toyota',
    car_model: 'Corolla',
    car_type: 'Sedan',
    car_color: 'White',
    car_plate_number: 'CA 123-456',
    car_value: 300_000,
    car_rent_price: 500,
    car_odometer: 42_000,
    car_year: 2022,
    description: 'A tidy car',
    pickup_location: 'Cape Town',
    specifications: { transmission: 'Automatic', fuelType: 'Petrol', seats: 5, doors: 4, engine: '1.8', fuelConsumption: '6' },
    images: ['/uploads/cars/a/1.jpg'],
    registration_document: registration(true),
  };

  it('is empty for an approved registration document, a photo and a complete listing', () => {
    expect(carVerificationGaps(car, options)).toEqual([]);
    expect(carVerificationBlocker([])).toBeNull();
  });

  it('names the registration document (missing, awaiting review, rejected), the photo and the listing', () => {
    const messages = (c: CarVerificationFacts) => carVerificationGaps(c, options).map((gap) => gap.message);
    expect(messages({ ...car, registration_document: null, images: [] })).toEqual(['the registration document is not uploaded', 'the car has no photo (at least one is needed)']);
    expect(messages({ ...car, registration_document: registration(null) })).toEqual(['the registration document is awaiting review']);
    expect(messages({ ...car, registration_document: registration(false) })).toEqual(['the registration document was rejected (the owner must upload a new one)']);
    expect(messages({ ...car, description: ' ' })).toEqual(['the listing has no description']);
    expect(messages({ ...car, car_color: '', car_plate_number: '' })).toEqual(['the listing has no colour and plate number']);
    expect(carVerificationGaps({ ...car, car_value: 20_000 }, options)).toEqual([{ field: 'car_value', message: expect.stringMatching(/^the listing breaks a rule: Vehicle value must be at least .* to list on Karoo$/) }]);
    expect(carVerificationBlocker(carVerificationGaps({ ...car, images: [] }, options))).toBe('Cannot verify: the car has no photo (at least one is needed).');
  });
});
