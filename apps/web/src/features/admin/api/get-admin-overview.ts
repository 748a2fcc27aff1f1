// GET /api/admin/overview: the Dashboard tab's counters, newest users and debug box, and the Cars
// tab's counters. The server counts; the browser never loads every row. Polled every 30 seconds
// (document 3) while the Dashboard or the Cars tab is on screen: the hook lives in those tabs, so
// the others do not poll it.
import { ADMIN_REFRESH_MS, type AdminOverview } from '@karoo/shared';
import { useQuery } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export async function getAdminOverview(signal?: AbortSignal): Promise<AdminOverview> {
  return (await apiClient.get<AdminOverview>('/admin/overview', { signal })).data;
}

export function useAdminOverview() {
  return useQuery({
    queryKey: queryKeys.admin.overview(),
    queryFn: ({ signal }) => getAdminOverview(signal),
    refetchInterval: ADMIN_REFRESH_MS,
  });
}
