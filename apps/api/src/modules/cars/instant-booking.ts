// A car's instant booking (issue 36, decision 078): the host's choice and its requirements, as the
// row holds them (migration 0041). The host's update is instant-booking.service.ts.
import type { InstantBooking } from '@karoo/shared';
import type { CarRow } from '../../db/schema';

type InstantColumns = Pick<CarRow, 'instant_booking' | 'instant_min_trips' | 'instant_min_rating_tenths' | 'instant_min_licence_years'>;

/** The car's instant booking as the API answers it (the rating in stars, one decimal). */
export function instantBookingOf(car: InstantColumns): InstantBooking {
  return {
    enabled: car.instant_booking,
    min_trips: car.instant_min_trips,
    min_rating: car.instant_min_rating_tenths === null ? null : car.instant_min_rating_tenths / 10,
    min_licence_years: car.instant_min_licence_years,
  };
}
