// Disputes an administrator settles (issue 21, decision 042): GET /api/admin/disputes lists the open
// ones, oldest first, with their evidence; PATCH /api/admin/disputes/{id}/resolve closes one with a
// note (audited).
import type { Dispute } from '@karoo/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';

const disputesKey = ['admin', 'disputes', 'open'] as const;

export function useOpenDisputes() {
  return useQuery({
    queryKey: disputesKey,
    queryFn: async ({ signal }) => (await apiClient.get<Dispute[]>('/admin/disputes', { signal })).data,
  });
}

export function useResolveDispute() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, note }: { id: string; note: string }) => (await apiClient.patch<Dispute>(`/admin/disputes/${encodeURIComponent(id)}/resolve`, { note })).data,
    onSettled: () => Promise.all([queryClient.invalidateQueries({ queryKey: disputesKey }), queryClient.invalidateQueries({ queryKey: ['trips'] })]),
  });
}
