import { describe, expect, it } from 'vitest';
import {
  buildNewCarBody,
  emptyDraft,
  missingStep1Fields,
  normaliseNumericInput,
  ruleToAdd,
  step1Problem,
  submitProblem,
  withMake,
  type WizardDraft,
} from './wizard-draft';

const limits = { minCarValue: 50_000, currentYear: 2026 };

function complete(overrides: Partial<WizardDraft> = {}): WizardDraft {
  return {
    ...emptyDraft(new Date('2026-03-01T10:00:00Z')),
    car_make: 'Toyota',
    car_model: 'Corolla Cross',
    car_color: 'White',
    car_plate_number: 'gp 12 ab cd',
    car_value: 350_000,
    car_rent_price: 650,
    pickupCity: 'Durban',
    description: 'Spotless hybrid.',
    ...overrides,
  };
}

describe('emptyDraft', () => {
  it('starts with the default car: this year, Sedan, Automatic, Petrol, 5 seats, 4 doors, numbers at 0', () => {
    const draft = emptyDraft(new Date('2026-03-01T10:00:00Z'));
    expect(draft).toMatchObject({ car_year: 2026, car_type: 'Sedan', transmission: 'Automatic', fuelType: 'Petrol', seats: 5, doors: 4 });
    expect([draft.car_value, draft.car_odometer, draft.car_rent_price]).toEqual([0, 0, 0]);
  });
});

describe('normaliseNumericInput', () => {
  it('strips leading zeros and reads an empty field as 0', () => {
    expect(normaliseNumericInput('0050')).toBe(50);
    expect(normaliseNumericInput('0')).toBe(0);
    expect(normaliseNumericInput('000')).toBe(0);
    expect(normaliseNumericInput('')).toBe(0);
    expect(normaliseNumericInput('650')).toBe(650);
  });

  it('keeps digits only', () => {
    expect(normaliseNumericInput('R 1 200')).toBe(1200);
    expect(normaliseNumericInput('abc')).toBe(0);
    expect(normaliseNumericInput('-5')).toBe(5);
  });
});

describe('withMake', () => {
  it('clears the model when the make changes, and keeps it when the same make is chosen again', () => {
    const draft = complete();
    expect(withMake(draft, 'Volkswagen')).toMatchObject({ car_make: 'Volkswagen', car_model: '' });
    expect(withMake(draft, 'Toyota').car_model).toBe('Corolla Cross');
  });
});

describe('step 1 Continue', () => {
  it('needs make, model, type, colour, plate, value, price and pickup location', () => {
    expect(missingStep1Fields(emptyDraft())).toEqual(['car_make', 'car_model', 'car_color', 'car_plate_number', 'car_value', 'car_rent_price', 'pickup_location']);
    expect(missingStep1Fields(complete({ car_type: '' }))).toEqual(['car_type']);
    expect(missingStep1Fields(complete({ pickupCity: 'Other', pickupOther: '  ' }))).toEqual(['pickup_location']);
    expect(missingStep1Fields(complete({ pickupCity: 'Other', pickupOther: 'Hermanus' }))).toEqual([]);
  });

  it('warns with the specification words when something is missing', () => {
    expect(step1Problem(complete({ car_color: '' }), limits)).toEqual({
      title: 'Required Fields Missing',
      message: 'Please fill in all required fields before continuing.',
      type: 'warning',
    });
    expect(step1Problem(complete(), limits)).toBeNull();
  });

  it('applies the minimum car value setting before the server does', () => {
    expect(step1Problem(complete({ car_value: 20_000 }), limits)).toMatchObject({ title: 'Vehicle Value Too Low', type: 'error' });
  });
});

describe('step 2 submit', () => {
  it('asks for make, model, type and price first, then the description', () => {
    const missing = { title: 'Missing Required Fields', message: 'Please fill in car make, model, type, and rental price.', type: 'warning' };
    expect(submitProblem(complete({ car_model: '' }))).toEqual(missing);
    expect(submitProblem(complete({ car_rent_price: 0, description: '' }))).toEqual(missing);
    expect(submitProblem(complete({ description: '   ' }))).toEqual({
      title: 'Description Required',
      message: 'Please provide a description for your vehicle.',
      type: 'warning',
    });
    expect(submitProblem(complete())).toBeNull();
  });
});

describe('ruleToAdd', () => {
  it('ignores blank entries and repeats', () => {
    expect(ruleToAdd('  No smoking ', [])).toBe('No smoking');
    expect(ruleToAdd('   ', [])).toBeNull();
    expect(ruleToAdd('', [])).toBeNull();
    expect(ruleToAdd('no smoking', ['No smoking'])).toBeNull();
  });
});

describe('buildNewCarBody', () => {
  it('sends the car with a make-model-6-digit username, photos as data URLs and the specifications', () => {
    const body = buildNewCarBody(
      complete({ photos: [{ name: 'a.png', dataUrl: 'data:image/png;base64,AAA' }], rules: ['No pets'], features: ['Bluetooth'], engine: ' 1.8 ' }),
      new Date(1_767_225_600_123),
    );
    expect(body).toMatchObject({
      car_username: 'toyota-corolla-cross-600123',
      car_make: 'Toyota',
      car_model: 'Corolla Cross',
      car_year: 2026,
      car_plate_number: 'GP 12 AB CD',
      car_value: 350_000,
      car_rent_price: 650,
      car_odometer: 0,
      description: 'Spotless hybrid.',
      images: ['data:image/png;base64,AAA'],
      pickup_location: 'Durban',
      specifications: { transmission: 'Automatic', fuelType: 'Petrol', seats: 5, doors: 4, engine: '1.8', fuelConsumption: '' },
      features: ['Bluetooth'],
      rules: ['No pets'],
    });
  });

  it('sends the typed place for Other', () => {
    expect(buildNewCarBody(complete({ pickupCity: 'Other', pickupOther: ' Hermanus ' })).pickup_location).toBe('Hermanus');
  });
});
