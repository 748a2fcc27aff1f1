// GET /api/car/getCarList?limit=1: how many cars are listed, for the landing page and the renter's
// dashboard under one key. Kept apart from owner-cars.ts so that the landing page does not load the
// shared car schemas (and zod) with it.
import { useQuery } from '@tanstack/react-query';
import { apiClient } from '../api-client';
import { queryKeys } from '../query-keys';

/** GET /api/car/getCarList?limit=1: how many cars are listed (meta.total), with no filter and no date window. */
export async function getListedCarsCount(signal?: AbortSignal): Promise<number> {
  const result = await apiClient.get<unknown[]>('/car/getCarList', { query: { limit: 1 }, signal });
  return result.meta?.total ?? (Array.isArray(result.data) ? result.data.length : 0);
}

export function useListedCarsCount(enabled = true) {
  return useQuery({ queryKey: queryKeys.cars.count(), queryFn: ({ signal }) => getListedCarsCount(signal), enabled });
}
