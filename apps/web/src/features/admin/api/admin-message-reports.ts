// Reported messages an administrator handles (issue 21, decision 041): GET /api/admin/messages/reports
// lists the open ones, newest first, one page at a time; POST /api/admin/messages/reports/{id}/resolve
// marks one handled with a note (audited).
import { ADMIN_REFRESH_MS, MESSAGE_REPORTS_PAGE_SIZE, type AdminMessageReport } from '@karoo/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';

const reportsKey = ['admin', 'message-reports', 'open'] as const;

export interface MessageReportsPage {
  reports: AdminMessageReport[];
  /** Open reports in all. */
  total: number;
}

export async function getOpenMessageReports(page: number, signal?: AbortSignal): Promise<MessageReportsPage> {
  const result = await apiClient.get<AdminMessageReport[]>('/admin/messages/reports', { query: { page, limit: MESSAGE_REPORTS_PAGE_SIZE }, signal });
  return { reports: result.data, total: result.meta?.total ?? result.data.length };
}

export function useOpenMessageReports(page: number) {
  return useQuery({
    queryKey: [...reportsKey, page],
    queryFn: ({ signal }) => getOpenMessageReports(page, signal),
    placeholderData: keepPreviousData,
    refetchInterval: ADMIN_REFRESH_MS,
  });
}

export function useResolveMessageReport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, note }: { id: string; note: string }) =>
      (await apiClient.post<AdminMessageReport>(`/admin/messages/reports/${encodeURIComponent(id)}/resolve`, { note })).data,
    onSettled: () => queryClient.invalidateQueries({ queryKey: reportsKey }),
  });
}
