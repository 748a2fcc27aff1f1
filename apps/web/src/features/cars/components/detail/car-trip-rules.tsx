// The car page's trip rules and long-trip discounts (decision 048): "Minimum 2 days · 1 day's
// notice" and "10% off weekly trips", in the shared words the booking panel and the server use.
// Nothing when the car keeps the defaults.
import { describeDiscounts, describeTripRules, type Car } from '@karoo/shared';
import { CalendarClock, Percent } from 'lucide-react';

export function CarTripRules({ car }: { car: Pick<Car, 'trip_rules'> }) {
  if (!car.trip_rules) return null;
  const rules = describeTripRules(car.trip_rules);
  const discounts = describeDiscounts(car.trip_rules);
  if (rules.length === 0 && discounts.length === 0) return null;
  return (
    <section className="border-t border-stone-200 pt-8" aria-labelledby="trip-rules-heading" data-testid="car-trip-rules">
      <h2 id="trip-rules-heading" className="text-xl font-semibold text-stone-900">
        Trip rules
      </h2>
      <ul className="mt-3 space-y-2 text-stone-700">
        {rules.length ? (
          <li className="flex items-start gap-2">
            <CalendarClock className="mt-0.5 size-4 shrink-0 text-stone-500" aria-hidden="true" />
            <span>{rules.join(' · ')}</span>
          </li>
        ) : null}
        {discounts.length ? (
          <li className="flex items-start gap-2 font-medium text-emerald-800">
            <Percent className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            <span>{discounts.join(' · ')}</span>
          </li>
        ) : null}
      </ul>
    </section>
  );
}
