// Reviews both ways (decision 043): a party's view of a booking's two reviews, the host's review of
// the renter, and a renter's record (rating from hosts, completed trips) for the host's requests.
import type { BookingReviews, RenterRecord, Review } from '@karoo/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export function useBookingReviews(bookingId: string, enabled = true) {
  return useQuery({
    queryKey: queryKeys.reviews.booking(bookingId),
    queryFn: async ({ signal }) => (await apiClient.get<BookingReviews>(`/review/booking/${encodeURIComponent(bookingId)}`, { signal })).data,
    enabled,
    staleTime: 30_000,
    retry: false,
  });
}

export function useRenterRecord(username: string | undefined) {
  return useQuery({
    queryKey: queryKeys.reviews.renter(username ?? ''),
    queryFn: async ({ signal }) => (await apiClient.get<RenterRecord>(`/review/renter/${encodeURIComponent(username ?? '')}`, { signal })).data,
    enabled: !!username,
    staleTime: 60_000,
    retry: false,
  });
}

export function useCreateRenterReview() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ bookingId, rating, comment }: { bookingId: string; rating: number; comment: string }) =>
      apiClient.post<Review>('/review/renter', { booking_id: bookingId, rating, comment: comment.trim() }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.reviews.all }),
  });
}
