// Cars and a signed-in host for the host feature's tests, shaped like the API's answers.
import { plainCarPhoto, type Car } from '@karoo/shared';
import { jsonResponse, makeUser, mockFetch, ok, signIn } from '@/test/fixtures';

export const testHost = makeUser({ username: 'host_thabo', full_name: 'Thabo Mokoena', role: 'host', user_type: 'host' });

/** Signs the host in and answers the calls every page makes, plus the fleet (read at call time). */
export function hostApi(cars: Car[], extra: Parameters<typeof mockFetch>[0] = {}) {
  signIn(testHost);
  return mockFetch({
    'GET /api/user/me': ok(testHost),
    'GET /api/notifications': ok([]),
    'GET /api/user/host_thabo/verification-status': ok({
      verification_status: 'verified',
      documents: { id_document: null, driver_license: null, proof_of_address: null, bank_confirmation_letter: null },
      missing: [],
    }),
    'GET /api/car/getCarList': () => jsonResponse({ success: true, data: cars, meta: { total: cars.length, page: 1, limit: 48 } }),
    ...extra,
  });
}

/** The JSON body of the first call to a path with a method. */
export function bodyOf(fetchMock: ReturnType<typeof mockFetch>, method: string, path: string): unknown {
  const call = fetchMock.mock.calls.find(([url, init]) => String(url).includes(path) && (init?.method ?? 'GET') === method);
  return call ? JSON.parse(String(call[1]?.body)) : undefined;
}

let counter = 0;

export function makeCar(overrides: Partial<Car> = {}): Car {
  counter += 1;
  const id = overrides.id ?? `00000000-0000-4000-8000-${String(counter).padStart(12, '0')}`;
  const carUsername = overrides.car_username ?? `toyota-corolla-${String(100000 + counter)}`;
  return {
    id,
    car_username: carUsername,
    car_owner: 'host_thabo',
    car_make: 'Toyota',
    car_model: 'Corolla',
    car_year: 2022,
    car_color: 'White',
    car_type: 'Sedan',
    car_plate_number: 'GP 12 AB CD',
    car_value: 300000,
    car_rent_price: 650,
    car_odometer: 42000,
    deposit: 3500,
    tank_litres: 45,
    distance_allowance_km: 200,
    extra_km_rate: 3.5,
    description: 'A tidy sedan.',
    car_description: 'A tidy sedan.',
    images: [`/uploads/cars/${id}/side.svg`],
    car_images: [`/uploads/cars/${id}/side.svg`],
    photos: (overrides.images ?? [`/uploads/cars/${id}/side.svg`]).map(plainCarPhoto),
    pickup_location: 'Johannesburg',
    latitude: -26.2,
    longitude: 28.04,
    exact_place: true,
    status: 'available',
    isRented: false,
    rating: 4.5,
    totalReviews: 2,
    specifications: { transmission: 'Automatic', fuelType: 'Petrol', seats: 5, doors: 4, engine: '1.6', fuelConsumption: '6.1L/100km' },
    features: ['Bluetooth'],
    safety: ['Airbags'],
    rules: [],
    pickup_options: [],
    insurance_options: [],
    seating_capacity: 5,
    fuel_type: 'Petrol',
    transmission: 'automatic',
    verification_status: 'verified',
    host: { username: 'host_thabo', full_name: 'Thabo Mokoena', rating: 4.8, host_since: '2024-01-01T00:00:00.000Z' },
    created_at: '2025-01-01T00:00:00.000Z',
    updated_at: '2025-01-01T00:00:00.000Z',
    registration_document: null,
    admin_notes: null,
    assigned_user: null,
    ...overrides,
  };
}
