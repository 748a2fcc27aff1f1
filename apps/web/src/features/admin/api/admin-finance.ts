// The Finance tab's calls: GET /api/earnings/admin/finance for one period (polled every 30 seconds
// while the tab is on screen), the CSV export (fetched with the admin's token) and payouts
// (PATCH /api/earnings/earning/updatePayout/{bookingId}, one per unpaid booking of a host), and the
// reversal of a paid payout with its reason (POST /api/earnings/admin/payouts/{bookingId}/reverse).
import { ADMIN_REFRESH_MS, type AdminFinance, type Earning } from '@karoo/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { downloadFile } from '@/lib/api-files';
import { queryKeys } from '@/lib/query-keys';

export interface FinancePeriod {
  from?: string;
  to?: string;
}

const queryOf = (period: FinancePeriod) => ({ ...(period.from ? { from: period.from } : {}), ...(period.to ? { to: period.to } : {}) });

export async function getAdminFinance(period: FinancePeriod, signal?: AbortSignal): Promise<AdminFinance> {
  return (await apiClient.get<AdminFinance>('/earnings/admin/finance', { query: queryOf(period), signal })).data;
}

export function useAdminFinance(period: FinancePeriod) {
  return useQuery({
    queryKey: queryKeys.admin.finance(queryOf(period)),
    queryFn: ({ signal }) => getAdminFinance(period, signal),
    placeholderData: keepPreviousData,
    refetchInterval: ADMIN_REFRESH_MS,
  });
}

/** Saves the period's transactions as CSV (the server names the file). */
export function downloadTransactionsCsv(period: FinancePeriod) {
  const params = new URLSearchParams(queryOf(period)).toString();
  return downloadFile(`/earnings/admin/transactions.csv${params ? `?${params}` : ''}`, { mode: 'save' });
}

/** Records one host's payout: every unpaid booking of theirs marked paid with the reference. */
export function useMarkHostPaid() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ bookingIds, reference }: { bookingIds: string[]; reference: string }) => {
      for (const id of bookingIds) {
        await apiClient.patch<Earning>(`/earnings/earning/updatePayout/${encodeURIComponent(id)}`, { payout_status: 'paid', payout_reference: reference });
      }
    },
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.admin.financeAll() }),
        queryClient.invalidateQueries({ queryKey: queryKeys.earnings.all }),
      ]),
  });
}

/** Takes back one booking's paid payout, with the reason (paid is final: this is the only way back). */
export function useReversePayout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ bookingId, reason }: { bookingId: string; reason: string }) =>
      (await apiClient.post<Earning>(`/earnings/admin/payouts/${encodeURIComponent(bookingId)}/reverse`, { reason })).data,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.admin.financeAll() }),
        queryClient.invalidateQueries({ queryKey: queryKeys.earnings.all }),
      ]),
  });
}
