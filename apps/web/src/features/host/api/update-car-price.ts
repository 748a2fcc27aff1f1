// POST /api/rent/updateCarRentPrice/{id} with { car_rent_price }: the daily rate editor.
import type { Car } from '@karoo/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { replaceCachedCar } from './get-host-cars';

export async function updateCarPrice(carId: string, price: number): Promise<Car> {
  const result = await apiClient.post<Car>(`/rent/updateCarRentPrice/${encodeURIComponent(carId)}`, { car_rent_price: price });
  return result.data;
}

export function useUpdateCarPrice(username: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ carId, price }: { carId: string; price: number }) => updateCarPrice(carId, price),
    onSuccess: (car) => replaceCachedCar(queryClient, username, car),
  });
}
