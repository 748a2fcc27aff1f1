// The car page's instant booking (decision 078): who may book it instantly, in the shared words the
// host's panel previews. Nothing when the car does not offer it (or the platform has paused it).
import { DEFAULT_INSTANT_BOOKING, instantBookingSummary, offersInstantBooking, type Car } from '@karoo/shared';
import { Zap } from 'lucide-react';

export function CarInstantBooking({ car, instantAllowed }: { car: Pick<Car, 'instant_booking'>; instantAllowed: boolean }) {
  const rules = car.instant_booking ?? DEFAULT_INSTANT_BOOKING;
  if (!offersInstantBooking(rules, instantAllowed)) return null;
  return (
    <section className="border-t border-stone-200 pt-8" aria-labelledby="instant-booking-heading" data-testid="car-instant-booking">
      <h2 id="instant-booking-heading" className="flex items-center gap-2 text-xl font-semibold text-stone-900">
        <Zap className="size-5 text-emerald-600" aria-hidden="true" /> Instant booking
      </h2>
      <p className="mt-3 text-stone-700">
        Requests are confirmed at once, without waiting for the host, for: {instantBookingSummary(rules)} Other requests go to the host to answer.
      </p>
    </section>
  );
}
