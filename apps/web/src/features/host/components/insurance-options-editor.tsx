// Manage Details > Insurance plans: list, add, edit and remove a car's insurance plans, then save
// the whole list. Rules (document 2 section 5) come from the shared schema: name and description
// required; daily rate and excess 0 or more, default 0; coverage typed as comma-separated text.
import { zodResolver } from '@hookform/resolvers/zod';
import { updateInsuranceOptionsBodySchema, type Car, type InsuranceOption, type InsuranceOptionInput } from '@karoo/shared';
import { clsx } from 'clsx';
import { Pencil, ShieldCheck, Trash2 } from 'lucide-react';
import { useCallback, useId, useState, type ComponentProps } from 'react';
import { useFieldArray, useForm, type FieldErrors } from 'react-hook-form';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Checkbox } from '@/components/ui/checkbox';
import { Input, inputClasses } from '@/components/ui/input';
import { useNotification } from '@/components/ui/toast';
import { messageOf } from '@/lib/api-client';
import { formatRand } from '@/lib/format';
import { useUpdateInsuranceOptions } from '../api/update-insurance-options';
import { useEditingRows } from '../hooks/use-editing-rows';
import { OptionsEditorFooter } from './options-editor-footer';

interface InsuranceFormValues {
  insurance_options: InsuranceOptionInput[];
}

export function newInsuranceOption(): InsuranceOptionInput {
  return { name: '', description: '', daily_rate: 0, excess_amount: 0, coverage: '', included: false, popular: false, recommended: false };
}

function toFormOption(option: InsuranceOption): InsuranceOptionInput {
  return { ...option, coverage: option.coverage.join(', ') };
}

/** A plan added a moment ago and not filled in: removing it loses nothing, so no confirmation. */
function isBlank(option: Partial<InsuranceOptionInput>): boolean {
  return !option.id && !option.name?.trim() && !option.description?.trim();
}

/** Coverage as the form holds it (text) or as saved (a list), as a list. */
export function coverageList(coverage: InsuranceOptionInput['coverage']): string[] {
  if (!coverage) return [];
  return (Array.isArray(coverage) ? coverage : coverage.split(',')).map((item) => item.trim()).filter(Boolean);
}

