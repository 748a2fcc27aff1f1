// Pays one booking at once (a booking confirmed by instant booking, from its confirmation; decision
// 078): the checkout starts when this mounts. Loaded only when the renter asks to pay, so the car
// page does not carry the checkout's forms (decision 053's budgets).
import type { Booking } from '@karoo/shared';
import { useEffect, useRef } from 'react';
import { useCheckout } from './use-checkout';

export function PayNow({ booking }: { booking: Booking }) {
  const { startCheckout, checkout } = useCheckout();
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void startCheckout(booking);
  }, [booking, startCheckout]);
  return <>{checkout}</>;
}
