// The changes a user may make to their bookings (as renter and as car owner), and the reviews they
// wrote. The lists themselves are lib/queries/bookings (My Bookings and the dashboard share them).
// Every mutation refreshes the lists, the stats and the earnings so all screens agree.
import type { Booking, Review } from '@karoo/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** Reviews the user wrote, to know which completed bookings are already reviewed. */
export function useMyReviews(username: string | undefined) {
  return useQuery({
    queryKey: queryKeys.reviews.byUser(username ?? ''),
    queryFn: async ({ signal }) => (await apiClient.get<Review[]>('/review/getAll', { query: { user_username: username }, signal })).data,
    enabled: !!username,
    staleTime: 30_000,
  });
}

function useRefreshAfter() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.bookings.all }),
      queryClient.invalidateQueries({ queryKey: queryKeys.reviews.all }),
      queryClient.invalidateQueries({ queryKey: queryKeys.earnings.all }),
      queryClient.invalidateQueries({ queryKey: queryKeys.notifications.all }),
      queryClient.invalidateQueries({ queryKey: queryKeys.cars.all }),
    ]);
}

export function useApproveBooking() {
  const refresh = useRefreshAfter();
  return useMutation({
    mutationFn: ({ id, hostResponse }: { id: string; hostResponse?: string }) =>
      apiClient.patch<Booking>(`/booking/approve/${id}`, hostResponse ? { host_response: hostResponse } : {}),
    onSuccess: refresh,
  });
}

export function useRejectBooking() {
  const refresh = useRefreshAfter();
  return useMutation({
    mutationFn: ({ id, hostResponse }: { id: string; hostResponse?: string }) =>
      apiClient.patch<Booking>(`/booking/reject/${id}`, hostResponse ? { host_response: hostResponse } : {}),
    onSuccess: refresh,
  });
}

export function useCancelBooking() {
  const refresh = useRefreshAfter();
  return useMutation({
    mutationFn: (id: string) => apiClient.patch<Booking>(`/booking/${id}/cancel`, { status: 'cancelled' }),
    onSuccess: refresh,
  });
}

/**
 * Cancels a paid trip by the published policy (PATCH /booking/{id}/cancel): the renter or the host
 * before the start, the host reporting a no-show after it. The server prices it again as it cancels,
 * and refuses (409) when the refund is no longer the one the dialog showed.
 */
export function useCancelTrip() {
  const refresh = useRefreshAfter();
  return useMutation({
    mutationFn: ({ id, noShow, expectedRefundCents }: { id: string; noShow?: boolean; expectedRefundCents?: number }) =>
      apiClient.patch<Booking>(`/booking/${encodeURIComponent(id)}/cancel`, {
        ...(noShow ? { no_show: true } : {}),
        ...(expectedRefundCents !== undefined ? { expected_refund: expectedRefundCents / 100 } : {}),
      }),
    onSuccess: refresh,
  });
}

export interface ReturnCarInput {
  carId: string;
  odometer?: number;
  notes?: string;
}

export function useReturnCar() {
  const refresh = useRefreshAfter();
  return useMutation({
    mutationFn: ({ carId, odometer, notes }: ReturnCarInput) =>
      apiClient.patch(`/car/returnCar/${carId}`, {
        ...(odometer !== undefined ? { odometer_reading: odometer } : {}),
        ...(notes ? { condition_notes: notes } : {}),
      }),
    onSuccess: refresh,
  });
}

export interface CreateReviewInput {
  booking: Booking;
  rating: number;
  comment: string;
}

export function useCreateReview() {
  const refresh = useRefreshAfter();
  return useMutation({
    mutationFn: ({ booking, rating, comment }: CreateReviewInput) =>
      apiClient.post<Review>('/review/create', { car_username: booking.car_username, booking_id: booking.id, rating, comment: comment.trim() }),
    onSuccess: refresh,
  });
}

