// /cars/:id and /car/:id: the detail page of the cars feature with the booking feature's panel
// and the favourites feature's heart.
import type { Car } from '@karoo/shared';
import { BookingPanel } from '@/features/booking/components/booking-panel';
import { CarDetailPage } from '@/features/cars/components/detail/car-detail-page';
import { FavouritesProvider } from '@/features/cars/components/favourites-context';
import { carTitle } from '@/features/cars/utils/car-display';
import { useFavourites } from '@/features/favourites/hooks/use-favourites';

function renderBookingPanel(car: Car) {
  // Keyed on the car: another car's page starts a fresh form.
  return <BookingPanel key={car.id} car={car} carName={carTitle(car)} />;
}

export function CarDetailRoute() {
  const favourites = useFavourites();
  return (
    <FavouritesProvider value={favourites}>
      <CarDetailPage renderBookingPanel={renderBookingPanel} />
    </FavouritesProvider>
  );
}
