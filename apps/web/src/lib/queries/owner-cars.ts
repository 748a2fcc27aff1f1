// Every car of one owner, read by the host dashboard, Earnings, the dashboard and the profile under
// one key. (The landing page's car count is in car-count.ts: this module brings the car schemas.)
import { CAR_LIST_MAX_LIMIT, type Car } from '@karoo/shared';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { apiClient } from '../api-client';
import { queryKeys } from '../query-keys';

/** Pages are read until the total is reached; a runaway total stops after this many. */
const MAX_PAGES = 50;

export interface OwnerFleet {
  cars: Car[];
  /** Every car the owner has, whatever its status (the server's meta.total). */
  total: number;
}

/**
 * GET /api/car/getCarList?owner={username}, page by page: every car of the owner, whatever its
 * status or verification (the server shows an owner all of their own cars).
 */
export async function getOwnerCars(username: string, signal?: AbortSignal): Promise<OwnerFleet> {
  const byId = new Map<string, Car>();
  let total = 0;
  for (let page = 1; page <= MAX_PAGES; page++) {
    const result = await apiClient.get<Car[]>('/car/getCarList', { query: { owner: username, page, limit: CAR_LIST_MAX_LIMIT }, signal });
    const batch = result.data ?? [];
    const before = byId.size;
    for (const car of batch) byId.set(car.id, car);
    total = result.meta?.total ?? byId.size;
    // Stop at the total, or when a page brings nothing new (a list that shifted while paging).
    if (byId.size === before || byId.size >= total) break;
  }
  // Only the owner's cars, even if an older server ignored the owner filter.
  const cars = [...byId.values()].filter((car) => car.car_owner === username);
  return { cars, total: Math.max(total, cars.length) };
}

export interface OwnerCarsOptions {
  enabled?: boolean;
  /** 'always' when a car listed a moment ago must show as soon as the page opens. */
  refetchOnMount?: boolean | 'always';
}

function ownerCarsQuery(username: string | undefined, enabled: boolean) {
  return {
    queryKey: queryKeys.cars.owner(username),
    queryFn: ({ signal }: { signal: AbortSignal }) => getOwnerCars(username!, signal),
    enabled: !!username && enabled,
  };
}

const carsOf = (fleet: OwnerFleet) => fleet.cars;

/** The owner's cars as a list (the host dashboard). */
export function useOwnerCars(username: string | undefined, { enabled = true, refetchOnMount }: OwnerCarsOptions = {}) {
  return useQuery({ ...ownerCarsQuery(username, enabled), select: carsOf, ...(refetchOnMount !== undefined ? { refetchOnMount } : {}) });
}

/** The same query as { cars, total } (Earnings, the dashboard, the profile's Cars Listed). */
export function useOwnerFleet(username: string | undefined, enabled = true) {
  return useQuery(ownerCarsQuery(username, enabled));
}

/** Puts the car a mutation answered with into the owner's cached cars, so every card updates at once. */
export function replaceCachedOwnerCar(queryClient: QueryClient, username: string, car: Car): void {
  queryClient.setQueryData<OwnerFleet>(queryKeys.cars.owner(username), (fleet) =>
    fleet ? { ...fleet, cars: fleet.cars.map((current) => (current.id === car.id ? car : current)) } : fleet,
  );
}
