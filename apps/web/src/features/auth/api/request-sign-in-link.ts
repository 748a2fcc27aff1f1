// POST /api/user/request-sign-in-link: email a one-time sign-in link to the account of a username or
// email. The answer is the same whether or not an account matches.
import type { SignInLinkRequestBody } from '@karoo/shared';
import { useMutation } from '@tanstack/react-query';
import { apiClient, type ApiResult } from '@/lib/api-client';

export function requestSignInLink(body: SignInLinkRequestBody): Promise<ApiResult<null>> {
  return apiClient.post<null>('/user/request-sign-in-link', body);
}

export function useRequestSignInLink() {
  return useMutation({ mutationFn: requestSignInLink });
}
