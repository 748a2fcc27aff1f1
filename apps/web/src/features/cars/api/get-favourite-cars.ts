// The renter's favourite cars for the browse page's Favourites chip: favourites live in this
// browser, so each is read with GET /api/car/getCarDetails/{id} (the same query as its car page)
// and shown as its card (carCardOf, the fields=card shape); cars that were removed or are no
// longer listed (404) are left out.
import { carCardOf, type Car } from '@karoo/shared';
import { useQueries } from '@tanstack/react-query';
import { useInstantBookingAllowed } from '@/lib/queries/settings';
import { queryKeys } from '@/lib/query-keys';
import { getCar } from './get-car';

export function useFavouriteCars(carUsernames: readonly string[], enabled: boolean) {
  // The Instant badge needs the platform's rule; asked only while the Favourites chip is on.
  const instantAllowed = useInstantBookingAllowed({ enabled: enabled && carUsernames.length > 0 });
  return useQueries({
    queries: carUsernames.map((id) => ({
      queryKey: queryKeys.cars.detail(id),
      queryFn: ({ signal }: { signal: AbortSignal }) => getCar(id, signal),
      enabled,
    })),
    combine: (results) => ({
      cars: results.map((r) => r.data).filter((car): car is Car => !!car).map((car) => carCardOf(car, { instantAllowed })),
      isLoading: results.some((r) => r.isLoading),
      isError: results.length > 0 && results.every((r) => r.isError),
    }),
  });
}
