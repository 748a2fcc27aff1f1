// The administrators' payouts (decision 069): scheduled, sent, failed and reversed transfers, the
// balance the next run needs, paused hosts; Retry, pause one host, pause all (a setting).
import type { AdminPayouts, PayoutTransfer } from '@karoo/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export function useAdminPayouts() {
  return useQuery({ queryKey: queryKeys.payouts.admin(), queryFn: async ({ signal }) => (await apiClient.get<AdminPayouts>('/admin/payouts', { signal })).data });
}

export function useRetryTransfer() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => (await apiClient.post<PayoutTransfer>(`/admin/payouts/transfers/${encodeURIComponent(id)}/retry`)).data,
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.payouts.admin() }),
  });
}

export function usePauseHost() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: { hostId: string; paused: boolean; reason?: string }) =>
      (await apiClient.put<AdminPayouts>(`/admin/payouts/hosts/${encodeURIComponent(input.hostId)}/pause`, { paused: input.paused, ...(input.reason ? { reason: input.reason } : {}) })).data,
    onSuccess: (data) => client.setQueryData(queryKeys.payouts.admin(), data),
  });
}

export function usePauseAll() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (paused: boolean) => (await apiClient.put('/settings', { payouts_paused: paused })).data,
    onSettled: () => {
      void client.invalidateQueries({ queryKey: queryKeys.payouts.admin() });
      void client.invalidateQueries({ queryKey: queryKeys.settings });
    },
  });
}
