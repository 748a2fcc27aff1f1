// POST /api/user/login: username (or email), password, remember -> { user, token }.
import type { LoginBody, LoginResponse } from '@karoo/shared';
import { useMutation } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';

export async function loginRequest(body: LoginBody): Promise<LoginResponse> {
  const result = await apiClient.post<LoginResponse>('/user/login', body);
  return result.data;
}

export function useLogin() {
  return useMutation({ mutationFn: loginRequest });
}
