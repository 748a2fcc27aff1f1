// Mail delivery for the Dashboard's Failed mail section: GET /api/admin/mail?status=failed (polled
// every 30 seconds while the Dashboard is on screen) and POST /api/admin/mail/{id}/retry, which
// puts a failed message back in the queue; the server's mail job sends it within seconds.
import { ADMIN_REFRESH_MS, type AdminMail } from '@karoo/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** The failed mail the section lists, newest first. */
export const FAILED_MAIL_LIMIT = 20;

export async function getFailedMail(signal?: AbortSignal): Promise<AdminMail[]> {
  return (await apiClient.get<AdminMail[]>('/admin/mail', { query: { status: 'failed', limit: FAILED_MAIL_LIMIT }, signal })).data;
}

export function useFailedMail() {
  return useQuery({
    queryKey: queryKeys.admin.mail('failed'),
    queryFn: ({ signal }) => getFailedMail(signal),
    refetchInterval: ADMIN_REFRESH_MS,
  });
}

export function useRetryMail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => (await apiClient.post<AdminMail>(`/admin/mail/${encodeURIComponent(id)}/retry`)).data,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.admin.mailAll() }),
  });
}
