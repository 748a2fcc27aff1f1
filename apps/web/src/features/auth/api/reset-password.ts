// POST /api/user/reset-password: token and newPassword. Success revokes every session and link.
import type { ResetPasswordBody } from '@karoo/shared';
import { useMutation } from '@tanstack/react-query';
import { apiClient, type ApiResult } from '@/lib/api-client';

export function resetPassword(body: ResetPasswordBody): Promise<ApiResult<null>> {
  return apiClient.post<null>('/user/reset-password', body);
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}
