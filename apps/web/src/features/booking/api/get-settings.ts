// GET /api/settings (public): the platform settings; the price breakdown needs the service fee
// percent (platformCommission) and the host fee (platform_fee), the submit check maxRentalDays.
import type { PlatformSettings } from '@karoo/shared';
import { useQuery } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';

export async function getSettings(signal?: AbortSignal): Promise<PlatformSettings> {
  const result = await apiClient.get<PlatformSettings>('/settings', { signal });
  return result.data;
}

export function useSettings() {
  return useQuery({ queryKey: ['settings'], queryFn: ({ signal }) => getSettings(signal) });
}
