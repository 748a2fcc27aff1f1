// /cars/:id and /car/:id: the detail page of the cars feature with the booking feature's panel
// (a booking confirmed at once is paid from there, through the payments feature's checkout, loaded
// only when asked for) and the favourites feature's heart.
import type { Booking, Car } from '@karoo/shared';
import { lazy, Suspense, useState } from 'react';
import { BookingPanel } from '@/features/booking/components/booking-panel';
import { CarDetailPage } from '@/features/cars/components/detail/car-detail-page';
import { FavouritesProvider } from '@/features/cars/components/favourites-context';
import { carTitle } from '@/features/cars/utils/car-display';
import { useFavourites } from '@/features/favourites/hooks/use-favourites';

const PayNow = lazy(() => import('@/features/payments/components/pay-now').then((m) => ({ default: m.PayNow })));

function BookingPanelWithCheckout({ car }: { car: Car }) {
  const [paying, setPaying] = useState<Booking | null>(null);
  return (
    <>
      <BookingPanel car={car} carName={carTitle(car)} onPay={setPaying} />
      {paying ? (
        <Suspense fallback={null}>
          <PayNow key={paying.id} booking={paying} />
        </Suspense>
      ) : null}
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
