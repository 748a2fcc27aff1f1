// Manage Details > Insurance plans: list, add, edit and remove a car's insurance plans, then save
// the whole list. Rules (document 2 section 5) come from the shared schema: name and description
// required; daily rate and excess 0 or more, default 0; coverage typed as comma-separated text.
// The list itself (rows, remove, save) is the OptionsEditor; this file is what a plan holds.
import { zodResolver } from '@hookform/resolvers/zod';
import { updateInsuranceOptionsBodySchema, type Car, type InsuranceOptionInput } from '@karoo/shared';
import { clsx } from 'clsx';
import { ShieldCheck } from 'lucide-react';
import type { ComponentProps } from 'react';
import { Badge } from '@/components/ui/badge';
import { Checkbox } from '@/components/ui/checkbox';
import { Input, inputClasses } from '@/components/ui/input';
import { formatRand } from '@/lib/format';
import { useUpdateInsuranceOptions } from '../api/update-insurance-options';
import { OptionsEditor, type OptionFieldSet, type OptionRow } from './options-editor';

export function newInsuranceOption(): InsuranceOptionInput {
  return { name: '', description: '', daily_rate: 0, excess_amount: 0, coverage: '', included: false, popular: false, recommended: false };
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

function InsuranceBadges({ option }: { option: InsuranceOptionInput }) {
  return (
    <>
      {option.included ? <Badge tone="success">Included</Badge> : null}
      {option.popular ? <Badge tone="brand">Popular</Badge> : null}
      {option.recommended ? <Badge tone="info">Recommended</Badge> : null}
    </>
  );
}

function InsuranceSummary({ option }: { option: InsuranceOptionInput }) {
  const coverage = coverageList(option.coverage);
  return (
    <>
      <p className="mt-0.5 line-clamp-2 text-sm text-stone-500">{option.description || 'No description yet'}</p>
      <p className="mt-1 flex flex-wrap gap-x-3 gap-y-1 text-xs text-stone-500">
        <span className="font-medium text-stone-700">{Number(option.daily_rate) > 0 ? `${formatRand(Number(option.daily_rate))}/day` : 'Free'}</span>
        <span>Excess {formatRand(Number(option.excess_amount) || 0)}</span>
        {coverage.length ? <span>{coverage.length} covered items</span> : null}
      </p>
    </>
  );
}

function InsuranceFields({ row }: { row: OptionRow<InsuranceOptionInput> }) {
  return (
    <>
      <Input label="Plan name" containerClassName="sm:col-span-2" placeholder="e.g. Comprehensive Cover" {...row.register('name')} error={row.error('name')} />
      <DescriptionField
        id={`${row.id}-description`}
        placeholder="What the plan covers and what the renter pays in a claim"
        {...row.register('description')}
        error={row.error('description')}
      />
      <Input label="Daily rate (R)" type="number" inputMode="decimal" min={0} step={10} {...row.register('daily_rate')} error={row.error('daily_rate')} />
      <Input label="Excess amount (R)" type="number" inputMode="decimal" min={0} step={500} {...row.register('excess_amount')} error={row.error('excess_amount')} />
      <Input
        label="Coverage"
        containerClassName="sm:col-span-2"
        placeholder="Collision damage, Theft, Windscreen"
        hint="Separate items with commas."
        {...row.register('coverage')}
        error={row.error('coverage')}
      />
      <div className="flex flex-wrap gap-x-6 gap-y-2 sm:col-span-2">
        <Checkbox label="Included" {...row.register('included')} />
        <Checkbox label="Popular" {...row.register('popular')} />
        <Checkbox label="Recommended" {...row.register('recommended')} />
      </div>
    </>
  );
}

const insuranceFieldSet: OptionFieldSet<'insurance_options', InsuranceOptionInput> = {
  listKey: 'insurance_options',
  resolver: zodResolver(updateInsuranceOptionsBodySchema),
  toFormOption: (option) => ({ ...option, coverage: option.coverage.join(', ') }),
  newOption: newInsuranceOption,
  isBlank: (option) => !option.id && !option.name?.trim() && !option.description?.trim(),
  icon: ShieldCheck,
  text: {
    intro: 'Protection plans renters can add to a trip, charged per day on top of the rental.',
    emptyTitle: 'No insurance plans yet',
    emptyText: () => 'Add a plan so renters can choose their cover.',
    untitled: 'New insurance plan',
    removeFallback: 'this insurance plan',
    add: 'Add Insurance Plan',
    save: 'Save Insurance Plans',
    savedTitle: 'Insurance Options Updated',
    savedText: (count) => `${count} insurance ${count === 1 ? 'plan' : 'plans'} saved.`,
    failedText: 'Failed to update insurance options. Please try again.',
  },
  Badges: InsuranceBadges,
  Summary: InsuranceSummary,
  Fields: InsuranceFields,
};

export function InsuranceOptionsEditor({ car, username }: { car: Car; username: string }) {
  const mutation = useUpdateInsuranceOptions(username);
  return (
    <OptionsEditor
      car={car}
      fieldSet={insuranceFieldSet}
      save={(insuranceOptions) => mutation.mutateAsync({ carId: car.id, insuranceOptions })}
      isSaving={mutation.isPending}
    />
  );
}
