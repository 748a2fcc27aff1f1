// Manage Details > Pickup locations: list, add, edit and remove a car's pickup options, then save
// the whole list. Rules (document 2 section 5) come from the shared schema: name and address
// required, additional fee 0 or more; a new option is type standard, fee 0, times 09:00, 13:00, 17:00.
// The list itself (rows, remove, save) is the OptionsEditor; this file is what a location holds.
import { zodResolver } from '@hookform/resolvers/zod';
import {
  DEFAULT_PICKUP_TIMES,
  PICKUP_OPTION_TYPES,
  TIME_PATTERN,
  updatePickupOptionsBodySchema,
  type Car,
  type PickupOptionInput,
} from '@karoo/shared';
import { clsx } from 'clsx';
import { Clock, MapPin, X } from 'lucide-react';
import { useId, useState } from 'react';
import { Controller } from 'react-hook-form';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Input, inputClasses } from '@/components/ui/input';
import { formatRand } from '@/lib/format';
import { useUpdatePickupOptions } from '../api/update-pickup-options';
import { OptionsEditor, type OptionFieldSet, type OptionRow } from './options-editor';

export const PICKUP_TYPE_LABELS: Record<(typeof PICKUP_OPTION_TYPES)[number], string> = {
  standard: 'Standard',
  airport: 'Airport',
  premium: 'Premium (delivery)',
  business: 'Business',
  mall: 'Mall',
};

export function newPickupOption(): PickupOptionInput {
  return { name: '', address: '', additional_fee: 0, type: 'standard', available_times: [...DEFAULT_PICKUP_TIMES] };
}

function TimesField({ value, onChange, error }: { value: string[]; onChange: (times: string[]) => void; error?: string }) {
  const inputId = useId();
  const [draft, setDraft] = useState('');
  const add = () => {
    if (!TIME_PATTERN.test(draft) || value.includes(draft)) return;
    onChange([...value, draft].sort());
    setDraft('');
  };
  return (
    <fieldset>
      <legend className="mb-1.5 text-sm font-medium text-stone-700">Available times</legend>
      <p className="mb-2 text-xs text-stone-500">Renters can start a trip here only at these times.</p>
      <ul className="flex flex-wrap gap-2">
        {value.map((time) => (
          <li key={time} className="inline-flex items-center gap-1 rounded-full bg-stone-100 py-1 pr-1 pl-3 text-sm font-medium text-stone-700">
            {time}
            <button
              type="button"
              onClick={() => onChange(value.filter((t) => t !== time))}
              aria-label={`Remove ${time}`}
              className="rounded-full p-0.5 text-stone-400 hover:bg-stone-200 hover:text-stone-700 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
            >
              <X className="size-3.5" aria-hidden="true" />
            </button>
          </li>
        ))}
        {value.length === 0 ? <li className="text-sm text-stone-500">None: the standard times 09:00, 13:00 and 17:00 apply.</li> : null}
      </ul>
      <div className="mt-2 flex gap-2">
        <label htmlFor={inputId} className="sr-only">
          New pickup time
        </label>
        <input
          id={inputId}
          type="time"
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          className={clsx(inputClasses, 'max-w-36 border-stone-300 py-2 text-sm')}
        />
        <Button size="sm" variant="secondary" className="h-[38px]" onClick={add} disabled={!TIME_PATTERN.test(draft)}>
          Add Time
        </Button>
      </div>
      {error ? (
        <p role="alert" className="mt-1.5 text-sm font-medium text-red-600">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

function PickupBadges({ option }: { option: PickupOptionInput }) {
  return <Badge tone={option.type === 'premium' ? 'brand' : option.type === 'airport' ? 'info' : 'neutral'}>{PICKUP_TYPE_LABELS[option.type ?? 'standard']}</Badge>;
}

function PickupSummary({ option }: { option: PickupOptionInput }) {
  return (
    <>
      <p className="mt-0.5 truncate text-sm text-stone-500">{option.address || 'No address yet'}</p>
      <p className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-stone-500">
        <span className="font-medium text-stone-700">{Number(option.additional_fee) > 0 ? `+${formatRand(Number(option.additional_fee))}` : 'No extra fee'}</span>
        <span className="inline-flex items-center gap-1">
          <Clock className="size-3" aria-hidden="true" />
          {(option.available_times ?? []).join(', ') || DEFAULT_PICKUP_TIMES.join(', ')}
        </span>
      </p>
    </>
  );
}

function PickupFields({ row }: { row: OptionRow<PickupOptionInput> }) {
  return (
    <>
      <Input label="Location name" placeholder="e.g. OR Tambo International Airport" {...row.register('name')} error={row.error('name')} />
      <div>
        <label htmlFor={`${row.id}-type`} className="mb-1.5 block text-sm font-medium text-stone-700">
          Type
        </label>
        <select id={`${row.id}-type`} {...row.register('type')} className={clsx(inputClasses, 'border-stone-300')}>
          {PICKUP_OPTION_TYPES.map((type) => (
            <option key={type} value={type}>
              {PICKUP_TYPE_LABELS[type]}
            </option>
          ))}
        </select>
      </div>
      <Input label="Address" containerClassName="sm:col-span-2" placeholder="Street, suburb, city" {...row.register('address')} error={row.error('address')} />
      <Input
        label="Additional fee (R)"
        type="number"
        inputMode="decimal"
        min={0}
        step={10}
        {...row.register('additional_fee')}
        error={row.error('additional_fee')}
      />
      <div className="sm:col-span-2">
        <Controller
          control={row.control}
          name={row.path('available_times')}
          render={({ field, fieldState }) => (
            <TimesField value={(field.value as string[] | undefined) ?? []} onChange={field.onChange} error={fieldState.error?.message ?? row.error('available_times')} />
          )}
        />
      </div>
    </>
  );
}

const pickupFieldSet: OptionFieldSet<'pickup_options', PickupOptionInput> = {
  listKey: 'pickup_options',
  resolver: zodResolver(updatePickupOptionsBodySchema),
  toFormOption: (option) => ({ ...option, available_times: [...option.available_times] }),
  newOption: newPickupOption,
  isBlank: (option) => !option.id && !option.name?.trim() && !option.address?.trim(),
  icon: MapPin,
  text: {
    intro: 'Where renters can collect the car. Airport and delivery options can carry an extra fee.',
    emptyTitle: 'No pickup locations yet',
    emptyText: (car) => `Renters collect the car at ${car.pickup_location || 'its location'}.`,
    untitled: 'New pickup location',
    removeFallback: 'this pickup location',
    add: 'Add Pickup Location',
    save: 'Save Pickup Options',
    savedTitle: 'Pickup Options Updated',
    savedText: (count) => `${count} pickup ${count === 1 ? 'location' : 'locations'} saved.`,
    failedText: 'Failed to update pickup options. Please try again.',
  },
  Badges: PickupBadges,
  Summary: PickupSummary,
  Fields: PickupFields,
};

export function PickupOptionsEditor({ car, username }: { car: Car; username: string }) {
  const mutation = useUpdatePickupOptions(username);
  return (
    <OptionsEditor
      car={car}
      fieldSet={pickupFieldSet}
      save={(pickupOptions) => mutation.mutateAsync({ carId: car.id, pickupOptions })}
      isSaving={mutation.isPending}
    />
  );
}
