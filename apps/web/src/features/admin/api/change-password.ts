// POST /api/user/change-password: the signed-in admin's own password. The server ends every other
// session and reset link; this one stays signed in.
import type { ChangePasswordBody } from '@karoo/shared';
import { useMutation } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';

export function useChangePassword() {
  return useMutation({
    mutationFn: async (body: ChangePasswordBody) => (await apiClient.post<null>('/user/change-password', body)).message,
  });
}
