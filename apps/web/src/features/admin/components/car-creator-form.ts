// The admin car creator's rules (document 3, "Admin car creator"; sections 5 and 9): the Quick Test
// Car, the Custom Car form's defaults, its three required fields and message, the numeric
// fallbacks (unparsable numbers become 0, seats 5 and doors 4), and the body both send to
// POST /api/car/newCar/{owner}. The listing rules themselves are the platform's (validateCarListing
// in @karoo/shared), checked here for fast feedback and again by the server.
import { ADMIN_CREATOR_FEATURES, BASE_CITIES, CAR_USERNAME_PATTERN, DEFAULT_NEW_CAR, FUEL_TYPES, WIZARD_TRANSMISSIONS, type NewCarBody } from '@karoo/shared';

/** Document 3's eight types; 'Pickup' is stored as the wizard's 'Pickup Truck' so browse finds it. */
export const CREATOR_TYPES: readonly { value: string; label: string }[] = [
  { value: 'Sedan', label: 'Sedan' },
  { value: 'SUV', label: 'SUV' },
  { value: 'Hatchback', label: 'Hatchback' },
  { value: 'Convertible', label: 'Convertible' },
  { value: 'Coupe', label: 'Coupe' },
  { value: 'Wagon', label: 'Wagon' },
  { value: 'Pickup Truck', label: 'Pickup' },
  { value: 'Van', label: 'Van' },
];
export const CREATOR_TRANSMISSIONS = WIZARD_TRANSMISSIONS;
export const CREATOR_FUELS = FUEL_TYPES;
export const CREATOR_FEATURES = ADMIN_CREATOR_FEATURES;
export const CREATOR_CITIES = BASE_CITIES.map((city) => city.name);

export const REQUIRED_FIELDS_MESSAGE = 'Please fill in all required fields (Make, Model, Username)';
export const SIGNED_OUT_MESSAGE = 'You must be logged in to create a car';
export const CAR_USERNAME_MESSAGE = 'Car username: lowercase letters, digits and single hyphens (e.g. toyota-fortuner-test), at least 3 characters.';

/** Document 3, section 9: seats fall back to 5 (2 to 9 offered; the platform's own limit still applies), doors to 4 (2 to 5). */
export const CREATOR_SEATS = { fallback: DEFAULT_NEW_CAR.seats, min: 2, max: 9 } as const;
export const CREATOR_DOORS = { fallback: DEFAULT_NEW_CAR.doors, min: 2, max: 5 } as const;

/** The Quick Test Car: a pre-configured SUV, daily rate R450, value R750 000. */
export const QUICK_TEST_CAR = {
  car_make: 'Toyota',
  car_model: 'Fortuner 2.8 GD-6',
  car_year: 2023,
  car_type: 'SUV',
  car_color: 'White',
  car_rent_price: 450,
  car_value: 750_000,
  car_odometer: 0,
  pickup_location: 'Cape Town',
  transmission: 'Automatic',
  fuelType: 'Diesel',
  seats: 7,
  doors: 5,
  engine: '2.8L',
  fuelConsumption: '7.9L/100km',
  features: ['Air Conditioning', 'Bluetooth', 'Cruise Control', 'Backup Camera', 'Apple CarPlay', 'Android Auto'],
  description: 'Test car created with the admin car creator: a seven-seat diesel SUV for trying out verification, booking and payment.',
} as const;

/** The Custom Car form as typed: every number is text until it is sent. */
export interface CustomCarForm {
  car_make: string;
  car_model: string;
  car_username: string;
  car_year: string;
  car_type: string;
  car_color: string;
  car_plate_number: string;
  car_rent_price: string;
  car_value: string;
  pickup_location: string;
  transmission: string;
  fuelType: string;
  seats: string;
  doors: string;
  fuelConsumption: string;
  engine: string;
  description: string;
  features: string[];
}

