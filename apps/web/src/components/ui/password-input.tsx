import { clsx } from 'clsx';
import { Eye, EyeOff } from 'lucide-react';
import { useId, useState, type ReactNode } from 'react';
import { describedBy, FieldMessage, inputClasses, type InputProps } from './input';

export type PasswordInputProps = Omit<InputProps, 'type' | 'leading'> & { children?: ReactNode };

/**
 * A labelled password input with a show/hide toggle. The toggle's name ("Show password") never
 * repeats the field's label, so a label lookup finds exactly one control.
 */
export function PasswordInput({ label, error, hint, id, labelAside, className, containerClassName, children, ...props }: PasswordInputProps) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const ids = { errorId: `${inputId}-error`, hintId: `${inputId}-hint` };
  const [visible, setVisible] = useState(false);
  return (
    <div className={containerClassName}>
      <div className="mb-1.5 flex items-center justify-between gap-2">
        <label htmlFor={inputId} className="text-sm font-medium text-stone-700">
          {label}
        </label>
        {labelAside}
      </div>
      <div className="relative">
        <input
          id={inputId}
          type={visible ? 'text' : 'password'}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(ids, error, hint)}
          className={clsx(
            inputClasses,
            'pr-12',
            error ? 'border-red-400 focus:border-red-500 focus:ring-red-500/20' : 'border-stone-300',
            className,
          )}
          {...props}
        />
        <button
          type="button"
          onClick={() => setVisible((v) => !v)}
          aria-label={visible ? 'Hide password' : 'Show password'}
          aria-pressed={visible}
          className="absolute inset-y-0 right-1 my-1 flex w-10 items-center justify-center rounded-lg text-stone-500 hover:bg-stone-100 hover:text-stone-700 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
        >
          {visible ? <EyeOff className="size-5" aria-hidden="true" /> : <Eye className="size-5" aria-hidden="true" />}
        </button>
      </div>
      {children}
      <FieldMessage id={ids.errorId} hintId={ids.hintId} error={error} hint={hint} />
    </div>
  );
}
