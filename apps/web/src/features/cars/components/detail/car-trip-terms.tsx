// The car page's trip terms (issue 34; decision 064): the deposit and when it comes back, and the
// distance included with the rate beyond it, in the shared words the checkout and receipt use.
import { distanceLine, type Car } from '@karoo/shared';
import { formatRand } from '@/lib/format';
import { Gauge, ShieldCheck } from 'lucide-react';
import { useSettings } from '@/lib/queries/settings';

export function CarTripTerms({ car }: { car: Pick<Car, 'deposit' | 'distance_allowance_km' | 'extra_km_rate'> }) {
  const settings = useSettings().data;
  const hours = settings?.trip_charges.claim_window_hours ?? 72;
  return (
    <section className="border-t border-stone-200 pt-8" aria-labelledby="trip-terms-heading" data-testid="car-trip-terms">
      <h2 id="trip-terms-heading" className="text-xl font-semibold text-stone-900">
        Deposit and distance
      </h2>
      <ul className="mt-3 space-y-2 text-stone-700">
        <li className="flex items-start gap-2">
          <ShieldCheck className="mt-0.5 size-4 shrink-0 text-stone-500" aria-hidden="true" />
          <span>
            {car.deposit > 0
              ? `${formatRand(car.deposit)} deposit, charged with the trip and back ${hours} hours after the return if nothing is claimed`
              : 'No deposit'}
          </span>
        </li>
        <li className="flex items-start gap-2">
          <Gauge className="mt-0.5 size-4 shrink-0 text-stone-500" aria-hidden="true" />
          <span>{distanceLine(car.distance_allowance_km, Math.round(car.extra_km_rate * 100))}</span>
        </li>
      </ul>
    </section>
  );
}
