// GET /api/car/getCarList?owner={username}&limit=48: the signed-in user's cars for the profile's
// "Cars Listed" count (meta.total, which for the owner counts every status) and the My Cars grid
// (the first page, 48 cars at most). The profile keeps its own fetcher: features don't import
// each other.
import { CAR_LIST_MAX_LIMIT, type Car } from '@karoo/shared';
import { useQuery } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';

export interface ProfileCars {
  /** The first page of the user's cars (at most CAR_LIST_MAX_LIMIT). */
  cars: Car[];
  /** Every car the user owns, whatever its status. */
  total: number;
}

export const profileCarsKey = (username: string | undefined) => ['profile', 'cars', username] as const;

export async function getProfileCars(username: string, signal?: AbortSignal): Promise<ProfileCars> {
  const result = await apiClient.get<Car[]>('/car/getCarList', { query: { owner: username, limit: CAR_LIST_MAX_LIMIT }, signal });
  const cars = (result.data ?? []).slice(0, CAR_LIST_MAX_LIMIT);
  return { cars, total: result.meta?.total ?? cars.length };
}

export function useProfileCars(username: string | undefined) {
  return useQuery({
    queryKey: profileCarsKey(username),
    queryFn: ({ signal }) => getProfileCars(username!, signal),
    enabled: !!username,
  });
}
