// A host's record of cancelling paid trips (issue 20: "Cancelled 2 of 40 trips", on their public
// profile and their cars' host card). Which bookings were trips and who cancelled them are the
// bookings module's facts; the cars module, below it, answers the host card and the profile, so
// the app passes this function to the cars routes (app.ts), as it passes `refundsOf` to ours.
import type { HostCancellations } from '@karoo/shared';
import type { Db } from '../../db/connection';
import { countHostCancellations, hasPaidTrip } from './bookings.repository';

/** Of the host's paid trips, how many the host cancelled. */
export function hostCancellations(db: Db, hostId: string): Promise<HostCancellations> {
  return countHostCancellations(db, hostId);
}

/** Whether the renter has a paid trip of the car: the cars module asks it to know who may see the car's exact place (decision 055). */
export function paidTripOf(db: Db, carId: string, renterId: string): Promise<boolean> {
  return hasPaidTrip(db, carId, renterId);
}
