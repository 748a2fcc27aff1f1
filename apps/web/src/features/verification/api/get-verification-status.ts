// GET /api/user/{username}/verification-status: status, uploaded documents and what is missing.
import type { VerificationStatusResponse } from '@karoo/shared';
import { useQuery } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';

export const verificationStatusKey = (username: string | undefined) => ['verification-status', username] as const;

export async function getVerificationStatus(username: string, signal?: AbortSignal): Promise<VerificationStatusResponse> {
  const result = await apiClient.get<VerificationStatusResponse>(`/user/${encodeURIComponent(username)}/verification-status`, { signal });
  return result.data;
}

export interface VerificationStatusOptions {
  enabled?: boolean;
  /**
   * Changes whenever the user record changes (its updated_at), so that saving the profile anywhere
   * refreshes what is missing without this feature knowing about the profile feature.
   */
  version?: string;
}

export function useVerificationStatus(username: string | undefined, { enabled = true, version }: VerificationStatusOptions = {}) {
  return useQuery({
    queryKey: [...verificationStatusKey(username), version],
    queryFn: ({ signal }) => getVerificationStatus(username!, signal),
    enabled: enabled && !!username,
    staleTime: 60_000,
  });
}
