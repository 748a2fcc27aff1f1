// Rows to the API's car shape (document 2 section 3): rand amounts, both spellings of the fields
// the seed's screens read, private fields (registration document, admin notes, current renter)
// only for the owner and admins, and the exact place and plate only for a viewer who may know
// them (decision 055; everyone else gets the area).
import { areaOf, DEFAULT_SPECIFICATIONS, DEFAULT_TRIP_CHARGE_SETTINGS, defaultDepositCents, type Car, type InsuranceOption, type PickupOption, type Specifications } from '@karoo/shared';
import type { StoredInsuranceOption, StoredPickupOption, StoredSpecifications } from '../../db/schema';
import { toCarPhotos } from '../../lib/photo-variants';
import type { CarRecord } from './cars.repository';
import { instantBookingOf } from './instant-booking';
import { tripRulesOf } from './trip-rules';

const iso = (d: Date | string | null) => (d == null ? null : new Date(d).toISOString());

export function registrationDocumentUrl(carUsername: string): string {
  return `/api/car/${encodeURIComponent(carUsername)}/registration-document`;
}

export function toSpecifications(stored: StoredSpecifications | null | undefined): Specifications {
  return {
    transmission: stored?.transmission ?? DEFAULT_SPECIFICATIONS.transmission,
    fuelType: stored?.fuelType ?? DEFAULT_SPECIFICATIONS.fuelType,
    seats: stored?.seats ?? DEFAULT_SPECIFICATIONS.seats,
    doors: stored?.doors ?? DEFAULT_SPECIFICATIONS.doors,
    engine: stored?.engine ?? '',
    fuelConsumption: stored?.fuelConsumption ?? '',
  };
}

export interface CarViewOptions {
  /** The viewer owns the car or is an admin. */
  isPrivileged: boolean;
  /** The viewer may know the exact place and the plate (mayKnowExactPlace); owners and admins always may. */
  exactPlace?: boolean;
  distanceKm?: number | null;
}

/** What a viewer who may not know the exact place is told of it: the area, its grid position, no plate (decision 055). */
export function areaView(record: Pick<CarRecord, 'pickup_location' | 'area_latitude' | 'area_longitude'>) {
  const near = { latitude: record.area_latitude, longitude: record.area_longitude };
  return {
    pickup_location: areaOf(record.pickup_location, near),
    latitude: record.area_latitude,
    longitude: record.area_longitude,
    pickupAddress: (address: string) => areaOf(address, near) || areaOf(record.pickup_location, near),
  };
}

