// The CPA s. 17 waiver on a cancelled trip (issue 34; decision 067): the renter's requests and a new
// one with its evidence. Only My Bookings reads them, so their query keys live here.
import type { FeeWaiver, WaiverGround } from '@karoo/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { uploadForm } from '@/lib/api-files';

export const waiverKeys = { all: ['fee-waivers'] as const, booking: (id: string) => ['fee-waivers', 'booking', id] as const };

export function useBookingWaivers(bookingId: string, enabled = true) {
  return useQuery({
    queryKey: waiverKeys.booking(bookingId),
    queryFn: async ({ signal }) => (await apiClient.get<FeeWaiver[]>(`/booking/${bookingId}/fee-waivers`, { signal })).data,
    enabled,
    staleTime: 15_000,
  });
}

export function useRequestWaiver() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ bookingId, ground, person, statement, evidence }: { bookingId: string; ground: WaiverGround; person: 'renter' | 'family'; statement: string; evidence: File }) => {
      const form = new FormData();
      form.append('waiver', JSON.stringify({ ground, person, statement }));
      form.append('evidence', evidence);
      return (await uploadForm<FeeWaiver>(`/booking/${bookingId}/fee-waiver`, form)).data;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: waiverKeys.all }),
  });
}
