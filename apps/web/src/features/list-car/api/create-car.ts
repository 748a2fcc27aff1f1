// POST /api/car/newCar/{username}: lists a car (photos inside as data URLs, hence the upload
// timeout). The server makes a customer a host on their first car (decisions.md section 1).
import type { Car, NewCarBody } from '@karoo/shared';
import { useMutation } from '@tanstack/react-query';
import { apiClient, UPLOAD_TIMEOUT_MS, type ApiResult } from '@/lib/api-client';

export function createCar(username: string, body: NewCarBody): Promise<ApiResult<Car>> {
  return apiClient.post<Car>(`/car/newCar/${encodeURIComponent(username)}`, body, { timeoutMs: UPLOAD_TIMEOUT_MS });
}

export function useCreateCar() {
  return useMutation({ mutationFn: ({ username, body }: { username: string; body: NewCarBody }) => createCar(username, body) });
}
