// Manage Details > Pickup locations: list, add, edit and remove a car's pickup options, then save
// the whole list. Rules (document 2 section 5) come from the shared schema: name and address
// required, additional fee 0 or more; a new option is type standard, fee 0, times 09:00, 13:00, 17:00.
import { zodResolver } from '@hookform/resolvers/zod';
import {
  DEFAULT_PICKUP_TIMES,
  PICKUP_OPTION_TYPES,
  TIME_PATTERN,
  updatePickupOptionsBodySchema,
  type Car,
  type PickupOption,
  type PickupOptionInput,
} from '@karoo/shared';
import { clsx } from 'clsx';
import { Clock, MapPin, Pencil, Trash2, X } from 'lucide-react';
import { useCallback, useId, useState } from 'react';
import { Controller, useFieldArray, useForm, type FieldErrors } from 'react-hook-form';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Input, inputClasses } from '@/components/ui/input';
import { useNotification } from '@/components/ui/toast';
import { messageOf } from '@/lib/api-client';
import { formatRand } from '@/lib/format';
import { useUpdatePickupOptions } from '../api/update-pickup-options';
import { useEditingRows } from '../hooks/use-editing-rows';
import { OptionsEditorFooter } from './options-editor-footer';

export const PICKUP_TYPE_LABELS: Record<(typeof PICKUP_OPTION_TYPES)[number], string> = {
  standard: 'Standard',
  airport: 'Airport',
  premium: 'Premium (delivery)',
  business: 'Business',
  mall: 'Mall',
};

interface PickupFormValues {
  pickup_options: PickupOptionInput[];
}

export function newPickupOption(): PickupOptionInput {
  return { name: '', address: '', additional_fee: 0, type: 'standard', available_times: [...DEFAULT_PICKUP_TIMES] };
}

function toFormOption(option: PickupOption): PickupOptionInput {
  return { ...option, available_times: [...option.available_times] };
}

