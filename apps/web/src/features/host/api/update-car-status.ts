// PUT /api/car/updateCar/{id} with { status }: the available/offline toggle.
import type { Car } from '@karoo/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { replaceCachedCar } from './get-host-cars';

export type ToggleableStatus = 'available' | 'offline';

export async function updateCarStatus(carId: string, status: ToggleableStatus): Promise<Car> {
  const result = await apiClient.put<Car>(`/car/updateCar/${encodeURIComponent(carId)}`, { status });
  return result.data;
}

export function useUpdateCarStatus(username: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ carId, status }: { carId: string; status: ToggleableStatus }) => updateCarStatus(carId, status),
    onSuccess: (car) => replaceCachedCar(queryClient, username, car),
  });
}
