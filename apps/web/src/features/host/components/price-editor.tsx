// The editable daily rate of a fleet card: applies only when the new price is above 0
// (input min 1, step 50); anything else puts the current price back. Render it with key={price}
// so that a saved or refreshed price replaces what was typed.
import { useId, useState, type FormEvent } from 'react';
import { MAX_DAILY_RATE } from '@karoo/shared';
import { Button } from '@/components/ui/button';
import { inputClasses } from '@/components/ui/input';
import { PRICE_INPUT_MIN, PRICE_INPUT_STEP, priceEditValue } from '../utils/fleet-rules';

export interface PriceEditorProps {
  price: number;
  busy: boolean;
  onSave: (price: number) => void;
}

export function PriceEditor({ price, busy, onSave }: PriceEditorProps) {
  const id = useId();
  const [text, setText] = useState(String(price));
  const next = priceEditValue(text, price);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (next === null) {
      setText(String(price));
      return;
    }
    onSave(next);
  };

  return (
    // noValidate: with min 1 and step 50 the browser would refuse 1350 (its steps are 1, 51, 101...);
    // the only rule is "above 0".
    <form onSubmit={submit} noValidate className="flex items-end gap-2">
      <div className="min-w-0 flex-1">
        <label htmlFor={id} className="mb-1 block text-xs font-medium text-stone-600">
          Daily rate
        </label>
        <div className="relative">
          <span className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-sm font-semibold text-stone-500">R</span>
          <input
            id={id}
            type="number"
            inputMode="decimal"
            min={PRICE_INPUT_MIN}
            max={MAX_DAILY_RATE}
            step={PRICE_INPUT_STEP}
            value={text}
            onChange={(event) => setText(event.target.value)}
            onBlur={() => {
              if (priceEditValue(text, price) === null) setText(String(price));
            }}
            className={`${inputClasses} border-stone-300 py-2 pl-8 text-sm font-semibold`}
          />
        </div>
      </div>
      <Button type="submit" size="sm" variant={next === null ? 'secondary' : 'primary'} className="h-[38px]" disabled={next === null} loading={busy}>
        Update
      </Button>
    </form>
  );
}
