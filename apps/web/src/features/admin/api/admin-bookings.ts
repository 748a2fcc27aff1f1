// The Bookings tab's calls (document 3, Bookings): GET /api/booking/getList, one page of one search
// and status filter (the platform's bookings for an admin), and GET /api/booking/getStats for the
// counters, both polled every 30 seconds while the tab is on screen; approve, reject and cancel, and
// cancelling a paid trip with a refund choice (PATCH /api/booking/{id}/cancel, issue 20).
import { ADMIN_REFRESH_MS, type AdminRefund, type Booking, type BookingListQuery, type BookingStats } from '@karoo/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export type AdminBookingFilters = Partial<Pick<BookingListQuery, 'search' | 'status'>> & { page: number; limit: number };

export interface AdminBookingsPage {
  bookings: Booking[];
  /** Bookings matching the filters. */
  total: number;
}

export async function getAdminBookings(filters: AdminBookingFilters, signal?: AbortSignal): Promise<AdminBookingsPage> {
  const result = await apiClient.get<Booking[]>('/booking/getList', { query: filters, signal });
  return { bookings: result.data, total: result.meta?.total ?? result.data.length };
}

export function useAdminBookings(filters: AdminBookingFilters) {
  return useQuery({
    queryKey: queryKeys.admin.bookings(filters),
    queryFn: ({ signal }) => getAdminBookings(filters, signal),
    placeholderData: keepPreviousData,
    refetchInterval: ADMIN_REFRESH_MS,
  });
}

/** The counter cards: aggregates over the whole platform (an admin's getStats). */
export function useAdminBookingStats() {
  return useQuery({
    queryKey: queryKeys.admin.bookingStats(),
    queryFn: async ({ signal }) => (await apiClient.get<BookingStats>('/booking/getStats', { signal })).data,
    refetchInterval: ADMIN_REFRESH_MS,
  });
}

/** After any change: the tab's pages and counters, the Dashboard, and every booking list of the app. */
function useInvalidateBookings() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.admin.bookingsAll() }),
      queryClient.invalidateQueries({ queryKey: queryKeys.admin.overview() }),
      queryClient.invalidateQueries({ queryKey: queryKeys.bookings.all }),
      // A cancelled paid trip moves money: the Finance figures and the refunds being watched.
      queryClient.invalidateQueries({ queryKey: queryKeys.admin.financeAll() }),
      queryClient.invalidateQueries({ queryKey: queryKeys.admin.refundsAll() }),
    ]);
}

export type AdminBookingAction = 'approve' | 'reject' | 'cancel';

/** Approve (optional message) and reject (reason) answer as the host would; cancel goes through the status route so the reason is kept. */
export function useAdminBookingAction() {
  const invalidate = useInvalidateBookings();
  return useMutation({
    mutationFn: ({ action, booking, message }: { action: AdminBookingAction; booking: Booking; message?: string }) => {
      const id = encodeURIComponent(booking.id);
      const body = message ? { host_response: message } : {};
      if (action === 'approve') return apiClient.patch<Booking>(`/booking/approve/${id}`, body);
      if (action === 'reject') return apiClient.patch<Booking>(`/booking/reject/${id}`, body);
      return apiClient.patch<Booking>(`/booking/${id}/status`, { status: 'cancelled', ...body });
    },
    onSuccess: invalidate,
  });
}

/** The cancel route's body for an administrator's refund choice (rand on the wire; a reason with an amount). */
export function adminCancelBody(choice: AdminRefund): { refund: AdminRefund['kind']; refund_amount?: number; reason?: string } {
  if (choice.kind !== 'amount') return { refund: choice.kind };
  return { refund: 'amount', refund_amount: choice.amountCents / 100, reason: choice.reason };
}

/** Cancels a paid trip with the refund the administrator chose (full, by the policy, or an amount with a reason); audited by the server. */
export function useAdminCancelTrip() {
  const invalidate = useInvalidateBookings();
  return useMutation({
    mutationFn: ({ booking, choice, reason, expectedRefundCents }: { booking: Booking; choice: AdminRefund; reason?: string; expectedRefundCents?: number }) =>
      apiClient.patch<Booking>(`/booking/${encodeURIComponent(booking.id)}/cancel`, {
        ...adminCancelBody(choice),
        ...(reason && choice.kind !== 'amount' ? { reason } : {}),
        // The server refuses (409) when its amounts are no longer the ones shown.
        ...(expectedRefundCents !== undefined ? { expected_refund: expectedRefundCents / 100 } : {}),
      }),
    onSuccess: invalidate,
  });
}
