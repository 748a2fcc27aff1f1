// The signed-in host's cars for the host dashboard: the one owner-cars query of lib/queries/owner-cars
// (the dashboard, Earnings and the profile read the same cache), refetched on arrival so that a
// car listed in the wizard a moment ago shows at once.
import type { Car } from '@karoo/shared';
import type { QueryClient } from '@tanstack/react-query';
import { replaceCachedOwnerCar, useOwnerCars } from '@/lib/queries/owner-cars';
import { queryKeys } from '@/lib/query-keys';

export const hostCarsKey = queryKeys.cars.owner;

export function useHostCars(username: string | undefined) {
  return useOwnerCars(username, { refetchOnMount: 'always' });
}

/** Puts the car a mutation answered with into the cached fleet, so the card updates at once. */
export function replaceCachedCar(queryClient: QueryClient, username: string, car: Car): void {
  replaceCachedOwnerCar(queryClient, username, car);
}
