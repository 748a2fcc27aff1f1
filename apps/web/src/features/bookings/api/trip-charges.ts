// Trip charges after a trip (issue 34; decision 065): a booking's claims and deposit, the host's new
// claim, the renter's answer. Their keys are in lib/query-keys: the payments feature's checkout of a
// claim's payment link (decision 073) refreshes them too.
import type { TripChargeKind } from '@karoo/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { uploadForm } from '@/lib/api-files';
import { queryKeys } from '@/lib/query-keys';

export interface TripClaim {
  id: string;
  status: 'awaiting_renter' | 'disputed' | 'settled' | 'withdrawn';
  claimed: number;
  host_statement: string;
  answer_due_at: string;
  renter_answer: 'accepted' | 'disputed' | 'unanswered' | null;
  renter_statement: string | null;
  decided: number | null;
  decision_reason: string | null;
  settled: number | null;
  from_deposit: number;
  from_card: number;
  owed: number;
  payment_state: 'none' | 'paid' | 'card_declined';
  payment_error: string | null;
  items: { kind: TripChargeKind; label: string; amount: number; detail: string; note: string }[];
  evidence: { id: string; party: 'host' | 'renter'; url: string }[];
}

export interface BookingClaims {
  claims: TripClaim[];
  deposit: { taken: number; held: number; released: number; applied: number };
  window: { closes_at: string | null; open: boolean; refusal: string | null };
  computed: { kind: TripChargeKind; label: string; amount: number; detail: string }[];
  missing: Partial<Record<TripChargeKind, string>>;
}

export const claimKeys = queryKeys.claims;

export function useBookingClaims(bookingId: string, enabled = true) {
  return useQuery({
    queryKey: claimKeys.booking(bookingId),
    queryFn: async ({ signal }) => (await apiClient.get<BookingClaims>(`/booking/${bookingId}/claims`, { signal })).data,
    enabled,
    staleTime: 15_000,
  });
}

export interface ClaimInput {
  bookingId: string;
  items: { kind: TripChargeKind; amount?: number; note?: string }[];
  statement: string;
  photos: File[];
}

export function useFileClaim() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ bookingId, items, statement, photos }: ClaimInput) => {
      const form = new FormData();
      form.append('claim', JSON.stringify({ items, statement }));
      for (const photo of photos) form.append('evidence', photo);
      return (await uploadForm<TripClaim>(`/booking/${bookingId}/claims`, form)).data;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: claimKeys.all }),
  });
}

export function useAnswerClaim() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ claimId, answer, statement, photos }: { claimId: string; answer: 'accept' | 'dispute'; statement: string; photos: File[] }) => {
      const form = new FormData();
      form.append('answer', JSON.stringify({ answer, statement }));
      for (const photo of photos) form.append('evidence', photo);
      return (await uploadForm<TripClaim>(`/claims/${claimId}/answer`, form)).data;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: claimKeys.all }),
  });
}
