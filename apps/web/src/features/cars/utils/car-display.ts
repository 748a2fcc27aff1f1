// How a car is shown on cards, the map and the detail page: its name, badges, up to three
// specification chips, its photos and its host's cancellations. Its rating uses lib/format's formatRating ("New" until it
// has reviews, decisions.md section 5, not the seed's 4.5).
import { carBadges, markerColour, type Car, type HostCancellations } from '@karoo/shared';

export const MAX_SPEC_CHIPS = 3;

export type CarLike = Pick<Car, 'car_make' | 'car_model'> & Partial<Car>;

/** "Toyota Corolla". */
export function carTitle(car: Pick<Car, 'car_make' | 'car_model'>): string {
  return `${car.car_make} ${car.car_model}`.trim();
}

export { carBadges, markerColour };

/** Transmission, fuel and seats (what renters filter by), at most three. */
export function specChips(car: Pick<Car, 'specifications'> & Partial<Pick<Car, 'transmission' | 'fuel_type' | 'seating_capacity'>>): string[] {
  const spec = car.specifications;
  const transmission = spec?.transmission || car.transmission;
  const fuel = spec?.fuelType || car.fuel_type;
  const seats = spec?.seats ?? car.seating_capacity;
  const chips = [transmission ? capitalise(transmission) : null, fuel ? capitalise(fuel) : null, seats ? `${seats} seats` : null];
  return chips.filter((chip): chip is string => !!chip).slice(0, MAX_SPEC_CHIPS);
}

export function carImages(car: Partial<Pick<Car, 'images' | 'car_images'>>): string[] {
  const images = car.images?.length ? car.images : (car.car_images ?? []);
  return images.filter(Boolean);
}

export function capitalise(value: string): string {
  return value ? value.charAt(0).toUpperCase() + value.slice(1) : value;
}

export const MARKER_CLASSES: Record<ReturnType<typeof markerColour>, string> = {
  green: 'bg-emerald-700 text-white ring-emerald-800/40',
  yellow: 'bg-amber-400 text-stone-900 ring-amber-600/40',
  red: 'bg-red-700 text-white ring-red-800/40',
};

/**
 * "Cancelled 2 of 40 trips" (Turo's wording): the paid trips the host cancelled of all their paid
 * trips. Nothing for a host without paid trips yet: "0 of 0" tells a renter nothing.
 */
export function hostCancellationsText(record: HostCancellations | undefined): string | null {
  if (!record || record.paid_trips === 0) return null;
  return `Cancelled ${record.cancelled_by_host} of ${record.paid_trips} ${record.paid_trips === 1 ? 'trip' : 'trips'}`;
}
