// POST /api/booking/create: a booking request from the detail page. The server checks every rule
// again and computes the price; the answer is the stored booking with its breakdown.
import type { Booking, CreateBookingBody } from '@karoo/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient, type ApiResult } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { availabilityKey } from './get-car-availability';

export function createBooking(body: CreateBookingBody): Promise<ApiResult<Booking>> {
  return apiClient.post<Booking>('/booking/create', body);
}

export function useCreateBooking(carId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createBooking,
    onSuccess: async () => {
      // The new booking holds its dates: show them as unavailable, and refresh the lists.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: availabilityKey(carId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.cars.lists() }),
      ]);
    },
  });
}
