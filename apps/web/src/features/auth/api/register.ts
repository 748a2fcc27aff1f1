// POST /api/user/register. The role is fixed to 'user' as document 1 specifies; the server ignores
// it and every new account starts as a customer pending verification.
import type { RegisterBody, User } from '@karoo/shared';
import { useMutation } from '@tanstack/react-query';
import { apiClient, type ApiResult } from '@/lib/api-client';

export type RegisterInput = Omit<RegisterBody, 'role'>;

export function registerAccount(input: RegisterInput): Promise<ApiResult<User>> {
  return apiClient.post<User>('/user/register', { ...input, role: 'user' });
}

export function useRegister() {
  return useMutation({ mutationFn: registerAccount });
}
