// PATCH /api/car/updatePickupOptions/{id} with { pickup_options }: replaces the whole list.
import type { Car, PickupOptionInput } from '@karoo/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { replaceCachedCar } from './get-host-cars';

export async function updatePickupOptions(carId: string, pickupOptions: PickupOptionInput[]): Promise<Car> {
  const result = await apiClient.patch<Car>(`/car/updatePickupOptions/${encodeURIComponent(carId)}`, { pickup_options: pickupOptions });
  return result.data;
}

export function useUpdatePickupOptions(username: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ carId, pickupOptions }: { carId: string; pickupOptions: PickupOptionInput[] }) => updatePickupOptions(carId, pickupOptions),
    onSuccess: (car) => replaceCachedCar(queryClient, username, car),
  });
}
