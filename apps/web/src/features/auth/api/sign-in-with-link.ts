// POST /api/user/sign-in-with-link: a mailed link's token -> { user, token }, as a sign-in gives.
import type { LoginResponse, SignInWithLinkBody } from '@karoo/shared';
import { useMutation } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';

export async function signInWithLink(body: SignInWithLinkBody): Promise<LoginResponse> {
  const result = await apiClient.post<LoginResponse>('/user/sign-in-with-link', body);
  return result.data;
}

export function useSignInWithLink() {
  return useMutation({ mutationFn: signInWithLink });
}
