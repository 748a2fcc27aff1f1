// The list-a-car wizard's data and rules (document 2 section 5 'Wizard'): the draft and its
// defaults, numeric normalisation, what each step needs before moving on, and the request body.
import {
  buildCarUsername,
  CAR_LISTING_MESSAGES,
  DEFAULT_NEW_CAR,
  OTHER_CITY,
  validateCarLimits,
  type NewCarBody,
} from '@karoo/shared';

export interface WizardPhoto {
  name: string;
  dataUrl: string;
}

export interface WizardDraft {
  car_make: string;
  car_model: string;
  car_year: number;
  car_type: string;
  car_color: string;
  car_plate_number: string;
  car_value: number;
  car_odometer: number;
  car_rent_price: number;
  seats: number;
  doors: number;
  transmission: string;
  fuelType: string;
  engine: string;
  fuelConsumption: string;
  /** One of the 14 base cities, or 'Other' with `pickupOther`. */
  pickupCity: string;
  pickupOther: string;
  /** Data URLs, the first is the main photo. */
  photos: WizardPhoto[];
  features: string[];
  safety: string[];
  rules: string[];
  description: string;
}

export type WizardStep = 1 | 2 | 3;

export const WIZARD_STEPS: { step: WizardStep; title: string; description: string }[] = [
  { step: 1, title: 'Vehicle Details', description: 'Make, model, price and photos' },
  { step: 2, title: 'Features & Submit', description: 'Features, rules and description' },
  { step: 3, title: 'Documents', description: 'Verification documents' },
];

export function emptyDraft(now: Date = new Date()): WizardDraft {
  return {
    car_make: '',
    car_model: '',
    car_year: now.getFullYear(),
    car_type: DEFAULT_NEW_CAR.car_type,
    car_color: '',
    car_plate_number: '',
    car_value: 0,
    car_odometer: 0,
    car_rent_price: 0,
    seats: DEFAULT_NEW_CAR.seats,
    doors: DEFAULT_NEW_CAR.doors,
    transmission: DEFAULT_NEW_CAR.transmission,
    fuelType: DEFAULT_NEW_CAR.fuelType,
    engine: '',
    fuelConsumption: '',
    pickupCity: '',
    pickupOther: '',
    photos: [],
    features: [],
    safety: [],
    rules: [],
    description: '',
  };
}

/**
 * A numeric field's typed text as a number: anything but digits is dropped, leading zeros are
 * stripped, and an empty field counts as 0.
 */
export function normaliseNumericInput(raw: string): number {
  const digits = raw.replace(/\D/g, '').replace(/^0+(?=\d)/, '');
  if (digits === '') return 0;
  const value = Number(digits);
  return Number.isSafeInteger(value) ? value : Number.MAX_SAFE_INTEGER;
}

/** Changing the make clears the model. */
export function withMake(draft: WizardDraft, make: string): WizardDraft {
  return make === draft.car_make ? draft : { ...draft, car_make: make, car_model: '' };
}

export function pickupLocationOf(draft: Pick<WizardDraft, 'pickupCity' | 'pickupOther'>): string {
  return draft.pickupCity === OTHER_CITY ? draft.pickupOther.trim() : draft.pickupCity.trim();
}

export type Step1Field = 'car_make' | 'car_model' | 'car_type' | 'car_color' | 'car_plate_number' | 'car_value' | 'car_rent_price' | 'pickup_location';

/** Step 1's required fields that are missing (empty when Continue may proceed). */
export function missingStep1Fields(draft: WizardDraft): Step1Field[] {
  const missing: Step1Field[] = [];
  if (!draft.car_make.trim()) missing.push('car_make');
  if (!draft.car_model.trim()) missing.push('car_model');
  if (!draft.car_type.trim()) missing.push('car_type');
  if (!draft.car_color.trim()) missing.push('car_color');
  if (!draft.car_plate_number.trim()) missing.push('car_plate_number');
  if (!(draft.car_value > 0)) missing.push('car_value');
  if (!(draft.car_rent_price > 0)) missing.push('car_rent_price');
  if (!pickupLocationOf(draft)) missing.push('pickup_location');
  return missing;
}

export interface StepProblem {
  title: string;
  message: string;
  type: 'warning' | 'error';
}

/** Why Continue on step 1 cannot proceed, or null. */
export function step1Problem(draft: WizardDraft, options: { minCarValue: number; currentYear: number }): StepProblem | null {
  if (missingStep1Fields(draft).length) return { ...CAR_LISTING_MESSAGES.missingStep1, type: 'warning' };
  const limits = validateCarLimits(
    {
      car_value: draft.car_value,
      car_rent_price: draft.car_rent_price,
      car_odometer: draft.car_odometer,
      car_year: draft.car_year,
      seats: draft.seats,
      doors: draft.doors,
      photoCount: draft.photos.length,
    },
    options,
  );
  return limits ? { title: limits.title, message: limits.message, type: 'error' } : null;
}

/** Why the listing cannot be submitted on step 2, or null: make, model, type and price, then the description. */
export function submitProblem(draft: WizardDraft): StepProblem | null {
  if (!draft.car_make.trim() || !draft.car_model.trim() || !draft.car_type.trim() || !(draft.car_rent_price > 0)) {
    return { ...CAR_LISTING_MESSAGES.missingSubmit, type: 'warning' };
  }
  if (!draft.description.trim()) return { ...CAR_LISTING_MESSAGES.missingDescription, type: 'warning' };
  return null;
}

/** A rule typed into the rules input, or null when blank or already listed. */
export function ruleToAdd(text: string, rules: readonly string[]): string | null {
  const rule = text.trim();
  if (!rule) return null;
  return rules.some((r) => r.toLowerCase() === rule.toLowerCase()) ? null : rule;
}

/** POST /car/newCar/{username}: the car as the wizard sends it (6-digit username suffix at submit). */
export function buildNewCarBody(draft: WizardDraft, now: Date = new Date()): NewCarBody {
  const description = draft.description.trim();
  return {
    car_username: buildCarUsername(draft.car_make, draft.car_model, String(now.getTime()).slice(-6)),
    car_make: draft.car_make.trim(),
    car_model: draft.car_model.trim(),
    car_year: draft.car_year,
    car_color: draft.car_color,
    car_type: draft.car_type,
    car_plate_number: draft.car_plate_number.trim().toUpperCase(),
    car_value: draft.car_value,
    car_rent_price: draft.car_rent_price,
    car_odometer: draft.car_odometer,
    description,
    car_description: description,
    images: draft.photos.map((photo) => photo.dataUrl),
    pickup_location: pickupLocationOf(draft),
    specifications: {
      transmission: draft.transmission,
      fuelType: draft.fuelType,
      seats: draft.seats,
      doors: draft.doors,
      engine: draft.engine.trim(),
      fuelConsumption: draft.fuelConsumption.trim(),
    },
    features: draft.features,
    safety: draft.safety,
    rules: draft.rules,
  };
}
