// My Bookings with its payment checkout (the payments feature), loaded on demand.
import { MyBookingsPage } from '@/features/bookings/components/my-bookings-page';
import { useCheckout } from '@/features/payments/components/use-checkout';

export function MyBookingsRoute() {
  const payment = useCheckout();
  return <MyBookingsPage payment={payment} />;
}
