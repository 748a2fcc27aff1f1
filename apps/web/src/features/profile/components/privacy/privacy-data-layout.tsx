// /profile/privacy: "Privacy and data", the page where a person uses their rights under POPIA
// (docs/decisions/049-popia-rights.md). The layout only arranges the panels the route passes in, so
// each panel (what is held, download, correction, marketing, deletion) stays with the code that owns it.
import { ArrowLeft, ShieldCheck } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { PATHS } from '@/lib/routes';

export interface PrivacySection {
  /** The anchor of the section (/profile/privacy#download). */
  id: string;
  /** The name in the page's contents. */
  title: string;
  content: ReactNode;
}

export interface PrivacyDataLayoutProps {
  sections: PrivacySection[];
}

export function PrivacyDataLayout({ sections }: PrivacyDataLayoutProps) {
  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-8 sm:px-6 lg:px-8 lg:py-10">
      <Link
        to={PATHS.profile}
        className="inline-flex items-center gap-1.5 rounded-lg text-sm font-medium text-stone-600 hover:text-stone-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
      >
        <ArrowLeft className="size-4" aria-hidden="true" />
        Back to profile
      </Link>
      <header className="mt-4 mb-8 flex items-start gap-4">
        <span className="flex size-12 shrink-0 items-center justify-center rounded-2xl bg-brand-50 text-brand-600">
          <ShieldCheck className="size-6" aria-hidden="true" />
        </span>
        <div className="min-w-0">
          <h1 className="text-2xl font-bold tracking-tight text-stone-900 sm:text-3xl">Privacy and data</h1>
          <p className="mt-1.5 max-w-2xl text-sm leading-6 text-stone-600">
            What Karoo keeps about you, why, and what you can do about it: download a copy, correct it, choose what we email you, or
            close your account. These are your rights under the Protection of Personal Information Act (POPIA).{' '}
            <Link to={PATHS.privacy} className="font-semibold text-brand-700 underline underline-offset-2">
              Read the privacy notice
            </Link>
            .
          </p>
        </div>
      </header>
      <div className="grid gap-6 lg:grid-cols-[14rem_minmax(0,1fr)] lg:gap-10">
        <nav aria-label="On this page" className="hidden lg:block">
          <ul className="sticky top-24 space-y-1 text-sm">
            {sections.map((section) => (
              <li key={section.id}>
                <a
                  href={`#${section.id}`}
                  className="block rounded-lg px-3 py-2 font-medium text-stone-600 hover:bg-stone-100 hover:text-stone-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
                >
                  {section.title}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="min-w-0 space-y-6">
          {sections.map((section) => (
            <div key={section.id} id={section.id} className="scroll-mt-24">
              {section.content}
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}