/** Document 3's custom defaults: Sedan, Automatic, Petrol, 5 seats, 4 doors, 8.0 L/100 km, 2.0 L. */
export function customCarDefaults(year: number): CustomCarForm {
  return {
    car_make: '',
    car_model: '',
    car_username: '',
    car_year: String(year),
    car_type: DEFAULT_NEW_CAR.car_type,
    car_color: 'White',
    car_plate_number: '',
    car_rent_price: String(QUICK_TEST_CAR.car_rent_price),
    car_value: String(QUICK_TEST_CAR.car_value),
    pickup_location: 'Johannesburg',
    transmission: DEFAULT_NEW_CAR.transmission,
    fuelType: DEFAULT_NEW_CAR.fuelType,
    seats: String(CREATOR_SEATS.fallback),
    doors: String(CREATOR_DOORS.fallback),
    fuelConsumption: '8.0',
    engine: '2.0',
    description: '',
    features: [],
  };
}

/** True while Make, Model or Car Username is empty: the Create button stays disabled. */
export function missingRequired(form: Pick<CustomCarForm, 'car_make' | 'car_model' | 'car_username'>): boolean {
  return !form.car_make.trim() || !form.car_model.trim() || !form.car_username.trim();
}

export function isValidCarUsername(value: string): boolean {
  const username = value.trim().toLowerCase();
  return username.length >= 3 && CAR_USERNAME_PATTERN.test(username);
}

/** A number typed into the form; what cannot be read falls back (0 unless the field says otherwise). */
export function numberOr(text: string, fallback = 0): number {
  const value = Number(text.trim().replace(',', '.'));
  return text.trim() !== '' && Number.isFinite(value) ? value : fallback;
}

/** A whole number typed into the form; what cannot be read falls back. */
export function wholeOr(text: string, fallback: number): number {
  const value = numberOr(text, Number.NaN);
  return Number.isInteger(value) ? value : fallback;
}

/**
 * A plate for a car the creator makes without one: "TEST" and six characters, so it is plainly a
 * test car's and never a real plate (plates are unique on Karoo).
 */
export function testPlate(random: () => number = Math.random): string {
  const alphabet = 'ABCDEFGHJKLMNPRSTVWXYZ0123456789';
  return `TEST ${Array.from({ length: 6 }, () => alphabet[Math.floor(random() * alphabet.length)]).join('')}`;
}

export function quickTestCarBody(random: () => number = Math.random): NewCarBody {
  const { transmission, fuelType, seats, doors, engine, fuelConsumption, features, ...car } = QUICK_TEST_CAR;
  return {
    ...car,
    car_plate_number: testPlate(random),
    features: [...features],
    specifications: { transmission, fuelType, seats, doors, engine, fuelConsumption },
  };
}

export function customCarBody(form: CustomCarForm, random: () => number = Math.random): NewCarBody {
  const make = form.car_make.trim();
  const model = form.car_model.trim();
  return {
    car_make: make,
    car_model: model,
    car_username: form.car_username.trim().toLowerCase(),
    car_year: wholeOr(form.car_year, 0),
    car_type: form.car_type,
    car_color: form.car_color.trim(),
    car_plate_number: form.car_plate_number.trim() || testPlate(random),
    car_rent_price: numberOr(form.car_rent_price),
    car_value: numberOr(form.car_value),
    car_odometer: 0,
    pickup_location: form.pickup_location,
    description: form.description.trim() || `${make} ${model} created with the admin car creator.`,
    features: form.features,
    specifications: {
      transmission: form.transmission,
      fuelType: form.fuelType,
      seats: wholeOr(form.seats, CREATOR_SEATS.fallback),
      doors: wholeOr(form.doors, CREATOR_DOORS.fallback),
      engine: `${numberOr(form.engine).toFixed(1)}L`,
      fuelConsumption: `${numberOr(form.fuelConsumption).toFixed(1)}L/100km`,
    },
  };
}
