import { clsx } from 'clsx';
import { useId, type ComponentProps, type ReactNode } from 'react';

export const inputClasses =
  'block w-full rounded-xl border bg-white px-3.5 py-2.5 text-[15px] text-stone-900 shadow-sm placeholder:text-stone-400 ' +
  'transition-colors focus:outline-none focus:ring-2 focus:ring-brand-500/30 focus:border-brand-500 ' +
  'disabled:cursor-not-allowed disabled:bg-stone-100 disabled:text-stone-500 read-only:bg-stone-50';

export interface FieldMessageProps {
  id: string;
  error?: string;
  hint?: ReactNode;
  hintId: string;
}

/** The error (announced, role=alert) or the hint under a control. */
export function FieldMessage({ id, error, hint, hintId }: FieldMessageProps) {
  return (
    <>
      {error ? (
        <p id={id} role="alert" className="mt-1.5 text-sm font-medium text-red-600">
          {error}
        </p>
      ) : null}
      {hint && !error ? (
        <p id={hintId} className="mt-1.5 text-xs text-stone-500">
          {hint}
        </p>
      ) : null}
    </>
  );
}

export function describedBy(ids: { errorId: string; hintId: string }, error?: string, hint?: ReactNode): string | undefined {
  if (error) return ids.errorId;
  if (hint) return ids.hintId;
  return undefined;
}

export interface InputProps extends Omit<ComponentProps<'input'>, 'id'> {
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
  id?: string;
  /** Shown at the end of the label row, e.g. a "Forgot password?" link or a badge. */
  labelAside?: ReactNode;
  leading?: ReactNode;
  containerClassName?: string;
}

/** A labelled text input with its error and hint. */
export function Input({ label, error, hint, id, labelAside, leading, className, containerClassName, ...props }: InputProps) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const ids = { errorId: `${inputId}-error`, hintId: `${inputId}-hint` };
  return (
    <div className={containerClassName}>
      <div className="mb-1.5 flex items-center justify-between gap-2">
        <label htmlFor={inputId} className="text-sm font-medium text-stone-700">
          {label}
        </label>
        {labelAside}
      </div>
      <div className="relative">
        {leading ? (
          <span className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-stone-400">{leading}</span>
        ) : null}
        <input
          id={inputId}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(ids, error, hint)}
          className={clsx(
            inputClasses,
            error ? 'border-red-400 focus:border-red-500 focus:ring-red-500/20' : 'border-stone-300',
            leading && 'pl-10',
            className,
          )}
          {...props}
        />
      </div>
      <FieldMessage id={ids.errorId} hintId={ids.hintId} error={error} hint={hint} />
    </div>
  );
}
