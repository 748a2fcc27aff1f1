// GET /api/car/getCarList?limit=1: the landing page's live count of listed vehicles (meta.total).
import { useQuery } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';

export async function getVehicleCount(signal?: AbortSignal): Promise<number> {
  const result = await apiClient.get<unknown[]>('/car/getCarList', { query: { limit: 1 }, signal });
  return result.meta?.total ?? (Array.isArray(result.data) ? result.data.length : 0);
}

export function useVehicleCount() {
  return useQuery({ queryKey: ['cars', 'count'], queryFn: ({ signal }) => getVehicleCount(signal) });
}
