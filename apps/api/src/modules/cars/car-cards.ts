// A car as a browse card shows it (fields=card, decision 046), from the card's columns only: a
// card is public, so it shows the area (its record holds the area's position, decision 055).
import { areaOf, carBadges, cardDiscounts, cardPhotoOf, DEFAULT_SPECIFICATIONS, offersInstantBooking, type CarCard } from '@karoo/shared';
import { toCarPhoto } from '../../lib/photo-variants';
import type { CarCardRecord } from './cars.repository';

/** `platform.instantAllowed`: the admin's switch over the hosts' instant booking (isInstantBookingAllowed over the settings). */
export function toCarCard(record: CarCardRecord, platform: { instantAllowed: boolean }, distanceKm?: number | null): CarCard {
  const price = record.car_rent_price_cents / 100;
  const spec = record.specifications ?? {};
  const card: CarCard = {
    id: record.id,
    car_username: record.car_username,
    title: `${record.car_make} ${record.car_model}`.trim(),
    car_make: record.car_make,
    car_model: record.car_model,
    car_year: record.car_year,
    car_type: record.car_type,
    price_per_day: price,
    location: areaOf(record.pickup_location, record),
    rating: record.rating == null ? null : Number(record.rating),
    reviews: record.total_reviews,
    photo: record.first_image ? cardPhotoOf(toCarPhoto(record.first_image, record.photo_variants)) : null,
    latitude: record.latitude,
    longitude: record.longitude,
    badges: carBadges({ instant: offersInstantBooking({ enabled: record.instant_booking }, platform.instantAllowed), insurance_options: record.has_included_cover ? [{ included: true }] : [] }),
    // As the full answer says it: out on a rental right now reads 'rented'.
    status: record.rented_by !== null && record.status === 'available' ? 'rented' : record.status,
    transmission: spec.transmission ?? DEFAULT_SPECIFICATIONS.transmission,
    fuel_type: spec.fuelType ?? DEFAULT_SPECIFICATIONS.fuelType,
    seats: spec.seats ?? DEFAULT_SPECIFICATIONS.seats,
    host_name: record.owner_full_name,
    verified: record.verification_status === 'verified',
  };
  if (distanceKm !== undefined) card.distance_km = distanceKm == null ? null : Math.round(distanceKm * 10) / 10;
  const discounts = cardDiscounts(record.weekly_discount_percent, record.monthly_discount_percent);
  if (discounts) card.discounts = discounts;
  return card;
}
