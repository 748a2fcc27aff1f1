// GET /api/car/getCarDetails/{id}: one car by id or car_username (the detail page).
import type { Car } from '@karoo/shared';
import { useQuery } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export async function getCar(id: string, signal?: AbortSignal): Promise<Car> {
  const result = await apiClient.get<Car>(`/car/getCarDetails/${encodeURIComponent(id)}`, { signal });
  return result.data;
}

export function useCar(id: string | undefined) {
  return useQuery({
    queryKey: queryKeys.cars.detail(id),
    queryFn: ({ signal }) => getCar(id!, signal),
    enabled: !!id,
  });
}
