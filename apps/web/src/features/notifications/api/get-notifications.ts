// GET /api/notifications: the signed-in user's notifications, newest first, polled every minute.
import type { Notification } from '@karoo/shared';
import { useQuery } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';

export const NOTIFICATIONS_REFRESH_MS = 60_000;
export const notificationsKey = (username: string | undefined) => ['notifications', username] as const;

export async function getNotifications(signal?: AbortSignal): Promise<Notification[]> {
  const result = await apiClient.get<Notification[]>('/notifications', { signal });
  return result.data ?? [];
}

export function useNotifications(username: string | undefined) {
  return useQuery({
    queryKey: notificationsKey(username),
    queryFn: ({ signal }) => getNotifications(signal),
    enabled: !!username,
    staleTime: 30_000,
    refetchInterval: NOTIFICATIONS_REFRESH_MS,
  });
}