export function toCar(record: CarRecord, { isPrivileged, exactPlace = false, distanceKm }: CarViewOptions): Car {
  const specifications = toSpecifications(record.specifications);
  const isRented = record.rented_by !== null;
  const images = record.images ?? [];
  const exact = isPrivileged || exactPlace;
  const area = exact ? null : areaView(record);
  const pickupOptions = (record.pickup_options ?? []).map(toPickupOption);
  const car: Car = {
    id: record.id,
    car_username: record.car_username,
    car_owner: record.owner_username,
    car_make: record.car_make,
    car_model: record.car_model,
    car_year: record.car_year,
    car_color: record.car_color,
    car_type: record.car_type,
    car_plate_number: exact ? record.car_plate_number : null,
    car_value: record.car_value_cents / 100,
    car_rent_price: record.car_rent_price_cents / 100,
    car_odometer: record.car_odometer,
    // Stored for every car (migration 0036 and a new listing write the default for its value).
    deposit: (record.deposit_cents ?? defaultDepositCents(record.car_value_cents, DEFAULT_TRIP_CHARGE_SETTINGS)) / 100,
    tank_litres: record.tank_litres,
    distance_allowance_km: record.distance_allowance_km,
    extra_km_rate: record.extra_km_rate_cents / 100,
    description: record.description,
    car_description: record.description,
    images,
    car_images: images,
    photos: toCarPhotos(images, record.photo_variants),
    pickup_location: area ? area.pickup_location : record.pickup_location,
    latitude: area ? area.latitude : record.latitude,
    longitude: area ? area.longitude : record.longitude,
    exact_place: exact,
    buffer_minutes: record.buffer_minutes ?? 0,
    status: isRented && record.status === 'available' ? 'rented' : record.status,
    isRented,
    rating: record.rating == null ? null : Number(record.rating),
    totalReviews: record.total_reviews,
    specifications,
    features: record.features ?? [],
    safety: record.safety ?? [],
    rules: record.rules ?? [],
    // The options' names and fees stay (the price needs them); their street addresses do not.
    pickup_options: area ? pickupOptions.map((o) => ({ ...o, address: area.pickupAddress(o.address) })) : pickupOptions,
    insurance_options: (record.insurance_options ?? []).map(toInsuranceOption),
    trip_rules: tripRulesOf(record),
    instant_booking: instantBookingOf(record),
    seating_capacity: specifications.seats,
    fuel_type: specifications.fuelType,
    transmission: specifications.transmission.toLowerCase(),
    verification_status: record.verification_status,
    host: {
      username: record.owner_username,
      full_name: record.owner_full_name,
      rating: record.owner_rating == null ? null : Number(record.owner_rating),
      host_since: iso(record.owner_host_since),
    },
    created_at: iso(record.created_at)!,
    updated_at: iso(record.updated_at)!,
  };
  if (distanceKm !== undefined) car.distance_km = distanceKm == null ? null : Math.round(distanceKm * 10) / 10;
  if (isPrivileged) {
    car.admin_notes = record.admin_notes;
    car.assigned_user = record.rented_by;
    car.registration_document = record.registration_storage_key
      ? {
          url: registrationDocumentUrl(record.car_username),
          filename: record.registration_filename ?? 'registration-document',
          mime_type: record.registration_mime ?? 'application/octet-stream',
          uploaded_at: iso(record.registration_uploaded_at)!,
          verified: record.registration_verified,
          verification_notes: record.registration_verification_notes,
        }
      : null;
  }
  return car;
}

/** Haversine distance in km, the same formula the browse SQL sorts by. */
export function distanceKm(from: { lat: number; lng: number }, to: { latitude: number | null; longitude: number | null }): number | null {
  if (to.latitude == null || to.longitude == null) return null;
  const rad = (d: number) => (d * Math.PI) / 180;
  const dLat = rad(to.latitude - from.lat);
  const dLng = rad(to.longitude - from.lng);
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(rad(from.lat)) * Math.cos(rad(to.latitude)) * Math.sin(dLng / 2) ** 2;
  return 6371 * 2 * Math.asin(Math.min(1, Math.sqrt(a)));
}

const rand = (cents: number) => cents / 100;
const cents = (amount: number) => Math.round(amount * 100);

/** A stored pickup option as the API shows it (rand). */
export function toPickupOption(o: StoredPickupOption): PickupOption {
  return { id: o.id, name: o.name, address: o.address, additional_fee: rand(o.additional_fee_cents), type: o.type, available_times: o.available_times ?? [] };
}

/** A stored insurance plan as the API shows it (rand). */
export function toInsuranceOption(o: StoredInsuranceOption): InsuranceOption {
  return {
    id: o.id,
    name: o.name,
    description: o.description,
    daily_rate: rand(o.daily_rate_cents),
    excess_amount: rand(o.excess_amount_cents),
    coverage: o.coverage ?? [],
    included: o.included,
    popular: o.popular,
    recommended: o.recommended,
  };
}

/** A pickup option in rand (a host's form, the seed) as stored. */
export function storedPickupOption(o: PickupOption): StoredPickupOption {
  return { id: o.id, name: o.name, address: o.address, additional_fee_cents: cents(o.additional_fee), type: o.type, available_times: o.available_times };
}

/** An insurance plan in rand as stored. */
export function storedInsuranceOption(o: InsuranceOption): StoredInsuranceOption {
  return {
    id: o.id,
    name: o.name,
    description: o.description,
    daily_rate_cents: cents(o.daily_rate),
    excess_amount_cents: cents(o.excess_amount),
    coverage: o.coverage,
    included: o.included,
    popular: o.popular,
    recommended: o.recommended,
  };
}
