// The available/offline switch of a fleet card. Locked while the car is on a rental; the hint below
// it says what the switch means for renters in the car's state (fleet-rules availabilityHint).
import { clsx } from 'clsx';
import { useId } from 'react';
import { Spinner } from '@/components/ui/spinner';

export interface AvailabilityToggleProps {
  isAvailable: boolean;
  /** What the car is now, shown beside the switch (Available, Offline, Rented...). */
  stateLabel: string;
  disabled: boolean;
  busy: boolean;
  /** What the switch means for renters now (or why it is locked), read with it. */
  hint: string;
  onChange: (next: boolean) => void;
}

export function AvailabilityToggle({ isAvailable, stateLabel, disabled, busy, hint, onChange }: AvailabilityToggleProps) {
  const labelId = useId();
  const hintId = useId();
  return (
    <div className="flex items-center justify-between gap-3 rounded-xl bg-stone-50 px-3 py-2.5">
      <div className="min-w-0">
        <p id={labelId} className="text-sm font-medium text-stone-800">
          Available for rent
        </p>
        <p id={hintId} className="text-xs text-stone-500">
          {hint}
        </p>
      </div>
      <div className="flex items-center gap-2">
        {busy ? <Spinner className="text-stone-400" /> : null}
        <span className={clsx('text-xs font-semibold', isAvailable ? 'text-emerald-700' : 'text-stone-500')} aria-hidden="true">
          {stateLabel}
        </span>
        <button
          type="button"
          role="switch"
          aria-checked={isAvailable}
          aria-labelledby={labelId}
          aria-describedby={hintId}
          disabled={disabled || busy}
          onClick={() => onChange(!isAvailable)}
          className={clsx(
            'relative inline-flex h-6 w-11 shrink-0 cursor-pointer items-center rounded-full transition-colors',
            'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-offset-2',
            'disabled:cursor-not-allowed disabled:opacity-50',
            isAvailable ? 'bg-emerald-600' : 'bg-stone-300',
          )}
        >
          <span
            aria-hidden="true"
            className={clsx('inline-block size-5 rounded-full bg-white shadow transition-transform', isAvailable ? 'translate-x-[22px]' : 'translate-x-0.5')}
          />
        </button>
      </div>
    </div>
  );
}
