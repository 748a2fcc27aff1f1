// GET and POST /api/privacy/account-deletion (issue 24, decision 050): what deleting the account
// would erase and keep (or why it cannot be deleted now), and deleting it with the password.
import type { DeletionPlan } from '@karoo/shared';
import { useMutation, useQuery } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';

export const deletionPlanKey = ['privacy', 'account-deletion'] as const;

export function useDeletionPlan() {
  return useQuery({ queryKey: deletionPlanKey, queryFn: async () => (await apiClient.get<DeletionPlan>('/privacy/account-deletion')).data });
}

export function useDeleteAccount() {
  return useMutation({
    mutationFn: async (password: string) => (await apiClient.post<{ deleted_at: string; records_kept_until: string }>('/privacy/account-deletion', { password })).data,
  });
}
