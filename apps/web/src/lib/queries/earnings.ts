// GET /api/earnings/earning/getSummary: the host's stored earnings summed by car and by month, read
// by the Earnings page and the dashboard under one key.
import type { EarningsSummary } from '@karoo/shared';
import { useQuery } from '@tanstack/react-query';
import { apiClient } from '../api-client';
import { queryKeys } from '../query-keys';

export async function getEarningsSummary(signal?: AbortSignal): Promise<EarningsSummary> {
  return (await apiClient.get<EarningsSummary>('/earnings/earning/getSummary', { signal })).data;
}

export function useEarningsSummary(enabled = true) {
  return useQuery({ queryKey: queryKeys.earnings.summary(), queryFn: ({ signal }) => getEarningsSummary(signal), enabled });
}
