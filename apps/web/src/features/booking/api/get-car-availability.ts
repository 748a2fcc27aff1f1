// GET /api/car/{id}/availability: the dates a car is held (pending, confirmed or active
// bookings), from today. The booking calendar disables them; submit checks them.
import type { CarAvailability } from '@karoo/shared';
import { useQuery } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';

export async function getCarAvailability(carId: string, signal?: AbortSignal): Promise<CarAvailability[]> {
  const result = await apiClient.get<CarAvailability[]>(`/car/${encodeURIComponent(carId)}/availability`, { signal });
  return Array.isArray(result.data) ? result.data : [];
}

export const availabilityKey = (carId: string) => ['cars', 'availability', carId] as const;

export function useCarAvailability(carId: string) {
  return useQuery({
    queryKey: availabilityKey(carId),
    queryFn: ({ signal }) => getCarAvailability(carId, signal),
    // Other renters book too: never trust a copy older than a minute.
    staleTime: 60_000,
  });
}
