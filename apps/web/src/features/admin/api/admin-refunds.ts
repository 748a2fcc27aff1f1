// Refunds an administrator watches (issue 20): GET /api/payments/admin/refunds?state=failed, the
// refunds the payment provider kept refusing until the retries gave up (polled every 30 seconds
// while the Finance tab is on screen), and POST /api/payments/admin/refunds/{id}/retry, which asks
// the provider again at once and answers what happened.
import { ADMIN_REFRESH_MS, type AdminRefundRow } from '@karoo/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export type RefundRetryOutcome = 'refunded' | 'pending' | 'failed' | 'skipped';

export async function getFailedRefunds(signal?: AbortSignal): Promise<AdminRefundRow[]> {
  return (await apiClient.get<AdminRefundRow[]>('/payments/admin/refunds', { query: { state: 'failed' }, signal })).data;
}

export function useFailedRefunds() {
  return useQuery({
    queryKey: queryKeys.admin.refunds('failed'),
    queryFn: ({ signal }) => getFailedRefunds(signal),
    refetchInterval: ADMIN_REFRESH_MS,
  });
}

/** The provider's answer to the retry, and the server's sentence for it. */
export interface RefundRetryResult {
  outcome: RefundRetryOutcome;
  message: string;
}

export function useRetryRefund() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string): Promise<RefundRetryResult> => {
      const result = await apiClient.post<{ outcome: RefundRetryOutcome }>(`/payments/admin/refunds/${encodeURIComponent(id)}/retry`);
      return { outcome: result.data.outcome, message: result.message ?? '' };
    },
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.admin.refundsAll() }),
        queryClient.invalidateQueries({ queryKey: queryKeys.admin.financeAll() }),
        queryClient.invalidateQueries({ queryKey: queryKeys.admin.bookingsAll() }),
      ]),
  });
}
