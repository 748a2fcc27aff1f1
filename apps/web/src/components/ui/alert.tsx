import { clsx } from 'clsx';
import { AlertTriangle, CheckCircle2, Info, XCircle } from 'lucide-react';
import type { ReactNode } from 'react';

export type AlertTone = 'info' | 'success' | 'warning' | 'danger';

const tones: Record<AlertTone, { box: string; icon: ReactNode }> = {
  info: { box: 'border-sky-200 bg-sky-50 text-sky-900', icon: <Info className="size-5 text-sky-600" aria-hidden="true" /> },
  success: { box: 'border-emerald-200 bg-emerald-50 text-emerald-900', icon: <CheckCircle2 className="size-5 text-emerald-600" aria-hidden="true" /> },
  warning: { box: 'border-amber-200 bg-amber-50 text-amber-900', icon: <AlertTriangle className="size-5 text-amber-600" aria-hidden="true" /> },
  danger: { box: 'border-red-200 bg-red-50 text-red-900', icon: <XCircle className="size-5 text-red-600" aria-hidden="true" /> },
};

export interface AlertProps {
  tone?: AlertTone;
  title?: ReactNode;
  children?: ReactNode;
  className?: string;
  /** role=alert for errors that appear after an action; omit for static notices. */
  role?: 'alert' | 'status';
}

/** An inline notice box (not a toast). */
export function Alert({ tone = 'info', title, children, className, role }: AlertProps) {
  const { box, icon } = tones[tone];
  return (
    <div role={role} className={clsx('flex gap-3 rounded-xl border p-4 text-sm', box, className)}>
      <span className="shrink-0">{icon}</span>
      <div className="min-w-0 space-y-1">
        {title ? <p className="font-semibold">{title}</p> : null}
        {children ? <div className="leading-6 opacity-90">{children}</div> : null}
      </div>
    </div>
  );
}
