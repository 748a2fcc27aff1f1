// GET and POST /api/admin/breaches (POPIA s. 22; decision 050): the recorded security compromises,
// and recording one (the affected people are told by the server, in batches).
import type { Breach, NewBreachBody } from '@karoo/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

const breachesKey = queryKeys.admin.breaches();

export function useBreaches() {
  return useQuery({ queryKey: breachesKey, queryFn: async () => (await apiClient.get<Breach[]>('/admin/breaches')).data, refetchInterval: 15_000 });
}

export function useRecordBreach() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: NewBreachBody) => (await apiClient.post<Breach>('/admin/breaches', body)).data,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: breachesKey });
      void queryClient.invalidateQueries({ queryKey: queryKeys.admin.auditAll() });
    },
  });
}
