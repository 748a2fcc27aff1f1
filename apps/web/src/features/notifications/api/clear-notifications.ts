// DELETE /api/notifications: empties the signed-in user's list.
import type { Notification } from '@karoo/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { notificationsKey } from './get-notifications';

export async function clearNotifications(): Promise<void> {
  await apiClient.delete<null>('/notifications');
}

export function useClearNotifications(username: string | undefined) {
  const queryClient = useQueryClient();
  const key = notificationsKey(username);
  return useMutation({
    mutationFn: clearNotifications,
    onSuccess: () => queryClient.setQueryData<Notification[]>(key, []),
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}
