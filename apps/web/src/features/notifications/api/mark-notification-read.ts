// PATCH /api/notifications/{id}/read. The list is updated at once and corrected if the call fails.
import type { Notification } from '@karoo/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { notificationsKey } from './get-notifications';

export async function markNotificationRead(id: string): Promise<Notification> {
  const result = await apiClient.patch<Notification>(`/notifications/${encodeURIComponent(id)}/read`);
  return result.data;
}

export function useMarkNotificationRead(username: string | undefined) {
  const queryClient = useQueryClient();
  const key = notificationsKey(username);
  return useMutation({
    mutationFn: markNotificationRead,
    onMutate: async (id: string) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<Notification[]>(key);
      queryClient.setQueryData<Notification[]>(key, (list) => list?.map((n) => (n.id === id ? { ...n, read: true } : n)));
      return { previous };
    },
    onError: (_error, _id, context) => {
      if (context?.previous) queryClient.setQueryData(key, context.previous);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}
