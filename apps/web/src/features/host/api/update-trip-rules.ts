// PATCH /api/car/updateTripRules/{id} with the whole set of trip rules and discounts (decision 048).
import type { Car, TripRulesInput } from '@karoo/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { replaceCachedCar } from './get-host-cars';

export async function updateTripRules(carId: string, rules: TripRulesInput): Promise<Car> {
  const result = await apiClient.patch<Car>(`/car/updateTripRules/${encodeURIComponent(carId)}`, rules);
  return result.data;
}

export function useUpdateTripRules(username: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ carId, rules }: { carId: string; rules: TripRulesInput }) => updateTripRules(carId, rules),
    onSuccess: (car) => replaceCachedCar(queryClient, username, car),
  });
}
