// Labelled select, textarea and numeric inputs for the wizard, matching the UI kit's Input.
import { clsx } from 'clsx';
import { useId, type ComponentProps, type ReactNode } from 'react';
import { describedBy, FieldMessage, Input, inputClasses, type InputProps } from '@/components/ui/input';
import { normaliseNumericInput } from '../utils/wizard-draft';

function Label({ htmlFor, children, required }: { htmlFor: string; children: ReactNode; required?: boolean }) {
  return (
    <label htmlFor={htmlFor} className="mb-1.5 block text-sm font-medium text-stone-700">
      {children}
      {required ? (
        <span className="ml-0.5 text-brand-600" aria-hidden="true">
          *
        </span>
      ) : null}
    </label>
  );
}

export interface SelectFieldProps extends Omit<ComponentProps<'select'>, 'id'> {
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
  containerClassName?: string;
}

export function SelectField({ label, error, hint, required, containerClassName, className, children, ...props }: SelectFieldProps) {
  const id = useId();
  const ids = { errorId: `${id}-error`, hintId: `${id}-hint` };
  return (
    <div className={containerClassName}>
      <Label htmlFor={id} required={required}>
        {label}
      </Label>
      <select
        id={id}
        aria-required={required || undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(ids, error, hint)}
        className={clsx(inputClasses, error ? 'border-red-400' : 'border-stone-300', className)}
        {...props}
      >
        {children}
      </select>
      <FieldMessage id={ids.errorId} hintId={ids.hintId} error={error} hint={hint} />
    </div>
  );
}

export interface TextAreaFieldProps extends Omit<ComponentProps<'textarea'>, 'id'> {
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
  containerClassName?: string;
}

export function TextAreaField({ label, error, hint, required, containerClassName, className, ...props }: TextAreaFieldProps) {
  const id = useId();
  const ids = { errorId: `${id}-error`, hintId: `${id}-hint` };
  return (
    <div className={containerClassName}>
      <Label htmlFor={id} required={required}>
        {label}
      </Label>
      <textarea
        id={id}
        aria-required={required || undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(ids, error, hint)}
        className={clsx(inputClasses, error ? 'border-red-400' : 'border-stone-300', className)}
        {...props}
      />
      <FieldMessage id={ids.errorId} hintId={ids.hintId} error={error} hint={hint} />
    </div>
  );
}

export interface TextFieldProps extends InputProps {
  required?: boolean;
}

/** The UI kit's Input with the wizard's required marker. */
export function TextField({ label, required, ...props }: TextFieldProps) {
  return (
    <Input
      label={
        <>
          {label}
          {required ? (
            <span className="ml-0.5 text-brand-600" aria-hidden="true">
              *
            </span>
          ) : null}
        </>
      }
      aria-required={required || undefined}
      {...props}
    />
  );
}

export interface NumericFieldProps extends Omit<TextFieldProps, 'value' | 'onChange' | 'type'> {
  value: number;
  onValueChange: (value: number) => void;
}

/** A whole-number field: leading zeros are stripped and an empty field reads 0. */
export function NumericField({ value, onValueChange, ...props }: NumericFieldProps) {
  return (
    <TextField
      type="text"
      inputMode="numeric"
      autoComplete="off"
      value={String(value)}
      onChange={(event) => onValueChange(normaliseNumericInput(event.target.value))}
      {...props}
    />
  );
}
