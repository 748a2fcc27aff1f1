import { clsx } from 'clsx';
import { useId, type ComponentProps, type ReactNode } from 'react';

export interface CheckboxProps extends Omit<ComponentProps<'input'>, 'type' | 'id'> {
  label: ReactNode;
  description?: ReactNode;
  error?: string;
  id?: string;
}

export function Checkbox({ label, description, error, id, className, ...props }: CheckboxProps) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const errorId = `${inputId}-error`;
  return (
    <div className={className}>
      <div className="flex items-start gap-3">
        <input
          id={inputId}
          type="checkbox"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          className={clsx(
            'mt-0.5 size-5 shrink-0 cursor-pointer rounded-md border-stone-300 accent-brand-600',
            'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-offset-2',
          )}
          {...props}
        />
        <div className="text-sm leading-6">
          <label htmlFor={inputId} className="cursor-pointer text-stone-700">
            {label}
          </label>
          {description ? <p className="text-stone-500">{description}</p> : null}
        </div>
      </div>
      {error ? (
        <p id={errorId} role="alert" className="mt-1.5 pl-8 text-sm font-medium text-red-600">
          {error}
        </p>
      ) : null}
    </div>
  );
}
