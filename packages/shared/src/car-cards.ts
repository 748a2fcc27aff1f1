// The lean browse answers (issue 22, decision 046): a car as a browse card shows it (GET
// /api/car/getCarList?fields=card), and the browse map's clusters and single cars (GET /api/car/map).
// A browse page of 12 full cars is about 41 KB (descriptions, every option, every photo); 12 cards
// are a few KB.
// Here what a card is made of (pure: the public pages draw cards without loading zod); the card's
// and the map's schemas are cars.ts's.
import type { CarPhotoFormat } from './car-photos';
import type { CAR_BADGES } from './catalogues';
import type { Car, CardPhoto, CarCard, CarPhoto } from './cars';
import { DEFAULT_INSTANT_BOOKING, offersInstantBooking } from './instant-booking';

const FORMAT_EXTENSIONS: Record<CarPhotoFormat, string> = { jpeg: 'jpg', webp: 'webp', avif: 'avif' };

/** The URL of one variant of a photo (decision 045's names). */
export function photoVariantUrl(src: string, width: number, format: CarPhotoFormat, fullWidth: number | null): string {
  if (format === 'jpeg' && width === fullWidth && /\.jpe?g$/i.test(src)) return src;
  return `${src.replace(/\.[a-z0-9]+$/i, '')}-w${width}.${FORMAT_EXTENSIONS[format]}`;
}

/** A card's photo as the CarPhoto every photo component draws. */
export function cardPhotoSources(photo: CardPhoto): CarPhoto {
  const ratio = photo.width && photo.height ? photo.height / photo.width : null;
  return {
    src: photo.src,
    width: photo.width,
    height: photo.height,
    variants: photo.widths.map((width) => ({
      width,
      height: ratio === null ? 0 : Math.round(width * ratio),
      jpeg: photoVariantUrl(photo.src, width, 'jpeg', photo.width),
      webp: photoVariantUrl(photo.src, width, 'webp', photo.width),
      avif: photoVariantUrl(photo.src, width, 'avif', photo.width),
    })),
  };
}

/** A CarPhoto in a card's few bytes. */
export function cardPhotoOf(photo: CarPhoto): CardPhoto {
  return { src: photo.src, width: photo.width, height: photo.height, widths: photo.variants.map((v) => v.width) };
}

/**
 * A full car as a card (the favourites, read one by one from the car's details). Instant: the
 * host's choice under the platform's switch (`platform.instantAllowed`, isInstantBookingAllowed).
 */
export function carCardOf(car: Car, platform: { instantAllowed: boolean }): CarCard {
  const photo = car.photos[0] ?? (car.images[0] ? { src: car.images[0], width: null, height: null, variants: [] } : undefined);
  const card: CarCard = {
    id: car.id,
    car_username: car.car_username,
    title: `${car.car_make} ${car.car_model}`.trim(),
    car_make: car.car_make,
    car_model: car.car_model,
    car_year: car.car_year,
    car_type: car.car_type,
    price_per_day: car.car_rent_price,
    location: car.pickup_location,
    rating: car.rating,
    reviews: car.totalReviews,
    photo: photo ? cardPhotoOf(photo) : null,
    latitude: car.latitude,
    longitude: car.longitude,
    badges: carBadges({ instant: offersInstantBooking(car.instant_booking ?? DEFAULT_INSTANT_BOOKING, platform.instantAllowed), insurance_options: car.insurance_options }),
    status: car.status,
    transmission: car.specifications.transmission || car.transmission,
    fuel_type: car.specifications.fuelType || car.fuel_type,
    seats: car.specifications.seats || car.seating_capacity,
    host_name: car.host.full_name,
    verified: car.verification_status === 'verified',
  };
  if (car.distance_km !== undefined) card.distance_km = car.distance_km;
  const discounts = cardDiscounts(car.trip_rules?.weekly_discount_percent ?? 0, car.trip_rules?.monthly_discount_percent ?? 0);
  if (discounts) card.discounts = discounts;
  return card;
}

/** A card's discounts: only when the car has one, so a card without stays as lean as before. */
export function cardDiscounts(weekly: number, monthly: number): CarCard['discounts'] {
  return weekly > 0 || monthly > 0 ? { weekly, monthly } : undefined;
}

// ---- Display rules shared by the cards and the map ----
export type CarBadge = (typeof CAR_BADGES)[number];

/** The facts the badges state. */
export interface CarBadgeFacts {
  /** The car offers instant booking: its host turned it on and the platform allows it (offersInstantBooking; decision 078). */
  instant: boolean;
  /** The car's insurance plans: one included in the price covers every trip (hasIncludedCover). */
  insurance_options: readonly { included: boolean }[];
}

/** Whether every trip of the car carries cover: one of its plans is included in the price. */
export function hasIncludedCover(options: readonly { included: boolean }[]): boolean {
  return options.some((option) => option.included);
}

/** A car's badges: Instant when it offers instant booking, Insured when its price includes cover. */
export function carBadges(facts: CarBadgeFacts): CarBadge[] {
  const badges: CarBadge[] = [];
  if (facts.instant) badges.push('Instant');
  if (hasIncludedCover(facts.insurance_options)) badges.push('Insured');
  return badges;
}

/** Map marker colour bands: up to R500 green, up to R1000 yellow, above red. */
export function markerColour(dailyPrice: number): 'green' | 'yellow' | 'red' {
  if (dailyPrice <= 500) return 'green';
  if (dailyPrice <= 1000) return 'yellow';
  return 'red';
}
