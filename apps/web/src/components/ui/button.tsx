import { clsx } from 'clsx';
import type { ComponentProps, ReactNode } from 'react';
import { Link, type LinkProps } from 'react-router';
import { Spinner } from './spinner';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger' | 'danger-outline' | 'success' | 'subtle' | 'inverse';
export type ButtonSize = 'sm' | 'md' | 'lg';

const base =
  'inline-flex items-center justify-center gap-2 rounded-xl font-semibold whitespace-nowrap transition-colors ' +
  'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-offset-2 ' +
  'disabled:cursor-not-allowed disabled:opacity-60';

const variants: Record<ButtonVariant, string> = {
  primary: 'bg-brand-600 text-white shadow-sm hover:bg-brand-700 active:bg-brand-800',
  secondary: 'border border-stone-300 bg-white text-stone-800 shadow-sm hover:bg-stone-50 hover:border-stone-400',
  ghost: 'text-stone-700 hover:bg-stone-100',
  danger: 'bg-red-600 text-white shadow-sm hover:bg-red-700',
  /** A refusal that is not the page's main action (Reject next to Accept). */
  'danger-outline': 'border border-red-300 bg-white text-red-700 shadow-sm hover:bg-red-50 hover:border-red-400',
  /** A positive decision (Accept). */
  success: 'bg-emerald-700 text-white shadow-sm hover:bg-emerald-800 active:bg-emerald-900',
  subtle: 'bg-brand-50 text-brand-700 hover:bg-brand-100',
  inverse: 'bg-white text-stone-900 shadow-sm hover:bg-brand-50',
};

const sizes: Record<ButtonSize, string> = {
  sm: 'h-9 px-3 text-sm',
  md: 'h-11 px-4 text-sm',
  lg: 'h-12 px-6 text-base',
};

export function buttonClasses(options: { variant?: ButtonVariant; size?: ButtonSize; block?: boolean; className?: string } = {}) {
  return clsx(base, variants[options.variant ?? 'primary'], sizes[options.size ?? 'md'], options.block && 'w-full', options.className);
}

export interface ButtonProps extends ComponentProps<'button'> {
  variant?: ButtonVariant;
  size?: ButtonSize;
  block?: boolean;
  /** Shows a spinner, disables the button and marks it busy; the children should say what is happening. */
  loading?: boolean;
  icon?: ReactNode;
}

export function Button({ variant, size, block, loading = false, icon, className, children, disabled, type = 'button', ...props }: ButtonProps) {
  return (
    <button
      type={type}
      className={buttonClasses({ variant, size, block, className })}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      {...props}
    >
      {loading ? <Spinner /> : icon}
      {children}
    </button>
  );
}

export interface ButtonLinkProps extends LinkProps {
  variant?: ButtonVariant;
  size?: ButtonSize;
  block?: boolean;
  icon?: ReactNode;
}

export function ButtonLink({ variant, size, block, icon, className, children, ...props }: ButtonLinkProps) {
  return (
    <Link className={buttonClasses({ variant, size, block, className: typeof className === 'string' ? className : undefined })} {...props}>
      {icon}
      {children}
    </Link>
  );
}
