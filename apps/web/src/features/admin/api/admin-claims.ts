// Disputed trip charges an administrator decides (issue 34; decision 065): GET /api/admin/claims
// lists them with both sides' statements and evidence; PATCH /api/admin/claims/{id}/decide chooses
// an amount with a reason (audited), paid at once from the deposit first.
import type { TripChargeKind } from '@karoo/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export interface AdminClaim {
  id: string;
  booking_number: string;
  claimed: number;
  host_statement: string;
  renter_statement: string | null;
  created_at: string;
  items: { kind: TripChargeKind; label: string; amount: number; detail: string; note: string }[];
  evidence: { id: string; party: 'host' | 'renter'; url: string }[];
}

const claimsKey = ['admin', 'claims', 'disputed'] as const;

export function useDisputedClaims() {
  return useQuery({ queryKey: claimsKey, queryFn: async ({ signal }) => (await apiClient.get<AdminClaim[]>('/admin/claims?status=disputed', { signal })).data });
}

export function useDecideClaim() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, amount, reason }: { id: string; amount: number; reason: string }) => (await apiClient.patch<AdminClaim>(`/admin/claims/${encodeURIComponent(id)}/decide`, { amount, reason })).data,
    onSettled: () => Promise.all([queryClient.invalidateQueries({ queryKey: claimsKey }), queryClient.invalidateQueries({ queryKey: queryKeys.claims.all })]),
  });
}
