// The pickup locations and insurance plans a car offers (document 2 section 2): radio lists. A
// pickup location shows 3 of its times then '+N more'; they are the only pickup times the panel
// offers for it, as the server takes no other (decision 059). Every option is shown in full: no list
// scrolls inside the booking panel (a scroll area there hid Premium Cover; docs/decisions/034).
import { EXACT_PLACE_AFTER_PAYMENT, type InsuranceOption, type PickupOption } from '@karoo/shared';
import { clsx } from 'clsx';
import { Building2, Home, MapPin, Plane, ShoppingBag, Star, Truck } from 'lucide-react';
import { useId, type ReactNode } from 'react';
import { formatRand } from '@/lib/format';

export const VISIBLE_TIMES = 3;

const PICKUP_ICONS: Record<string, typeof MapPin> = {
  standard: Home,
  airport: Plane,
  premium: Truck,
  business: Building2,
  mall: ShoppingBag,
};

function OptionRow({ name, checked, onChange, children }: { name: string; checked: boolean; onChange: () => void; children: ReactNode }) {
  return (
    <label
      className={clsx(
        'flex cursor-pointer gap-3 rounded-xl border p-3 transition has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-500',
        checked ? 'border-stone-900 bg-stone-50' : 'border-stone-200 hover:border-stone-300',
      )}
    >
      <input type="radio" name={name} checked={checked} onChange={onChange} className="mt-1 size-4 shrink-0 accent-stone-900" />
      <span className="min-w-0 flex-1">{children}</span>
    </label>
  );
}

export function PickupOptionsList({
  options,
  value,
  onChange,
  areaOnly = false,
}: {
  options: PickupOption[];
  value: string | null;
  onChange: (id: string) => void;
  /** The addresses are areas (the trip is not paid yet, decision 055): say when the exact one comes. */
  areaOnly?: boolean;
}) {
  const name = useId();
  if (!options.length) return null;
  return (
    <fieldset className="min-w-0">
      <legend className="mb-2 text-sm font-semibold text-stone-900">Pickup location</legend>
      {areaOnly ? <p className="-mt-1 mb-2 text-xs text-stone-500">Areas only: {EXACT_PLACE_AFTER_PAYMENT.toLowerCase()}.</p> : null}
      <div className="space-y-2" data-testid="pickup-options">
        {options.map((option) => {
          const Icon = PICKUP_ICONS[option.type] ?? MapPin;
          const extra = option.available_times.length - VISIBLE_TIMES;
          return (
            <OptionRow key={option.id} name={name} checked={value === option.id} onChange={() => onChange(option.id)}>
              <span className="flex items-start justify-between gap-2">
                <span className="flex min-w-0 items-center gap-1.5 text-sm font-semibold text-stone-900">
                  <Icon className="size-4 shrink-0 text-stone-500" aria-hidden="true" />
                  <span className="truncate">{option.name}</span>
                </span>
                <span className="shrink-0 text-sm font-semibold text-stone-900">{option.additional_fee ? `+${formatRand(option.additional_fee)}` : 'Free'}</span>
              </span>
              <span className="mt-0.5 block truncate text-xs text-stone-500">{option.address}</span>
              {option.available_times.length ? (
                <span className="mt-2 flex flex-wrap gap-1" aria-label="Handover times">
                  {option.available_times.slice(0, VISIBLE_TIMES).map((time) => (
                    <span key={time} className="rounded-md bg-white px-1.5 py-0.5 text-[11px] font-medium text-stone-600 ring-1 ring-stone-200">
                      {time}
                    </span>
                  ))}
                  {extra > 0 ? <span className="rounded-md px-1.5 py-0.5 text-[11px] font-medium text-stone-500">+{extra} more</span> : null}
                </span>
              ) : null}
            </OptionRow>
          );
        })}
      </div>
    </fieldset>
  );
}

export function InsuranceOptionsList({
  options,
  value,
  onChange,
}: {
  options: InsuranceOption[];
  value: string | null;
  onChange: (id: string | null) => void;
}) {
  const name = useId();
  if (!options.length) return null;
  const hasIncluded = options.some((option) => option.included);
  return (
    <fieldset className="min-w-0">
      <legend className="mb-2 text-sm font-semibold text-stone-900">Insurance</legend>
      <div className="space-y-2" data-testid="insurance-options">
        {hasIncluded ? null : (
          <OptionRow name={name} checked={value === null} onChange={() => onChange(null)}>
            <span className="text-sm font-semibold text-stone-900">No extra cover</span>
            <span className="mt-0.5 block text-xs text-stone-500">Only the cover the law requires.</span>
          </OptionRow>
        )}
        {options.map((option) => (
          <OptionRow key={option.id} name={name} checked={value === option.id} onChange={() => onChange(option.id)}>
            <span className="flex items-start justify-between gap-2">
              <span className="flex min-w-0 flex-wrap items-center gap-1.5 text-sm font-semibold text-stone-900">
                {option.name}
                {option.popular ? (
                  <span className="inline-flex items-center gap-0.5 rounded-full bg-brand-50 px-1.5 py-0.5 text-[10px] font-bold text-brand-700 uppercase">
                    <Star className="size-2.5 fill-current" aria-hidden="true" /> Popular
                  </span>
                ) : null}
                {option.recommended ? <span className="rounded-full bg-emerald-50 px-1.5 py-0.5 text-[10px] font-bold text-emerald-700 uppercase">Recommended</span> : null}
              </span>
              <span className="shrink-0 text-sm font-semibold text-stone-900">
                {option.included || !option.daily_rate ? 'Included' : `${formatRand(option.daily_rate)}/day`}
              </span>
            </span>
            <span className="mt-0.5 block text-xs text-stone-500">{option.description}</span>
            <span className="mt-1 block text-xs text-stone-600">Excess {formatRand(option.excess_amount)}</span>
            {option.coverage.length ? (
              <ul className="mt-1.5 flex flex-wrap gap-1">
                {option.coverage.map((item) => (
                  <li key={item} className="rounded-md bg-white px-1.5 py-0.5 text-[11px] text-stone-600 ring-1 ring-stone-200">
                    {item}
                  </li>
                ))}
              </ul>
            ) : null}
          </OptionRow>
        ))}
      </div>
    </fieldset>
  );
}