/** A location added a moment ago and not filled in: removing it loses nothing, so no confirmation. */
function isBlank(option: Partial<PickupOptionInput>): boolean {
  return !option.id && !option.name?.trim() && !option.address?.trim();
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

export function PickupOptionsEditor({ car, username }: { car: Car; username: string }) {
  const notify = useNotification();
  const mutation = useUpdatePickupOptions(username);
  const form = useForm({
    resolver: zodResolver(updatePickupOptionsBodySchema),
    defaultValues: { pickup_options: car.pickup_options.map(toFormOption) } satisfies PickupFormValues,
  });
  const { control, register, handleSubmit, trigger, reset, watch, setFocus, formState } = form;
  // Options carry their own `id`, so the array's React keys live under `key`.
  const { fields, append, remove } = useFieldArray({ control, name: 'pickup_options', keyName: 'key' });
  const focusName = useCallback((index: number) => setFocus(`pickup_options.${index}.name`), [setFocus]);
  const { isOpen, setOpen, openRows, closeAll, openWhenAppended } = useEditingRows(fields, focusName);
  const values = watch('pickup_options');
  const errors = formState.errors.pickup_options;
  // Removing an option asks first (document 2's confirmation dialog); a blank new row just goes.
  const [removing, setRemoving] = useState<{ key: string; title: string } | null>(null);
  const removeRow = (key: string) => {
    const index = fields.findIndex((field) => field.key === key);
    if (index >= 0) remove(index);
    setOpen(key, false);
  };
  const askToRemove = (key: string, title: string, blank: boolean) => (blank ? removeRow(key) : setRemoving({ key, title }));

  const save = handleSubmit(
    async (data) => {
      try {
        const updated = await mutation.mutateAsync({ carId: car.id, pickupOptions: data.pickup_options });
        reset({ pickup_options: updated.pickup_options.map(toFormOption) });
        closeAll();
        notify.success('Pickup Options Updated', `${updated.pickup_options.length} pickup ${updated.pickup_options.length === 1 ? 'location' : 'locations'} saved.`);
      } catch (error) {
        notify.error('Update Failed', messageOf(error, 'Failed to update pickup options. Please try again.'));
      }
    },
    (invalid: FieldErrors<PickupFormValues>) => {
      // Open every option with a problem so its message shows.
      const broken = fields.filter((_, index) => invalid.pickup_options?.[index]).map((field) => field.key);
      openRows(broken);
    },
  );

  return (
    <form onSubmit={(event) => void save(event)} noValidate className="flex flex-col gap-4">
      <p className="text-sm text-stone-600">Where renters can collect the car. Airport and delivery options can carry an extra fee.</p>

      {fields.length === 0 ? (
        <div className="rounded-xl border border-dashed border-stone-300 px-4 py-8 text-center">
          <MapPin className="mx-auto size-6 text-stone-400" aria-hidden="true" />
          <p className="mt-2 text-sm font-medium text-stone-700">No pickup locations yet</p>
          <p className="text-sm text-stone-500">Renters collect the car at {car.pickup_location || 'its location'}.</p>
        </div>
      ) : (
        <ul className="space-y-3">
          {fields.map((field, index) => {
            const value = values[index] ?? field;
            const open = isOpen(field.key);
            const itemErrors = errors?.[index];
            const title = value.name?.trim() || 'New pickup location';
            return (
              <li key={field.key} className={clsx('rounded-xl border p-4', itemErrors ? 'border-red-300' : 'border-stone-200')}>
                <div className="flex items-start justify-between gap-3">
                  <div className="min-w-0">
                    <div className="flex flex-wrap items-center gap-2">
                      <p className="font-semibold text-stone-900">{title}</p>
                      <Badge tone={value.type === 'premium' ? 'brand' : value.type === 'airport' ? 'info' : 'neutral'}>
                        {PICKUP_TYPE_LABELS[value.type ?? 'standard']}
                      </Badge>
                    </div>
                    {!open ? (
                      <>
                        <p className="mt-0.5 truncate text-sm text-stone-500">{value.address || 'No address yet'}</p>
                        <p className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-stone-500">
                          <span className="font-medium text-stone-700">
                            {Number(value.additional_fee) > 0 ? `+${formatRand(Number(value.additional_fee))}` : 'No extra fee'}
                          </span>
                          <span className="inline-flex items-center gap-1">
                            <Clock className="size-3" aria-hidden="true" />
                            {(value.available_times ?? []).join(', ') || DEFAULT_PICKUP_TIMES.join(', ')}
                          </span>
                        </p>
                      </>
                    ) : null}
                  </div>
                  <div className="flex shrink-0 gap-1">
                    {!open ? (
                      <Button size="sm" variant="ghost" icon={<Pencil className="size-4" aria-hidden="true" />} onClick={() => setOpen(field.key, true)} aria-label={`Edit ${title}`}>
                        <span className="hidden sm:inline">Edit</span>
                      </Button>
                    ) : null}
                    <Button
                      size="sm"
                      variant="ghost"
                      className="text-red-600 hover:bg-red-50"
                      icon={<Trash2 className="size-4" aria-hidden="true" />}
                      onClick={() => askToRemove(field.key, title, isBlank(value))}
                      aria-label={`Remove ${title}`}
                    >
                      <span className="hidden sm:inline">Remove</span>
                    </Button>
                  </div>
                </div>

                {open ? (
                  <div className="mt-4 grid gap-4 sm:grid-cols-2">
                    <Input label="Location name" placeholder="e.g. OR Tambo International Airport" {...register(`pickup_options.${index}.name`)} error={itemErrors?.name?.message} />
                    <div>
                      <label htmlFor={`pickup-type-${field.key}`} className="mb-1.5 block text-sm font-medium text-stone-700">
                        Type
                      </label>
                      <select id={`pickup-type-${field.key}`} {...register(`pickup_options.${index}.type`)} className={clsx(inputClasses, 'border-stone-300')}>
                        {PICKUP_OPTION_TYPES.map((type) => (
                          <option key={type} value={type}>
                            {PICKUP_TYPE_LABELS[type]}
                          </option>
                        ))}
                      </select>
                    </div>
                    <Input
                      label="Address"
                      containerClassName="sm:col-span-2"
                      placeholder="Street, suburb, city"
                      {...register(`pickup_options.${index}.address`)}
                      error={itemErrors?.address?.message}
                    />
                    <Input
                      label="Additional fee (R)"
                      type="number"
                      inputMode="decimal"
                      min={0}
                      step={10}
                      {...register(`pickup_options.${index}.additional_fee`)}
                      error={itemErrors?.additional_fee?.message}
                    />
                    <div className="sm:col-span-2">
                      <Controller
                        control={control}
                        name={`pickup_options.${index}.available_times`}
                        render={({ field: timesField, fieldState }) => (
                          <TimesField value={timesField.value ?? []} onChange={timesField.onChange} error={fieldState.error?.message ?? itemErrors?.available_times?.message} />
                        )}
                      />
                    </div>
                    <div className="flex justify-end sm:col-span-2">
                      <Button
                        size="sm"
                        variant="secondary"
                        onClick={() => {
                          void trigger(`pickup_options.${index}`).then((valid) => valid && setOpen(field.key, false));
                        }}
                      >
                        Done
                      </Button>
                    </div>
                  </div>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}

      <OptionsEditorFooter
        addLabel="Add Pickup Location"
        saveLabel="Save Pickup Options"
        onAdd={() => {
          openWhenAppended();
          append(newPickupOption(), { shouldFocus: false });
        }}
        isDirty={formState.isDirty}
        isSaving={mutation.isPending}
      />

      <ConfirmDialog
        open={removing !== null}
        tone="danger"
        title={`Remove ${removing?.title ?? 'this pickup location'}?`}
        description="Renters will no longer be able to choose it once you save."
        confirmLabel="Remove"
        onConfirm={() => removing && removeRow(removing.key)}
        onClose={() => setRemoving(null)}
      />
    </form>
  );
}
