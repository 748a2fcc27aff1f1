// The host's payouts (decision 069): the checked bank account, the schedule, the next payout and
// every transfer, from GET /api/payouts; saving answers the same view.
import type { Bank, HostPayouts, PayoutSchedule, ResolvedBankAccount } from '@karoo/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { downloadFile } from '@/lib/api-files';
import { queryKeys } from '@/lib/query-keys';

export function useHostPayouts() {
  return useQuery({ queryKey: queryKeys.payouts.host(), queryFn: async ({ signal }) => (await apiClient.get<HostPayouts>('/payouts', { signal })).data });
}

export function useBanks() {
  return useQuery({ queryKey: queryKeys.payouts.banks(), queryFn: async ({ signal }) => (await apiClient.get<Bank[]>('/payouts/banks', { signal })).data, staleTime: 3_600_000 });
}

export function useResolveAccount() {
  return useMutation({
    mutationFn: async (body: { bank_code: string; account_number: string }) => (await apiClient.post<ResolvedBankAccount>('/payouts/bank-account/resolve', body)).data,
  });
}

export function useSaveAccount() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: { bank_code: string; account_number: string; confirmed_account_name: string }) => (await apiClient.put<HostPayouts>('/payouts/bank-account', body)).data,
    onSuccess: (data) => client.setQueryData(queryKeys.payouts.host(), data),
  });
}

export function useSaveSchedule() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: Partial<PayoutSchedule> & { schedule: PayoutSchedule['schedule'] }) => (await apiClient.put<HostPayouts>('/payouts/schedule', body)).data,
    onSuccess: (data) => client.setQueryData(queryKeys.payouts.host(), data),
  });
}

export const downloadStatement = (month: string) => downloadFile(`/payouts/statements/${month}`, { mode: 'save' });
