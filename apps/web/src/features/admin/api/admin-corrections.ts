// Correction requests an administrator answers (issue 24, decision 049): GET /api/admin/privacy/corrections
// lists the open ones, oldest first; POST /api/admin/privacy/corrections/{id}/decision approves (the
// person's detail changes) or declines, with a note the person reads. Both audited.
import { ADMIN_REFRESH_MS, type AdminCorrectionRequest, type CorrectionDecisionBody, type CorrectionRequest } from '@karoo/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

const correctionsKey = queryKeys.admin.corrections();

export function useOpenCorrections() {
  return useQuery({
    queryKey: correctionsKey,
    queryFn: async ({ signal }) => (await apiClient.get<AdminCorrectionRequest[]>('/admin/privacy/corrections', { signal })).data,
    refetchInterval: ADMIN_REFRESH_MS,
  });
}

export function useDecideCorrection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, ...body }: CorrectionDecisionBody & { id: string }) =>
      (await apiClient.post<CorrectionRequest>(`/admin/privacy/corrections/${encodeURIComponent(id)}/decision`, body)).data,
    onSettled: () => Promise.all([queryClient.invalidateQueries({ queryKey: correctionsKey }), queryClient.invalidateQueries({ queryKey: queryKeys.admin.usersAll() })]),
  });
}

/** Karoo news (the one marketing mail, decision 049): queued only for people who opted in to marketing. */
export function useSendNews() {
  return useMutation({
    mutationFn: async (news: { subject: string; message: string }) => (await apiClient.post<{ queued: number }>('/admin/privacy/news', news)).data,
  });
}
