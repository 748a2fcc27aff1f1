// GET /api/notifications: the signed-in user's notifications, newest first: fetched again on each
// live event (decision 083), polled every minute while the live stream is not open.
import type { Notification } from '@karoo/shared';
import { useQuery } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { useFallbackPolling } from '@/lib/live/live-status';
import { queryKeys } from '@/lib/query-keys';

export const NOTIFICATIONS_REFRESH_MS = 60_000;
export const notificationsKey = queryKeys.notifications.of;

export async function getNotifications(signal?: AbortSignal): Promise<Notification[]> {
  const result = await apiClient.get<Notification[]>('/notifications', { signal });
  return result.data ?? [];
}

export function useNotifications(username: string | undefined) {
  const refetchInterval = useFallbackPolling(NOTIFICATIONS_REFRESH_MS);
  return useQuery({
    queryKey: notificationsKey(username),
    queryFn: ({ signal }) => getNotifications(signal),
    enabled: !!username,
    staleTime: 30_000,
    refetchInterval,
  });
}
