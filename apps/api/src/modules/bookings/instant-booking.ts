// Whether a request is confirmed at once (issue 36, decision 078): the car's instant booking, the
// platform's switch above it, and the renter's record (completed trips and hosts' rating, from the
// reviews module) and profile (the licence's issue date). The one check the booking request applies
// and the car page asks of before the renter sends it.
import { instantBookingUnmet, isInstantBookingAllowed, type InstantEligibility, type InstantUnmet, type PlatformSettings } from '@karoo/shared';
import type { AppContext } from '../../context';
import type { UserRow } from '../../db/schema';
import { notFound } from '../../lib/app-error';
import { canManageCar, findCar, instantBookingOf, today, type CarRecord } from '../cars';
import { renterStanding } from '../reviews';
import { getSettings } from '../settings';

/** What the renter lacks for this car's instant booking; empty: their request is confirmed at once. */
export async function instantBookingCheck(ctx: AppContext, renter: UserRow, car: CarRecord, settings: PlatformSettings): Promise<InstantUnmet[]> {
  const rules = instantBookingOf(car);
  const allowed = isInstantBookingAllowed(settings);
  // The record is read only when it can matter.
  const standing = allowed && rules.enabled ? await renterStanding(ctx, renter.id) : { completed_trips: 0, rating: null };
  return instantBookingUnmet(
    rules,
    allowed,
    { verified: renter.verification_status === 'verified', completed_trips: standing.completed_trips, rating: standing.rating, licence_issued_on: renter.driver_licence_issued_on },
    today(ctx),
  );
}

/** GET /booking/instant/{car}: the signed-in renter's answer for a car they may book (404 for a car they cannot see). */
export async function instantEligibility(ctx: AppContext, viewer: UserRow, carUsername: string): Promise<InstantEligibility> {
  const car = await findCar(ctx, carUsername);
  if (!car || (car.status !== 'available' && !canManageCar(viewer, car)) || (car.verification_status !== 'verified' && !canManageCar(viewer, car))) throw notFound('Car not found');
  const unmet = await instantBookingCheck(ctx, viewer, car, await getSettings(ctx));
  return { instant: unmet.length === 0, unmet };
}
