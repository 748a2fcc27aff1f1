import { LEGAL_LAST_UPDATED } from '@karoo/shared';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

export interface LegalSection {
  id: string;
  title: string;
  body: ReactNode;
}

export interface LegalPageProps {
  title: string;
  intro: ReactNode;
  sections: LegalSection[];
  other: { to: string; label: string };
}

/** The shared layout of the Terms and Privacy pages: a contents list beside readable sections. */
export function LegalPage({ title, intro, sections, other }: LegalPageProps) {
  return (
    <div className="bg-white">
      <div className="border-b border-stone-200 bg-gradient-to-b from-brand-50 to-white">
        <div className="mx-auto max-w-5xl px-4 py-12 sm:px-6 lg:px-8">
          <p className="text-sm font-semibold text-brand-700">Legal</p>
          <h1 className="mt-2 text-3xl font-bold tracking-tight text-stone-900 sm:text-4xl">{title}</h1>
          <p className="mt-3 text-sm text-stone-500">Last updated {LEGAL_LAST_UPDATED}</p>
        </div>
      </div>
      <div className="mx-auto grid max-w-5xl gap-10 px-4 py-10 sm:px-6 lg:grid-cols-[14rem_1fr] lg:px-8">
        <nav aria-label="On this page" className="lg:sticky lg:top-24 lg:self-start">
          <p className="text-xs font-semibold tracking-wide text-stone-500 uppercase">On this page</p>
          <ol className="mt-3 space-y-2 text-sm">
            {sections.map((section, index) => (
              <li key={section.id}>
                <a href={`#${section.id}`} className="text-stone-600 hover:text-brand-700">
                  {index + 1}. {section.title}
                </a>
              </li>
            ))}
          </ol>
          <p className="mt-6 text-sm">
            See also:{' '}
            <Link to={other.to} className="font-medium text-brand-700 hover:underline">
              {other.label}
            </Link>
          </p>
        </nav>
        <article className="max-w-2xl text-[15px] leading-7 text-stone-700">
          <div className="space-y-4">{intro}</div>
          {sections.map((section, index) => (
            <section key={section.id} id={section.id} className="mt-10 scroll-mt-24">
              <h2 className="text-xl font-semibold text-stone-900">
                {index + 1}. {section.title}
              </h2>
              <div className="mt-3 space-y-3 [&_li]:ml-5 [&_ul]:list-disc [&_ul]:space-y-1.5">{section.body}</div>
            </section>
          ))}
        </article>
      </div>
    </div>
  );
}
