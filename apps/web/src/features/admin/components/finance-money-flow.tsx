// Admin Finance: the period's money in and out beside the revenue (issue 20; decision 039): what
// renters were charged and refunded, the cancellation fees kept, the penalties charged to hosts
// and what was paid out to them. Every figure is the server's ledger sum for the period, counted
// on the day the money moved, so a closed period keeps its figures.
import type { FinanceTotals } from '@karoo/shared';
import { formatRand } from '@/lib/format';

const card = 'rounded-2xl border border-stone-200/80 bg-white p-4 shadow-card sm:p-5';

const ROWS: { key: 'charged' | 'refunds' | 'cancellation_fees' | 'penalties' | 'paid_out'; label: string; hint: string }[] = [
  { key: 'charged', label: 'Charged to renters', hint: 'Every charge taken from a card' },
  { key: 'refunds', label: 'Refunded to renters', hint: 'Refunds the payment provider accepted' },
  { key: 'cancellation_fees', label: 'Cancellation fees', hint: 'Kept from late cancellations, shared with the host' },
  { key: 'penalties', label: 'Host penalties', hint: 'Charged to hosts who cancelled, taken from their payouts' },
  { key: 'paid_out', label: 'Paid out to hosts', hint: 'Payouts, less reversals' },
];

export function FinanceMoneyFlow({ totals }: { totals: FinanceTotals }) {
  return (
    <section aria-labelledby="finance-money-flow" className={card}>
      <h2 id="finance-money-flow" className="text-lg font-semibold text-stone-900">
        Money in and out
      </h2>
      <p className="text-sm text-stone-500">Counted on the day the money moved.</p>
      <dl className="mt-3 grid gap-x-6 divide-y divide-stone-100 text-sm sm:grid-cols-2 sm:divide-y-0 lg:grid-cols-5">
        {ROWS.map(({ key, label, hint }) => (
          <div key={key} className="flex items-baseline justify-between gap-4 py-2 sm:block" data-testid={`finance-flow-${key}`}>
            <dt className="text-stone-600">
              {label}
              <span className="block text-xs text-stone-500">{hint}</span>
            </dt>
            <dd className="font-semibold tabular-nums text-stone-900 sm:mt-1 sm:text-lg">{formatRand(totals[key])}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
