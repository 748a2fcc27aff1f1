// PUT /api/settings (admin): Save All Settings sends the whole record, both shapes. The answer is
// the stored record, which becomes the one settings query's data at once (prices, banners).
import { normaliseSettings, type PlatformSettings } from '@karoo/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export async function updateSettings(settings: PlatformSettings): Promise<PlatformSettings> {
  return normaliseSettings((await apiClient.put<PlatformSettings>('/settings', settings)).data);
}

export function useUpdateSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateSettings,
    onSuccess: (saved) => {
      queryClient.setQueryData(queryKeys.settings, saved);
      void queryClient.invalidateQueries({ queryKey: queryKeys.admin.auditAll() });
    },
  });
}
