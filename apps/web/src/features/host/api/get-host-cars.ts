// GET /api/car/getCarList?owner={username}: every car of the signed-in host, whatever its status or
// verification (the server shows an owner all of their own cars). The list is paged (48 at most
// per page), so a large fleet is read page by page.
import { CAR_LIST_MAX_LIMIT, type Car } from '@karoo/shared';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';

export const hostCarsKey = (username: string | undefined) => ['host-cars', username] as const;

/** Pages are read until the total is reached; a runaway total stops after this many. */
const MAX_PAGES = 50;

export async function getHostCars(username: string, signal?: AbortSignal): Promise<Car[]> {
  const cars: Car[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const result = await apiClient.get<Car[]>('/car/getCarList', { query: { owner: username, page, limit: CAR_LIST_MAX_LIMIT }, signal });
    const batch = result.data ?? [];
    cars.push(...batch);
    const total = result.meta?.total ?? cars.length;
    if (batch.length === 0 || cars.length >= total) break;
  }
  // The dashboard lists only the signed-in host's cars (document 2, host dashboard), even if an
  // older server ignored the owner filter.
  return cars.filter((car) => car.car_owner === username);
}

export function useHostCars(username: string | undefined) {
  return useQuery({
    queryKey: hostCarsKey(username),
    queryFn: ({ signal }) => getHostCars(username!, signal),
    enabled: !!username,
    // A car listed in the wizard a moment ago must show when the host arrives here.
    refetchOnMount: 'always',
  });
}

/** Puts the car a mutation answered with into the cached fleet, so the card updates at once. */
export function replaceCachedCar(queryClient: QueryClient, username: string, car: Car): void {
  queryClient.setQueryData<Car[]>(hostCarsKey(username), (cars) => cars?.map((current) => (current.id === car.id ? car : current)));
}
