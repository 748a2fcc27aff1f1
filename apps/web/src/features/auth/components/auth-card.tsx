import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Logo } from '@/components/ui/logo';

export interface AuthCardProps {
  title: ReactNode;
  subtitle?: ReactNode;
  icon?: ReactNode;
  children: ReactNode;
  /** Under the card: "Don't have an account?" and similar links. */
  footer?: ReactNode;
  wide?: boolean;
}

/** The centred card every sign-in page uses, on a soft warm background. */
export function AuthCard({ title, subtitle, icon, children, footer, wide = false }: AuthCardProps) {
  return (
    <div className="relative flex flex-1 items-start justify-center overflow-hidden bg-gradient-to-b from-brand-50 via-stone-50 to-stone-50 px-4 py-10 sm:items-center sm:py-16">
      <div
        aria-hidden="true"
        className="pointer-events-none absolute -top-40 left-1/2 size-[36rem] -translate-x-1/2 rounded-full bg-brand-200/30 blur-3xl"
      />
      <div className={`relative w-full ${wide ? 'max-w-xl' : 'max-w-md'}`}>
        <div className="mb-6 flex justify-center">
          <Link to="/" aria-label="Karoo home" className="rounded-lg focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500">
            <Logo />
          </Link>
        </div>
        <div className="rounded-2xl border border-stone-200/80 bg-white p-6 shadow-pop sm:p-8">
          <div className="mb-6 text-center">
            {icon ? (
              <div className="mx-auto mb-4 flex size-12 items-center justify-center rounded-2xl bg-brand-50 text-brand-600">{icon}</div>
            ) : null}
            <h1 className="text-2xl font-bold tracking-tight text-stone-900">{title}</h1>
            {subtitle ? <p className="mt-2 text-sm text-stone-500">{subtitle}</p> : null}
          </div>
          {children}
        </div>
        {footer ? <div className="mt-6 text-center text-sm text-stone-600">{footer}</div> : null}
      </div>
    </div>
  );
}

export function BackHomeLink() {
  return (
    <Link to="/" className="font-medium text-stone-500 underline-offset-4 hover:text-stone-700 hover:underline">
      ← Back to home
    </Link>
  );
}
