// Setting a car's instant booking (issue 36, decision 078): its host (or an admin) replaces the whole
// set, validated by the shared schema the host's panel uses; written through saveCar (audited, and
// browse forgets the car).
import type { InstantBookingInput } from '@karoo/shared';
import type { AppContext } from '../../context';
import type { UserRow } from '../../db/schema';
import { findManageableCar, reload, saveCar, type CarRecord } from './cars.service';

/** PATCH /car/updateInstantBooking/{id}: the owner or an admin replaces the whole set (validated by updateInstantBookingBodySchema). */
export async function updateInstantBooking(ctx: AppContext, viewer: UserRow, idOrUsername: string, body: InstantBookingInput): Promise<CarRecord> {
  const car = await findManageableCar(ctx, viewer, idOrUsername);
  const changes = {
    instant_booking: body.enabled,
    instant_min_trips: body.min_trips,
    instant_min_rating_tenths: body.min_rating === null ? null : Math.round(body.min_rating * 10),
    instant_min_licence_years: body.min_licence_years,
  };
  const changed = Object.fromEntries(Object.entries(changes).filter(([key, value]) => car[key as keyof typeof changes] !== value));
  if (Object.keys(changed).length > 0) await saveCar(ctx, viewer, car, changed);
  return reload(ctx, car.id);
}
