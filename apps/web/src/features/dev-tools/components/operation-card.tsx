// Building blocks of the playground's operation forms: a card per operation, a labelled select and
// the shared shape of the run callback each tab receives.
import { clsx } from 'clsx';
import { useId, type FormEvent, type ReactNode } from 'react';
import { Card, CardHeader } from '@/components/ui/card';
import { inputClasses } from '@/components/ui/input';
import type { ApiResult } from '@/lib/api-client';
import type { OperationResult } from '../api/run-operation';

export interface OperationProps {
  /** Runs one call and shows its answer; `writes` refreshes the app's cached reads afterwards. */
  run: (label: string, call: () => Promise<ApiResult<unknown>>, options?: { writes?: boolean }) => Promise<OperationResult>;
  /** The label of the operation in flight, if any: every run button waits for it. */
  busy: string | null;
}

export function OperationCard({
  title,
  description,
  icon,
  onSubmit,
  children,
  actions,
}: {
  title: string;
  description: ReactNode;
  icon?: ReactNode;
  onSubmit?: () => void;
  children?: ReactNode;
  actions?: ReactNode;
}) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit?.();
  };
  return (
    <Card>
      <CardHeader title={title} description={description} icon={icon} as="h3" />
      <form noValidate onSubmit={submit} className="space-y-4 px-5 py-4 sm:px-6">
        {children ? <div className="grid gap-4 sm:grid-cols-2">{children}</div> : null}
        {actions ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
      </form>
    </Card>
  );
}

export function SelectField({
  label,
  value,
  onChange,
  options,
  className,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: readonly { value: string; label: string }[];
  className?: string;
}) {
  const id = useId();
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-stone-700">
        {label}
      </label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value)} className={clsx(inputClasses, 'border-stone-300')}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Field errors of one form: set on a failed check, cleared field by field as the user types. */
export type FieldErrors<K extends string> = Partial<Record<K, string>>;

/** A value typed by the user counts only when it is more than spaces. */
export const isBlank = (value: string) => value.trim() === '';