function DescriptionField({ id, error, ...props }: { id: string; error?: string } & ComponentProps<'textarea'>) {
  const errorId = `${id}-error`;
  return (
    <div className="sm:col-span-2">
      <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-stone-700">
        Description
      </label>
      <textarea
        id={id}
        rows={2}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        className={clsx(inputClasses, error ? 'border-red-400' : 'border-stone-300')}
        {...props}
      />
      {error ? (
        <p id={errorId} role="alert" className="mt-1.5 text-sm font-medium text-red-600">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export function InsuranceOptionsEditor({ car, username }: { car: Car; username: string }) {
  const notify = useNotification();
  const idPrefix = useId();
  const mutation = useUpdateInsuranceOptions(username);
  const form = useForm({
    resolver: zodResolver(updateInsuranceOptionsBodySchema),
    defaultValues: { insurance_options: car.insurance_options.map(toFormOption) } satisfies InsuranceFormValues,
  });
  const { control, register, handleSubmit, trigger, reset, watch, setFocus, formState } = form;
  // Plans carry their own `id`, so the array's React keys live under `key`.
  const { fields, append, remove } = useFieldArray({ control, name: 'insurance_options', keyName: 'key' });
  const focusName = useCallback((index: number) => setFocus(`insurance_options.${index}.name`), [setFocus]);
  const { isOpen, setOpen, openRows, closeAll, openWhenAppended } = useEditingRows(fields, focusName);
  const values = watch('insurance_options');
  const errors = formState.errors.insurance_options;
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
        const updated = await mutation.mutateAsync({ carId: car.id, insuranceOptions: data.insurance_options });
        reset({ insurance_options: updated.insurance_options.map(toFormOption) });
        closeAll();
        notify.success('Insurance Options Updated', `${updated.insurance_options.length} insurance ${updated.insurance_options.length === 1 ? 'plan' : 'plans'} saved.`);
      } catch (error) {
        notify.error('Update Failed', messageOf(error, 'Failed to update insurance options. Please try again.'));
      }
    },
    (invalid: FieldErrors<InsuranceFormValues>) => {
      const broken = fields.filter((_, index) => invalid.insurance_options?.[index]).map((field) => field.key);
      openRows(broken);
    },
  );

  return (
    <form onSubmit={(event) => void save(event)} noValidate className="flex flex-col gap-4">
      <p className="text-sm text-stone-600">Protection plans renters can add to a trip, charged per day on top of the rental.</p>

      {fields.length === 0 ? (
        <div className="rounded-xl border border-dashed border-stone-300 px-4 py-8 text-center">
          <ShieldCheck className="mx-auto size-6 text-stone-400" aria-hidden="true" />
          <p className="mt-2 text-sm font-medium text-stone-700">No insurance plans yet</p>
          <p className="text-sm text-stone-500">Add a plan so renters can choose their cover.</p>
        </div>
      ) : (
        <ul className="space-y-3">
          {fields.map((field, index) => {
            const value = values[index] ?? field;
            const open = isOpen(field.key);
            const itemErrors = errors?.[index];
            const title = value.name?.trim() || 'New insurance plan';
            const coverage = coverageList(value.coverage);
            return (
              <li key={field.key} className={clsx('rounded-xl border p-4', itemErrors ? 'border-red-300' : 'border-stone-200')}>
                <div className="flex items-start justify-between gap-3">
                  <div className="min-w-0">
                    <div className="flex flex-wrap items-center gap-2">
                      <p className="font-semibold text-stone-900">{title}</p>
                      {value.included ? <Badge tone="success">Included</Badge> : null}
                      {value.popular ? <Badge tone="brand">Popular</Badge> : null}
                      {value.recommended ? <Badge tone="info">Recommended</Badge> : null}
                    </div>
                    {!open ? (
                      <>
                        <p className="mt-0.5 line-clamp-2 text-sm text-stone-500">{value.description || 'No description yet'}</p>
                        <p className="mt-1 flex flex-wrap gap-x-3 gap-y-1 text-xs text-stone-500">
                          <span className="font-medium text-stone-700">
                            {Number(value.daily_rate) > 0 ? `${formatRand(Number(value.daily_rate))}/day` : 'Free'}
                          </span>
                          <span>Excess {formatRand(Number(value.excess_amount) || 0)}</span>
                          {coverage.length ? <span>{coverage.length} covered items</span> : null}
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
                    <Input
                      label="Plan name"
                      containerClassName="sm:col-span-2"
                      placeholder="e.g. Comprehensive Cover"
                      {...register(`insurance_options.${index}.name`)}
                      error={itemErrors?.name?.message}
                    />
                    <DescriptionField
                      id={`${idPrefix}-description-${field.key}`}
                      placeholder="What the plan covers and what the renter pays in a claim"
                      {...register(`insurance_options.${index}.description`)}
                      error={itemErrors?.description?.message}
                    />
                    <Input
                      label="Daily rate (R)"
                      type="number"
                      inputMode="decimal"
                      min={0}
                      step={10}
                      {...register(`insurance_options.${index}.daily_rate`)}
                      error={itemErrors?.daily_rate?.message}
                    />
                    <Input
                      label="Excess amount (R)"
                      type="number"
                      inputMode="decimal"
                      min={0}
                      step={500}
                      {...register(`insurance_options.${index}.excess_amount`)}
                      error={itemErrors?.excess_amount?.message}
                    />
                    <Input
                      label="Coverage"
                      containerClassName="sm:col-span-2"
                      placeholder="Collision damage, Theft, Windscreen"
                      hint="Separate items with commas."
                      {...register(`insurance_options.${index}.coverage`)}
                      error={itemErrors?.coverage?.message}
                    />
                    <div className="flex flex-wrap gap-x-6 gap-y-2 sm:col-span-2">
                      <Checkbox label="Included" {...register(`insurance_options.${index}.included`)} />
                      <Checkbox label="Popular" {...register(`insurance_options.${index}.popular`)} />
                      <Checkbox label="Recommended" {...register(`insurance_options.${index}.recommended`)} />
                    </div>
                    <div className="flex justify-end sm:col-span-2">
                      <Button
                        size="sm"
                        variant="secondary"
                        onClick={() => {
                          void trigger(`insurance_options.${index}`).then((valid) => valid && setOpen(field.key, false));
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
        addLabel="Add Insurance Plan"
        saveLabel="Save Insurance Plans"
        onAdd={() => {
          openWhenAppended();
          append(newInsuranceOption(), { shouldFocus: false });
        }}
        isDirty={formState.isDirty}
        isSaving={mutation.isPending}
      />

      <ConfirmDialog
        open={removing !== null}
        tone="danger"
        title={`Remove ${removing?.title ?? 'this insurance plan'}?`}
        description="Renters will no longer be able to choose it once you save."
        confirmLabel="Remove"
        onConfirm={() => removing && removeRow(removing.key)}
        onClose={() => setRemoving(null)}
      />
    </form>
  );
}
