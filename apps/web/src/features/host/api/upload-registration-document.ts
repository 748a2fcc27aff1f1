// POST /api/car/uploadRegistrationDocument/{car_username} (multipart field registrationDocument).
import type { Car } from '@karoo/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { uploadForm } from '@/lib/api-files';
import { replaceCachedCar } from './get-host-cars';

export async function uploadRegistrationDocument(carUsername: string, file: File): Promise<Car> {
  const form = new FormData();
  form.append('registrationDocument', file);
  const result = await uploadForm<Car>(`/car/uploadRegistrationDocument/${encodeURIComponent(carUsername)}`, form);
  return result.data;
}

export function useUploadRegistrationDocument(username: string | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ carUsername, file }: { carUsername: string; file: File }) => uploadRegistrationDocument(carUsername, file),
    onSuccess: (car) => {
      if (username) replaceCachedCar(queryClient, username, car);
    },
  });
}
