// PATCH /api/car/returnCar/{id}: ends the current rental (the booking completes, the car is
// available again) and records the odometer and condition notes.
import type { Car } from '@karoo/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { hostCarsKey, replaceCachedCar } from './get-host-cars';
import { queryKeys } from '@/lib/query-keys';

export interface ReturnCarInput {
  condition_notes: string;
  odometer_reading: number | null;
  actual_return_date: string;
}

export async function returnCar(carId: string, input: ReturnCarInput): Promise<Car> {
  const result = await apiClient.patch<Car>(`/car/returnCar/${encodeURIComponent(carId)}`, input);
  return result.data;
}

export function useReturnCar(username: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ carId, input }: { carId: string; input: ReturnCarInput }) => returnCar(carId, input),
    onSuccess: (car) => {
      replaceCachedCar(queryClient, username, car);
      // A completed booking changes the counters and earnings.
      void queryClient.invalidateQueries({ queryKey: queryKeys.bookings.all });
      void queryClient.invalidateQueries({ queryKey: queryKeys.earnings.all });
      void queryClient.invalidateQueries({ queryKey: hostCarsKey(username) });
    },
  });
}
