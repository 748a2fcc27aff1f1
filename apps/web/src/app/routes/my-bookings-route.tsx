// My Bookings with its payment checkout, loaded on demand.
import { MyBookingsPage } from '@/features/bookings/components/my-bookings-page';

export function MyBookingsRoute() {
  return <MyBookingsPage />;
}
