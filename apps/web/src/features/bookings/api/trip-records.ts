// Check-in and check-out records, the comparison at return, disputes (issue 21, decision 042).
// Only My Bookings reads them, so their query keys live here (decision 014).
import type { BookingTripRecords, Dispute, DisputeKind, TripComparison, TripRecord, TripStage } from '@karoo/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { uploadForm } from '@/lib/api-files';

export const tripKeys = {
  all: ['trips'] as const,
  records: (bookingId: string) => ['trips', 'records', bookingId] as const,
  comparison: (bookingId: string) => ['trips', 'comparison', bookingId] as const,
};

export function useTripRecords(bookingId: string, enabled = true) {
  return useQuery({
    queryKey: tripKeys.records(bookingId),
    queryFn: async ({ signal }) => (await apiClient.get<BookingTripRecords>(`/booking/${bookingId}/trip-records`, { signal })).data,
    enabled,
    staleTime: 15_000,
  });
}

export function useTripComparison(bookingId: string) {
  return useQuery({
    queryKey: tripKeys.comparison(bookingId),
    queryFn: async ({ signal }) => (await apiClient.get<TripComparison>(`/booking/${bookingId}/trip-comparison`, { signal })).data,
  });
}

/** A photo chosen for a slot ('front' ... 'right') or as an extra. */
export interface ChosenPhoto {
  slot: 'front' | 'back' | 'left' | 'right' | 'extra';
  file: File;
}

export interface TripRecordInput {
  bookingId: string;
  stage: TripStage;
  odometerKm: number;
  fuelEighths: number;
  note: string;
  photos: ChosenPhoto[];
}

/** The multipart body the server reads: text fields first, then each photo in its slot's field. */
export function tripRecordForm(input: Omit<TripRecordInput, 'bookingId'>): FormData {
  const form = new FormData();
  form.append('stage', input.stage);
  form.append('odometer_km', String(input.odometerKm));
  form.append('fuel_eighths', String(input.fuelEighths));
  form.append('note', input.note);
  for (const photo of input.photos) form.append(`photo_${photo.slot}`, photo.file, photo.file.name);
  return form;
}

export function useAddTripRecord() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ bookingId, ...input }: TripRecordInput) => (await uploadForm<TripRecord>(`/booking/${bookingId}/trip-records`, tripRecordForm(input))).data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tripKeys.all }),
  });
}

export interface DisputeInput {
  bookingId: string;
  kind: DisputeKind;
  description: string;
  photos: File[];
}

export function useOpenDispute() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ bookingId, kind, description, photos }: DisputeInput) => {
      const form = new FormData();
      form.append('kind', kind);
      form.append('description', description);
      for (const file of photos) form.append('photo', file, file.name);
      return (await uploadForm<Dispute>(`/booking/${bookingId}/disputes`, form)).data;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tripKeys.all }),
  });
}
