// PATCH /api/car/updateInsuranceOptions/{id} with { insurance_options }: replaces the whole list.
import type { Car, InsuranceOptionInput } from '@karoo/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { replaceCachedCar } from './get-host-cars';

export async function updateInsuranceOptions(carId: string, insuranceOptions: InsuranceOptionInput[]): Promise<Car> {
  const result = await apiClient.patch<Car>(`/car/updateInsuranceOptions/${encodeURIComponent(carId)}`, { insurance_options: insuranceOptions });
  return result.data;
}

export function useUpdateInsuranceOptions(username: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ carId, insuranceOptions }: { carId: string; insuranceOptions: InsuranceOptionInput[] }) =>
      updateInsuranceOptions(carId, insuranceOptions),
    onSuccess: (car) => replaceCachedCar(queryClient, username, car),
  });
}
