// POST /api/user/forgot-password: the answer is the same whether or not the address has an account.
import type { ForgotPasswordBody } from '@karoo/shared';
import { useMutation } from '@tanstack/react-query';
import { apiClient, type ApiResult } from '@/lib/api-client';

export function requestPasswordReset(body: ForgotPasswordBody): Promise<ApiResult<null>> {
  return apiClient.post<null>('/user/forgot-password', body);
}

export function useForgotPassword() {
  return useMutation({ mutationFn: requestPasswordReset });
}
