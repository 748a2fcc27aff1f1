import { SUPPORT_EMAIL } from '@karoo/shared';
import { Mail } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Logo } from '@/components/ui/logo';
import { PATHS } from '@/lib/routes';

const linkClass = 'text-sm text-stone-600 hover:text-brand-700 focus-visible:outline-none focus-visible:underline';

function Column({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div>
      <h2 className="text-sm font-semibold text-stone-900">{title}</h2>
      <ul className="mt-3 space-y-2.5">{children}</ul>
    </div>
  );
}

export function Footer() {
  return (
    <footer className="border-t border-stone-200 bg-white">
      <div className="mx-auto max-w-7xl px-4 py-12 sm:px-6 lg:px-8">
        <div className="grid gap-10 sm:grid-cols-2 lg:grid-cols-[2fr_1fr_1fr_1.5fr]">
          <div className="max-w-xs">
            <Logo />
            <p className="mt-3 text-sm leading-6 text-stone-600">
              Peer-to-peer car rental across South Africa. Rent from verified local hosts, or share your own car.
            </p>
          </div>
          <Column title="Quick links">
            <li>
              <Link to={PATHS.home} className={linkClass}>
                Home
              </Link>
            </li>
            <li>
              <Link to={PATHS.cars} className={linkClass}>
                Browse cars
              </Link>
            </li>
            <li>
              <Link to={PATHS.becomeHost} className={linkClass}>
                Become a host
              </Link>
            </li>
            <li>
              <Link to={PATHS.profile} className={linkClass}>
                Your account
              </Link>
            </li>
          </Column>
          <Column title="Legal">
            <li>
              <Link to={PATHS.terms} className={linkClass}>
                Terms of Service
              </Link>
            </li>
            <li>
              <Link to={PATHS.privacy} className={linkClass}>
                Privacy Policy
              </Link>
            </li>
          </Column>
          <Column title="Support">
            <li className="text-sm text-stone-600">Questions about a trip, a payment or your account?</li>
            <li>
              <a href={`mailto:${SUPPORT_EMAIL}`} className={`${linkClass} inline-flex items-center gap-2 font-medium text-brand-700`}>
                <Mail className="size-4" aria-hidden="true" />
                {SUPPORT_EMAIL}
              </a>
            </li>
          </Column>
        </div>
        <div className="mt-10 flex flex-col gap-2 border-t border-stone-100 pt-6 text-xs text-stone-500 sm:flex-row sm:justify-between">
          {/* The year is the browser's own: a server-rendered page may have been rendered on another clock (decision 044). */}
          <p suppressHydrationWarning>© {new Date().getFullYear()} Karoo. All rights reserved.</p>
          <p>Prices in South African rand (ZAR). Made in South Africa.</p>
        </div>
      </div>
    </footer>
  );
}
