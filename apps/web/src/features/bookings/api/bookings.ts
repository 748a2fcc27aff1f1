// Bookings of the signed-in user (as renter and as car owner) and the changes they may make.
// Every mutation refreshes the lists, the stats and the earnings so all screens agree.
import type { Booking, BookingStats, Review } from '@karoo/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';

export const bookingsKeys = {
  all: ['bookings'] as const,
  list: () => ['bookings', 'list'] as const,
  stats: () => ['bookings', 'stats'] as const,
  myReviews: (username: string) => ['reviews', 'by-user', username] as const,
};

export async function getBookings(signal?: AbortSignal): Promise<Booking[]> {
  return (await apiClient.get<Booking[]>('/booking/getAll', { signal })).data;
}

export function useBookings(enabled = true) {
  return useQuery({ queryKey: bookingsKeys.list(), queryFn: ({ signal }) => getBookings(signal), enabled, staleTime: 30_000 });
}

export function useBookingStats(enabled = true) {
  return useQuery({
    queryKey: bookingsKeys.stats(),
    queryFn: async ({ signal }) => (await apiClient.get<BookingStats>('/booking/getStats', { signal })).data,
    enabled,
    staleTime: 30_000,
  });
}

/** Reviews the user wrote, to know which completed bookings are already reviewed. */
export function useMyReviews(username: string | undefined) {
  return useQuery({
    queryKey: bookingsKeys.myReviews(username ?? ''),
    queryFn: async ({ signal }) => (await apiClient.get<Review[]>('/review/getAll', { query: { user_username: username }, signal })).data,
    enabled: !!username,
    staleTime: 30_000,
  });
}

function useRefreshAfter() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: bookingsKeys.all }),
      queryClient.invalidateQueries({ queryKey: ['reviews'] }),
      queryClient.invalidateQueries({ queryKey: ['earnings'] }),
      queryClient.invalidateQueries({ queryKey: ['notifications'] }),
      queryClient.invalidateQueries({ queryKey: ['cars'] }),
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

