// The lean browse answers (issue 22, decision 046): a car as a browse card shows it (GET
// /api/car/getCarList?fields=card), and the browse map's clusters and single cars (GET /api/car/map).
// A browse page of 12 full cars is about 41 KB (descriptions, every option, every photo); 12 cards
// are a few KB.
import { z } from './zod';
import type { CarPhoto, CarPhotoFormat } from './car-photos';
import { carBadges, requiredBboxParam, carListQuerySchema, CAR_STATUSES, type Car } from './cars';

/**
 * A card's photo in few bytes: its URL, size and the widths it is stored in (each as JPEG, WebP and
 * AVIF, named as decision 045 names them: `<name>-w<width>.<ext>`, the full-width JPEG being the
 * photo itself). `cardPhotoSources` turns it into the CarPhoto a `<picture>` draws. Spelled out,
 * the twelve cards' variant URLs alone would be about 10 KB.
 */
export const cardPhotoSchema = z.object({
  src: z.string(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  /** Narrowest first; empty until the photo is converted. */
  widths: z.array(z.number().int()),
});
export type CardPhoto = z.infer<typeof cardPhotoSchema>;

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

/** What a browse card (and the map's car panel) shows of a car. */
export const carCardSchema = z.object({
  id: z.string(),
  /** The car page's address (/cars/{car_username}). */
  car_username: z.string(),
  /** "Toyota Corolla" (make and model; the year is its own field). */
  title: z.string(),
  car_make: z.string(),
  car_model: z.string(),
  car_year: z.number().int(),
  car_type: z.string(),
  /** Rand per day. */
  price_per_day: z.number(),
  /** The pickup place as the card shows it (its city). */
  location: z.string(),
  rating: z.number().nullable(),
  reviews: z.number().int(),
  /** The first photo, or null without one. */
  photo: cardPhotoSchema.nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  /** The price badges (carBadges): Premium, Instant, Insured. */
  badges: z.array(z.enum(['Premium', 'Instant', 'Insured'])),
  status: z.enum(CAR_STATUSES),
  /** The specification chips: transmission, fuel and seats. */
  transmission: z.string(),
  fuel_type: z.string(),
  seats: z.number().int(),
  /** "Hosted by …" under a verified car. */
  host_name: z.string(),
  verified: z.boolean(),
  /** Kilometres from the lat/lng of a distance-sorted browse. */
  distance_km: z.number().nullable().optional(),
});
export type CarCard = z.infer<typeof carCardSchema>;

/** A full car as a card (the favourites, read one by one from the car's details). */
export function carCardOf(car: Car): CarCard {
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
    badges: carBadges(car.car_rent_price),
    status: car.status,
    transmission: car.specifications.transmission || car.transmission,
    fuel_type: car.specifications.fuelType || car.fuel_type,
    seats: car.specifications.seats || car.seating_capacity,
    host_name: car.host.full_name,
    verified: car.verification_status === 'verified',
  };
  if (car.distance_km !== undefined) card.distance_km = car.distance_km;
  return card;
}

// ---- The browse map ----
/** The map's query: the public browse's filters (the same definition as the list's), a view and a zoom. */
export const carMapQuerySchema = carListQuerySchema
  .pick({ search: true, location: true, type: true, transmission: true, fuel: true, features: true, minPrice: true, maxPrice: true, pickupType: true, startDate: true, endDate: true })
  .extend({
    bbox: requiredBboxParam,
    zoom: z.coerce.number({ error: 'zoom must be a number' }).int('zoom must be a whole number').min(0, 'zoom must be at least 0').max(22, 'zoom must be at most 22'),
  });
export type CarMapQuery = z.input<typeof carMapQuerySchema>;
export type CarMapFilters = z.output<typeof carMapQuerySchema>;

/** Cars that crowd at this zoom, drawn as one circle; clicking it zooms to `expansion_zoom`. */
export const mapClusterSchema = z.object({
  cluster_id: z.number().int(),
  latitude: z.number(),
  longitude: z.number(),
  count: z.number().int(),
  /** The zoom at which the cluster splits. */
  expansion_zoom: z.number().int(),
});
export type MapCluster = z.infer<typeof mapClusterSchema>;

/** A car on its own at this zoom: a price pill. */
export const mapCarSchema = z.object({
  id: z.string(),
  title: z.string(),
  price_per_day: z.number(),
  latitude: z.number(),
  longitude: z.number(),
});
export type MapCar = z.infer<typeof mapCarSchema>;

export const carMapSchema = z.object({
  clusters: z.array(mapClusterSchema),
  cars: z.array(mapCarSchema),
  /** Matching cars in the view (clusters' counts plus single cars, capped ones included). */
  total: z.number().int(),
  /** True when the view held more clusters and cars than an answer carries (MAX_MAP_ITEMS): zoom in. */
  capped: z.boolean(),
  zoom: z.number().int(),
});
export type CarMap = z.infer<typeof carMapSchema>;

/** At most this many clusters and single cars in one map answer (a view of the whole country holds a few dozen). */
export const MAX_MAP_ITEMS = 500;
