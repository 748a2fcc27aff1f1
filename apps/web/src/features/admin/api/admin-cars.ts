// The Cars tab's calls (document 3, Cars): GET /api/admin/cars, one page of one search, status and
// verification filter and sort (every car, unverified ones included), polled every 30 seconds while
// the tab is on screen (its counters are the admin overview's, get-admin-overview.ts); verify or
// reject a car and its registration document, maintenance on and off, force return and delete;
// the car creator's POST /api/car/newCar/{owner}.
import { ADMIN_REFRESH_MS, type AdminCarListQuery, type Car, type NewCarBody } from '@karoo/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export type AdminCarFilters = Partial<Pick<AdminCarListQuery, 'search' | 'status' | 'verification_status' | 'sort' | 'order'>> & { page: number; limit: number };

export interface AdminCarsPage {
  cars: Car[];
  /** Cars matching the filters. */
  total: number;
}

export async function getAdminCars(filters: AdminCarFilters, signal?: AbortSignal): Promise<AdminCarsPage> {
  const result = await apiClient.get<Car[]>('/admin/cars', { query: filters, signal });
  return { cars: result.data, total: result.meta?.total ?? result.data.length };
}

export function useAdminCars(filters: AdminCarFilters) {
  return useQuery({
    queryKey: queryKeys.admin.cars({ ...filters }),
    queryFn: ({ signal }) => getAdminCars(filters, signal),
    placeholderData: keepPreviousData,
    refetchInterval: ADMIN_REFRESH_MS,
  });
}

/** After any change: the tab's pages, the counters (the admin overview), and every car list of the app. */
function useInvalidateCars() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.admin.carsAll() }),
      queryClient.invalidateQueries({ queryKey: queryKeys.admin.overview() }),
      queryClient.invalidateQueries({ queryKey: queryKeys.cars.all }),
    ]);
}

/** The car creator: a new car for an owner, pending verification like every new listing. */
export function useCreateCar() {
  const invalidate = useInvalidateCars();
  return useMutation({
    mutationFn: async ({ owner, body }: { owner: string; body: NewCarBody }) => (await apiClient.post<Car>(`/car/newCar/${encodeURIComponent(owner)}`, body)).data,
    onSuccess: invalidate,
  });
}

export function useVerifyCar() {
  const invalidate = useInvalidateCars();
  return useMutation({
    mutationFn: ({ car, verified, notes }: { car: Car; verified: boolean; notes?: string }) =>
      apiClient.patch<Car>(`/car/verifyCar/${encodeURIComponent(car.id)}`, { verification_status: verified ? 'verified' : 'rejected', ...(notes ? { admin_notes: notes } : {}) }),
    onSuccess: invalidate,
  });
}

export function useVerifyRegistrationDocument() {
  const invalidate = useInvalidateCars();
  return useMutation({
    mutationFn: ({ car, verified, notes }: { car: Car; verified: boolean; notes?: string }) =>
      apiClient.patch<Car>(`/car/verifyRegistrationDocument/${encodeURIComponent(car.car_username)}`, { verified, ...(notes ? { notes } : {}) }),
    onSuccess: invalidate,
  });
}

export function useSetCarMaintenance() {
  const invalidate = useInvalidateCars();
  return useMutation({
    mutationFn: ({ car, maintenance }: { car: Car; maintenance: boolean }) =>
      apiClient.put<Car>(`/car/updateCar/${encodeURIComponent(car.id)}`, { status: maintenance ? 'maintenance' : 'available' }),
    onSuccess: invalidate,
  });
}

export function useForceReturn() {
  const invalidate = useInvalidateCars();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ car, reason }: { car: Car; reason: string }) =>
      (await apiClient.patch<{ affected_bookings: number; car: Car }>(`/car/forceReturn/${encodeURIComponent(car.car_username)}`, { admin_action: true, reason })).data,
    onSuccess: () => Promise.all([invalidate(), queryClient.invalidateQueries({ queryKey: queryKeys.admin.bookingsAll() }), queryClient.invalidateQueries({ queryKey: queryKeys.bookings.all })]),
  });
}

export function useDeleteCar() {
  const invalidate = useInvalidateCars();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (car: Car) => apiClient.delete<unknown>(`/car/deleteCar/${encodeURIComponent(car.id)}`),
    onSuccess: () => Promise.all([invalidate(), queryClient.invalidateQueries({ queryKey: queryKeys.admin.bookingsAll() }), queryClient.invalidateQueries({ queryKey: queryKeys.bookings.all })]),
  });
}
