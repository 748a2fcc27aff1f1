// Privacy and data (issue 24, decision 049): what Karoo holds (GET /api/privacy/overview), the data
// download (GET/POST /api/privacy/exports, the ZIP through the bearer token), the marketing choice
// (PUT /api/privacy/marketing) and correction requests (GET/POST /api/privacy/corrections).
import type { ConsentState, CorrectionRequest, CorrectionRequestBody, DataExport, PrivacyOverview } from '@karoo/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { downloadFile } from '@/lib/api-files';

const privacyKeys = {
  all: ['privacy'] as const,
  overview: ['privacy', 'overview'] as const,
  exports: ['privacy', 'exports'] as const,
  corrections: ['privacy', 'corrections'] as const,
};

/** While an export is being prepared, how often the page asks whether it is ready. */
export const EXPORT_POLL_MS = 3000;

export function usePrivacyOverview() {
  return useQuery({
    queryKey: privacyKeys.overview,
    queryFn: async ({ signal }) => (await apiClient.get<PrivacyOverview>('/privacy/overview', { signal })).data,
  });
}

export function useDataExports() {
  return useQuery({
    queryKey: privacyKeys.exports,
    queryFn: async ({ signal }) => (await apiClient.get<DataExport[]>('/privacy/exports', { signal })).data,
    refetchInterval: (query) => (query.state.data?.some((e) => e.status === 'preparing') ? EXPORT_POLL_MS : false),
  });
}

export function useRequestDataExport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => (await apiClient.post<DataExport>('/privacy/exports')).data,
    onSettled: () => queryClient.invalidateQueries({ queryKey: privacyKeys.all }),
  });
}

export function downloadDataExport(id: string): Promise<void> {
  return downloadFile(`/privacy/exports/${encodeURIComponent(id)}/download`, { mode: 'save' });
}

export function useSetMarketingChoice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (granted: boolean) => apiClient.put<ConsentState>('/privacy/marketing', { granted }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: privacyKeys.overview }),
  });
}

export function useCorrectionRequests() {
  return useQuery({
    queryKey: privacyKeys.corrections,
    queryFn: async ({ signal }) => (await apiClient.get<CorrectionRequest[]>('/privacy/corrections', { signal })).data,
  });
}

export function useRequestCorrection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: CorrectionRequestBody) => apiClient.post<CorrectionRequest>('/privacy/corrections', body),
    onSettled: () => queryClient.invalidateQueries({ queryKey: privacyKeys.corrections }),
  });
}
