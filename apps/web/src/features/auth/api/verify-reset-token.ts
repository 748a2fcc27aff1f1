// GET /api/user/verify-reset-token/{token}: is this reset link still usable?
import { useQuery } from '@tanstack/react-query';
import { apiClient, type ApiResult } from '@/lib/api-client';

export function verifyResetToken(token: string, signal?: AbortSignal): Promise<ApiResult<null>> {
  return apiClient.get<null>(`/user/verify-reset-token/${encodeURIComponent(token)}`, { signal });
}

export function useVerifyResetToken(token: string | null) {
  return useQuery({
    queryKey: ['reset-token', token],
    queryFn: ({ signal }) => verifyResetToken(token!, signal),
    enabled: !!token,
    // One answer decides the page: no retries, no background refetch of a single-use link.
    retry: false,
    staleTime: Infinity,
    gcTime: 0,
    refetchOnWindowFocus: false,
  });
}
