// PATCH /api/car/updateInstantBooking/{id} with the whole set: on or off and the requirements (decision 078).
import type { Car, InstantBookingInput } from '@karoo/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { replaceCachedCar } from './get-host-cars';

export async function updateInstantBooking(carId: string, body: InstantBookingInput): Promise<Car> {
  const result = await apiClient.patch<Car>(`/car/updateInstantBooking/${encodeURIComponent(carId)}`, body);
  return result.data;
}

export function useUpdateInstantBooking(username: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ carId, body }: { carId: string; body: InstantBookingInput }) => updateInstantBooking(carId, body),
    onSuccess: (car) => replaceCachedCar(queryClient, username, car),
  });
}
