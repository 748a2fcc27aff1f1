// A counter card above a list (a label over a number, in a <dl>): a grey bone until the number is
// known, so nothing jumps when it arrives.
import type { ReactNode } from 'react';

export interface StatCardProps {
  label: string;
  /** A count (written the South African way), something drawn, or undefined while loading. */
  value: number | ReactNode | undefined;
  /** The number's colour class (text-emerald-600). */
  tone: string;
  /** A line under the number ("128 reviews"), once it is known. */
  note?: ReactNode;
}

export function StatCard({ label, value, tone, note }: StatCardProps) {
  return (
    <div className="rounded-2xl border border-stone-200/80 bg-white p-4 shadow-card">
      <dt className="text-xs font-semibold tracking-wide text-stone-500 uppercase">{label}</dt>
      <dd className={`mt-1 text-2xl font-bold ${tone}`}>
        {value === undefined ? <span className="inline-block h-7 w-10 animate-pulse rounded bg-stone-200" /> : typeof value === 'number' ? value.toLocaleString('en-ZA') : value}
      </dd>
      {note ? <dd className="text-xs text-stone-500">{note}</dd> : null}
    </div>
  );
}
