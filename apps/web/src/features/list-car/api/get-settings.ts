// GET /api/settings (public): the wizard reads minCarValue to warn before the server refuses.
import { DEFAULT_SETTINGS, type PlatformSettings } from '@karoo/shared';
import { useQuery } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';

export async function getSettings(signal?: AbortSignal): Promise<PlatformSettings> {
  const result = await apiClient.get<PlatformSettings>('/settings', { signal });
  return { ...DEFAULT_SETTINGS, ...result.data };
}

export function useSettings() {
  return useQuery({ queryKey: ['settings'], queryFn: ({ signal }) => getSettings(signal), staleTime: 5 * 60_000 });
}
