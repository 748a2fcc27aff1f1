// The versions of the terms and privacy notice the signed-in person accepted (decision 049):
// GET /api/privacy/policies, and POST /api/privacy/policies/accept for the versions in force.
import type { PolicyState } from '@karoo/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';

const policiesKey = (userId: string | undefined) => ['privacy', 'policies', userId] as const;

export function usePolicies(userId: string | undefined) {
  return useQuery({
    queryKey: policiesKey(userId),
    queryFn: async ({ signal }) => (await apiClient.get<PolicyState[]>('/privacy/policies', { signal })).data,
    enabled: !!userId,
    staleTime: 10 * 60 * 1000,
    refetchOnWindowFocus: false,
  });
}

export function useAcceptPolicies(userId: string | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (versions: { terms_version: string; privacy_version: string }) => (await apiClient.post<PolicyState[]>('/privacy/policies/accept', versions)).data,
    onSuccess: (policies) => queryClient.setQueryData(policiesKey(userId), policies),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['privacy'] }),
  });
}
