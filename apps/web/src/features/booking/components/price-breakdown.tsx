// The live price of the booking panel: the shared calculatePrice (the same function the server
// stores the booking with) on the car's price, the length, its discounts, the chosen options and the
// settings. A weekly or monthly discount is its own line, taken off the rental.
import type { PriceBreakdown as Breakdown } from '@karoo/shared';
import { formatRand } from '@/lib/format';

/** The deposit taken with the trip (decision 064): its amount and the words that say when it comes back. */
export interface DepositTerms {
  amount: number;
  line: string;
}

export function PriceBreakdown({ price, deposit }: { price: Breakdown; deposit?: DepositTerms | null }) {
  const unit = price.isHourly
    ? `${formatRand(price.hourlyRate)} × ${price.hours} ${price.hours === 1 ? 'hour' : 'hours'}`
    : `${formatRand(price.dailyPrice)} × ${price.days} ${price.days === 1 ? 'day' : 'days'}`;
  const rows: [string, number][] = [[unit, price.rental]];
  // The car's weekly or monthly discount (decision 048), taken off the rental before any fee.
  if (price.discount && price.discountLabel) rows.push([price.discountLabel, -price.discount]);
  rows.push([price.serviceFeeLabel, price.serviceFee]);
  if (price.insuranceFee) rows.push(['Insurance', price.insuranceFee]);
  if (price.pickupFee) rows.push(['Pickup fee', price.pickupFee]);
  return (
    <section aria-label="Price breakdown" data-testid="price-breakdown">
      <dl className="space-y-2 text-sm">
        {rows.map(([label, amount]) => (
          <div key={label} className={amount < 0 ? 'flex justify-between gap-4 font-medium text-emerald-800' : 'flex justify-between gap-4 text-stone-600'}>
            <dt>{label}</dt>
            <dd className="tabular-nums">{amount < 0 ? `−${formatRand(-amount)}` : formatRand(amount)}</dd>
          </div>
        ))}
        <div className="flex justify-between gap-4 border-t border-stone-200 pt-3 text-base font-bold text-stone-900">
          <dt>Total</dt>
          <dd className="tabular-nums" data-testid="price-total">
            {formatRand(price.total)}
          </dd>
        </div>
        {deposit && deposit.amount > 0 ? (
          <>
            <div className="flex justify-between gap-4 text-stone-600" data-testid="price-deposit">
              <dt>{deposit.line}</dt>
              <dd className="tabular-nums">{formatRand(deposit.amount)}</dd>
            </div>
            <div className="flex justify-between gap-4 font-semibold text-stone-900">
              <dt>Charged to your card now</dt>
              <dd className="tabular-nums">{formatRand(price.total + deposit.amount)}</dd>
            </div>
          </>
        ) : null}
      </dl>
    </section>
  );
}
