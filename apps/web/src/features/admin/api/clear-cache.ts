// POST /api/admin/cache/clear: the server forgets its cached browse pages and settings (this
// instance; others within seconds). This browser then reloads what it shows from the server.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';

export type ServerCache = 'browse' | 'settings';

export function useClearServerCache() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => (await apiClient.post<{ cleared: ServerCache[] }>('/admin/cache/clear')).data.cleared,
    onSuccess: () => void queryClient.invalidateQueries(),
  });
}
