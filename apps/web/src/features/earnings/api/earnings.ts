// Earnings reads: each earning of the host with its payout, and the invoice of a completed
// booking. The summary and the host's fleet are shared with the dashboard: lib/queries.
import type { Earning, Invoice } from '@karoo/shared';
import { useMutation, useQuery } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export function useOwnerEarnings(username: string | undefined) {
  return useQuery({
    queryKey: queryKeys.earnings.profit(username ?? ''),
    queryFn: async ({ signal }) => (await apiClient.get<Earning[]>(`/earnings/earning/getCarOwnerProfit/${encodeURIComponent(username!)}`, { signal })).data,
    enabled: !!username,
  });
}

export function useCreateInvoice() {
  return useMutation({
    mutationFn: async (bookingId: string) => (await apiClient.post<Invoice>(`/earnings/earning/createInvoicePerCar/${encodeURIComponent(bookingId)}`)).data,
  });
}
