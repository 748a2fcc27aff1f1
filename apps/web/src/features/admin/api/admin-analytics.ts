// The Analytics tab's call: GET /api/admin/analytics for one period (polled every 30 seconds while
// the tab is on screen). Without dates the server answers the last 12 weeks ending today.
import { ADMIN_REFRESH_MS, type AdminAnalytics } from '@karoo/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export interface AnalyticsPeriod {
  from?: string;
  to?: string;
}

const queryOf = (period: AnalyticsPeriod) => ({ ...(period.from ? { from: period.from } : {}), ...(period.to ? { to: period.to } : {}) });

export async function getAdminAnalytics(period: AnalyticsPeriod, signal?: AbortSignal): Promise<AdminAnalytics> {
  return (await apiClient.get<AdminAnalytics>('/admin/analytics', { query: queryOf(period), signal })).data;
}

export function useAdminAnalytics(period: AnalyticsPeriod) {
  return useQuery({
    queryKey: queryKeys.admin.analytics(queryOf(period)),
    queryFn: ({ signal }) => getAdminAnalytics(period, signal),
    placeholderData: keepPreviousData,
    refetchInterval: ADMIN_REFRESH_MS,
  });
}
