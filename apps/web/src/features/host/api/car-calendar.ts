// The host's calendar of one car (decision 047): GET /api/car/{id}/calendar (trips and blocks of a
// period, the buffer), POST /api/car/{id}/blocks, DELETE /api/car/{id}/blocks/{blockId} and PATCH
// /api/car/{id}/buffer. A change refreshes the calendar and what renters see (the availability).
import type { CalendarHold, CarCalendar, CreateBlockBody } from '@karoo/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';

export const calendarKey = (carId: string) => ['cars', 'calendar', carId] as const;
/** The booking panel's key of what renters see (features/booking/api/get-car-availability.ts). */
const availabilityKey = (carId: string) => ['cars', 'availability', carId] as const;

export async function getCarCalendar(carId: string, from: string, to: string, signal?: AbortSignal): Promise<CarCalendar> {
  const result = await apiClient.get<CarCalendar>(`/car/${encodeURIComponent(carId)}/calendar?from=${from}&to=${to}`, { signal });
  return result.data;
}

export function useCarCalendar(carId: string, from: string, to: string) {
  return useQuery({
    queryKey: [...calendarKey(carId), from, to],
    queryFn: ({ signal }) => getCarCalendar(carId, from, to, signal),
    // Renters book while the host looks: refresh every half minute.
    refetchInterval: 30_000,
  });
}

function useRefresh(carId: string) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: calendarKey(carId) }),
      queryClient.invalidateQueries({ queryKey: availabilityKey(carId) }),
    ]);
}

export function useCreateBlock(carId: string) {
  const refresh = useRefresh(carId);
  return useMutation({
    mutationFn: async (body: CreateBlockBody) => (await apiClient.post<CalendarHold>(`/car/${encodeURIComponent(carId)}/blocks`, body)).data,
    onSettled: refresh,
  });
}

export function useDeleteBlock(carId: string) {
  const refresh = useRefresh(carId);
  return useMutation({
    mutationFn: async (blockId: string) => {
      await apiClient.delete<null>(`/car/${encodeURIComponent(carId)}/blocks/${encodeURIComponent(blockId)}`);
    },
    onSettled: refresh,
  });
}

export function useUpdateBuffer(carId: string) {
  const refresh = useRefresh(carId);
  return useMutation({
    mutationFn: async (minutes: number) =>
      (await apiClient.patch<{ buffer_minutes: number }>(`/car/${encodeURIComponent(carId)}/buffer`, { buffer_minutes: minutes })).data,
    onSettled: refresh,
  });
}
