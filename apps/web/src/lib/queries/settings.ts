// GET /api/settings (public): the one platform settings query. The booking panel reads the fees and
// maxRentalDays, the wizard minCarValue; both get the same shape, every key filled in (the
// server's answer over the defaults, shape A and shape B agreeing), under one key.
import { isInstantBookingAllowed, normaliseSettings, type PlatformSettings } from '@karoo/shared';
import { useQuery } from '@tanstack/react-query';
import { apiClient } from '../api-client';
import { queryKeys } from '../query-keys';

export async function getSettings(signal?: AbortSignal): Promise<PlatformSettings> {
  const result = await apiClient.get<Partial<PlatformSettings> | null>('/settings', { signal });
  return normaliseSettings(result.data);
}

export const SETTINGS_STALE_MS = 5 * 60_000;

/** `enabled: false` asks nothing (the browse page needs the fees only for searched dates). */
export function useSettings({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ queryKey: queryKeys.settings, queryFn: ({ signal }) => getSettings(signal), staleTime: SETTINGS_STALE_MS, enabled });
}

/**
 * Whether the admin's switch lets hosts' instant booking apply (decision 078; with the car's own
 * choice, its Instant badge): false until the settings are known, so Instant is never shown on a
 * guess. `enabled: false` asks nothing (the browse map needs it only once a car is chosen).
 */
export function useInstantBookingAllowed({ enabled = true }: { enabled?: boolean } = {}): boolean {
  const settings = useSettings({ enabled });
  return settings.data ? isInstantBookingAllowed(settings.data) : false;
}
