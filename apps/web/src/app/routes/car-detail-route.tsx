// /cars/:id and /car/:id: the detail page of the cars feature with the booking feature's panel
// (a booking confirmed at once is paid there, through the payments feature's checkout) and the
// favourites feature's heart.
import type { Car } from '@karoo/shared';
import { BookingPanel } from '@/features/booking/components/booking-panel';
import { CarDetailPage } from '@/features/cars/components/detail/car-detail-page';
import { FavouritesProvider } from '@/features/cars/components/favourites-context';
import { carTitle } from '@/features/cars/utils/car-display';
import { useFavourites } from '@/features/favourites/hooks/use-favourites';
import { useCheckout } from '@/features/payments/components/use-checkout';

function BookingPanelWithCheckout({ car }: { car: Car }) {
  const { startCheckout, checkout } = useCheckout();
  return (
    <>
      <BookingPanel car={car} carName={carTitle(car)} onPay={(booking) => void startCheckout(booking)} />
      {checkout}
    </>
  );
}

function renderBookingPanel(car: Car) {
  // Keyed on the car: another car's page starts a fresh form.
  return <BookingPanelWithCheckout key={car.id} car={car} />;
}

export function CarDetailRoute() {
  const favourites = useFavourites();
  return (
    <FavouritesProvider value={favourites}>
      <CarDetailPage renderBookingPanel={renderBookingPanel} />
    </FavouritesProvider>
  );
}
