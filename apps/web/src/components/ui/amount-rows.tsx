// A short list of labelled rand amounts (what a dialog asks someone to agree to): label on the
// left, the amount on the right in tabular figures, the bottom line stronger. No rules here; the
// screen says what each amount is.
import { formatRand } from '@karoo/shared';
import { clsx } from 'clsx';
import type { ReactNode } from 'react';

export interface AmountRow {
  label: ReactNode;
  /** Cents. */
  cents: number;
  /** Shown as a deduction ("-R 450"). */
  minus?: boolean;
  /** The line the reader came for (what they get back, what they are charged). */
  strong?: boolean;
  /** A small line under the label. */
  hint?: ReactNode;
  testId?: string;
}

export function AmountRows({ rows, label, className }: { rows: AmountRow[]; label: string; className?: string }) {
  return (
    <dl aria-label={label} className={clsx('rounded-xl border border-stone-200 bg-stone-50/70 px-4 py-2 text-sm', className)}>
      {rows.map((row, i) => (
        <div
          key={i}
          data-testid={row.testId}
          className={clsx('flex items-baseline justify-between gap-4 py-1.5', row.strong && 'border-t border-stone-200 font-semibold text-stone-900', i === 0 && 'border-t-0')}
        >
          <dt className={clsx('min-w-0', !row.strong && 'text-stone-700')}>
            {row.label}
            {row.hint ? <span className="block text-xs font-normal text-stone-500">{row.hint}</span> : null}
          </dt>
          <dd className="shrink-0 tabular-nums">
            {row.minus && row.cents > 0 ? '-' : ''}
            {formatRand(row.cents / 100)}
          </dd>
        </div>
      ))}
    </dl>
  );
}
