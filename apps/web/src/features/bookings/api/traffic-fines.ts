// Traffic fines on a trip (issue 34; decision 066): the fines matched to a booking, the host's new
// fine (with the notice's photo or PDF), a change of its state, and the AARTO 07 nomination PDF.
// Only My Bookings reads them, so their query keys live here.
import type { FineStatus, TrafficFine } from '@karoo/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { downloadFile, uploadForm } from '@/lib/api-files';

export const fineKeys = { all: ['fines'] as const, booking: (id: string) => ['fines', 'booking', id] as const };

export function useBookingFines(bookingId: string, enabled = true) {
  return useQuery({
    queryKey: fineKeys.booking(bookingId),
    queryFn: async ({ signal }) => (await apiClient.get<TrafficFine[]>(`/booking/${bookingId}/fines`, { signal })).data,
    enabled,
    staleTime: 15_000,
  });
}

export interface FineInput {
  plate: string;
  date: string;
  time: string;
  place: string;
  amount: number;
  notice_number: string;
  served_on: string;
  notice: File;
}

/** The created fine and the server's words about its match (matched to a trip, or no trip at that moment). */
export function useCreateFine() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ notice, ...fine }: FineInput) => {
      const form = new FormData();
      form.append('fine', JSON.stringify(fine));
      form.append('notice', notice);
      const result = await uploadForm<TrafficFine>('/fines', form);
      return { fine: result.data, message: result.message ?? '' };
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: fineKeys.all }),
  });
}

export function useUpdateFineStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, status, note }: { id: string; status: FineStatus; note?: string }) => (await apiClient.patch<TrafficFine>(`/fines/${encodeURIComponent(id)}/status`, { status, note: note ?? '' })).data,
    onSettled: () => queryClient.invalidateQueries({ queryKey: fineKeys.all }),
  });
}

export function downloadNomination(fine: TrafficFine) {
  return downloadFile(fine.nomination_url!.replace(/^\/api/, ''), { filename: `aarto-07-${fine.notice_number}.pdf` });
}

export function openNotice(fine: TrafficFine) {
  return downloadFile(fine.notice_url.replace(/^\/api/, ''), { mode: 'open' });
}
