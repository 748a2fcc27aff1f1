// Changing a paid trip (issue 36; decision 081): the quote of new times, the booking's requests, and
// the renter's and host's answers. Every answer refreshes the bookings (the trip's times and price),
// the earnings and the notifications, so all screens agree.
import type { TripChangeQuoteView, TripChangeView, TripTimesOf } from '@karoo/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const changeKeys = {
  all: ['trip-changes'] as const,
  booking: (id: string) => ['trip-changes', 'booking', id] as const,
  quote: (id: string, times: TripTimesOf) => ['trip-changes', 'quote', id, times] as const,
};

export function useTripChanges(bookingId: string, enabled = true) {
  return useQuery({
    queryKey: changeKeys.booking(bookingId),
    queryFn: async ({ signal }) => (await apiClient.get<TripChangeView[]>(`/booking/${bookingId}/changes`, { signal })).data,
    enabled,
    staleTime: 15_000,
  });
}

/** What the new times would cost or give back; the server checks them too (the calendar, the rules). */
export function useChangeQuote(bookingId: string, times: TripTimesOf | null) {
  return useQuery({
    queryKey: changeKeys.quote(bookingId, times ?? { start_date: '', end_date: '', start_time: '', end_time: '' }),
    queryFn: async ({ signal }) => (await apiClient.get<TripChangeQuoteView>(`/booking/${bookingId}/change-quote`, { query: { ...times! }, signal })).data,
    enabled: times !== null,
    placeholderData: keepPreviousData,
    staleTime: 0,
    retry: false,
  });
}

function useRefresh() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: changeKeys.all }),
      queryClient.invalidateQueries({ queryKey: queryKeys.bookings.all }),
      queryClient.invalidateQueries({ queryKey: queryKeys.earnings.all }),
      queryClient.invalidateQueries({ queryKey: queryKeys.notifications.all }),
    ]);
}

export function useRequestChange() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: async ({ bookingId, times, expectedNet, message }: { bookingId: string; times: TripTimesOf; expectedNet: number; message?: string }) =>
      apiClient.post<TripChangeView>(`/booking/${bookingId}/changes`, { ...times, expected_net: expectedNet, ...(message ? { message } : {}) }),
    onSuccess: refresh,
  });
}

export function useAnswerChange() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: async ({ changeId, verb, note }: { changeId: string; verb: 'accept' | 'decline' | 'withdraw'; note?: string }) =>
      apiClient.patch<TripChangeView>(`/booking/changes/${changeId}/${verb}`, verb === 'withdraw' ? undefined : note ? { note } : {}),
    onSuccess: refresh,
  });
}
