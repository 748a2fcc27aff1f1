import { clsx } from 'clsx';
import type { ComponentProps, ReactNode } from 'react';

export function Card({ className, ...props }: ComponentProps<'section'>) {
  return <section className={clsx('rounded-2xl border border-stone-200/80 bg-white shadow-card', className)} {...props} />;
}

export interface CardHeaderProps {
  title: ReactNode;
  description?: ReactNode;
  icon?: ReactNode;
  actions?: ReactNode;
  /** The heading level; cards inside a page are usually h2. */
  as?: 'h2' | 'h3';
  className?: string;
}

export function CardHeader({ title, description, icon, actions, as: Heading = 'h2', className }: CardHeaderProps) {
  return (
    // On a phone the actions go under the title once it would be squeezed below 16rem.
    <div className={clsx('flex flex-wrap items-start justify-between gap-3 border-b border-stone-100 px-5 py-4 sm:px-6', className)}>
      <div className="flex min-w-0 flex-[1_1_16rem] items-start gap-3">
        {icon ? <span className="mt-0.5 flex size-9 shrink-0 items-center justify-center rounded-xl bg-brand-50 text-brand-600">{icon}</span> : null}
        <div className="min-w-0">
          <Heading className="text-base font-semibold text-stone-900">{title}</Heading>
          {description ? <p className="mt-0.5 text-sm text-stone-500">{description}</p> : null}
        </div>
      </div>
      {actions ? <div className="flex shrink-0 items-center gap-2">{actions}</div> : null}
    </div>
  );
}

export function CardBody({ className, ...props }: ComponentProps<'div'>) {
  return <div className={clsx('px-5 py-5 sm:px-6', className)} {...props} />;
}
