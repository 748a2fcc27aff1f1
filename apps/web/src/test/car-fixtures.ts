// Cars, reviews and settings for the vehicle screens' tests, shaped as the API answers them.
import { DEFAULT_SETTINGS, plainCarPhoto, type Car, type Review } from '@karoo/shared';

let counter = 0;

export function makeCar(overrides: Partial<Car> = {}): Car {
  counter += 1;
  const id = overrides.id ?? `00000000-0000-4000-8000-${String(counter).padStart(12, '0')}`;
  return {
    id,
    car_username: `toyota-corolla-${String(100000 + counter)}`,
    car_owner: 'host_thabo',
    car_make: 'Toyota',
    car_model: 'Corolla',
    car_year: 2022,
    car_color: 'White',
    car_type: 'Sedan',
    car_plate_number: 'CA 123-456',
    car_value: 320000,
    car_rent_price: 650,
    car_odometer: 42000,
    deposit: 3500,
    tank_litres: 45,
    distance_allowance_km: 200,
    extra_km_rate: 3.5,
    description: 'A tidy Corolla for city trips.',
    car_description: 'A tidy Corolla for city trips.',
    images: ['/uploads/cars/a/side.svg', '/uploads/cars/a/front.svg'],
    car_images: ['/uploads/cars/a/side.svg', '/uploads/cars/a/front.svg'],
    photos: (overrides.images ?? ['/uploads/cars/a/side.svg', '/uploads/cars/a/front.svg']).map(plainCarPhoto),
    pickup_location: 'Johannesburg',
    latitude: -26.2,
    longitude: 28.04,
    exact_place: true,
    status: 'available',
    isRented: false,
    rating: null,
    totalReviews: 0,
    specifications: { transmission: 'Automatic', fuelType: 'Petrol', seats: 5, doors: 4, engine: '1.8', fuelConsumption: '6.5L/100km' },
    features: ['Bluetooth', 'Air Conditioning'],
    safety: ['ABS Brakes'],
    rules: ['No smoking'],
    pickup_options: [
      { id: 'pickup_home', name: "Host's home", address: '1 Main Rd', additional_fee: 0, type: 'standard', available_times: ['09:00', '13:00', '17:00', '19:00'] },
      { id: 'pickup_airport', name: 'OR Tambo Airport', address: 'Arrivals', additional_fee: 250, type: 'airport', available_times: ['08:00'] },
    ],
    insurance_options: [
      { id: 'insurance_basic', name: 'Basic Cover', description: 'Third-party', daily_rate: 0, excess_amount: 20000, coverage: ['Third-party'], included: true, popular: false, recommended: false },
      { id: 'insurance_premium', name: 'Premium Cover', description: 'Zero excess', daily_rate: 180, excess_amount: 0, coverage: ['Zero excess'], included: false, popular: true, recommended: true },
    ],
    seating_capacity: 5,
    fuel_type: 'Petrol',
    transmission: 'automatic',
    verification_status: 'verified',
    host: { username: 'host_thabo', full_name: 'Thabo Mokoena', rating: 4.8, host_since: '2024-01-10T00:00:00.000Z' },
    created_at: '2025-01-01T00:00:00.000Z',
    updated_at: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

export function makeReview(overrides: Partial<Review> = {}): Review {
  counter += 1;
  return {
    id: `review-${counter}`,
    rating: 5,
    comment: 'Great car.',
    created_at: '2025-06-01T10:00:00.000Z',
    reviewer: { username: `renter${counter}`, avatar: null },
    car_username: 'toyota-corolla-100001',
    user_username: `renter${counter}`,
    booking_id: null,
    ...overrides,
  };
}

export const settingsAnswer = { ...DEFAULT_SETTINGS };

/** A GET /car/getCarList answer. */
export function carPage(cars: Car[], meta: { total: number; page?: number; limit?: number; total_exact?: boolean; has_more?: boolean }) {
  return new Response(JSON.stringify({ success: true, data: cars, meta: { page: 1, limit: 12, ...meta } }), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  });
}
