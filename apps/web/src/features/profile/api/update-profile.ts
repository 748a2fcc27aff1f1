// PUT /api/user/update/{username}: profile fields. Verified users may only change their phone.
import type { UpdateUserBody, User } from '@karoo/shared';
import { useMutation } from '@tanstack/react-query';
import { apiClient, type ApiResult } from '@/lib/api-client';

export function updateProfile(username: string, body: UpdateUserBody): Promise<ApiResult<User>> {
  return apiClient.put<User>(`/user/update/${encodeURIComponent(username)}`, body);
}

export function useUpdateProfile(username: string) {
  return useMutation({ mutationFn: (body: UpdateUserBody) => updateProfile(username, body) });
}
