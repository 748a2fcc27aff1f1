// The honest stand-in for screens that arrive with a later release (docs/decisions/006): the
// route, its guard and the navigation already work; the screen says when it is coming.
import { Construction } from 'lucide-react';
import { ButtonLink } from '@/components/ui/button';
import { PATHS } from '@/lib/routes';

export type Release = 'administration';

const RELEASES: Record<Release, string> = {
  administration: 'the administration release',
};

export function UpcomingPage({ title, release }: { title: string; release: Release }) {
  return (
    <div className="flex flex-1 items-center justify-center px-4 py-20">
      <div className="w-full max-w-lg rounded-2xl border border-stone-200 bg-white p-8 text-center shadow-card sm:p-10">
        <span className="mx-auto flex size-14 items-center justify-center rounded-2xl bg-brand-50 text-brand-600">
          <Construction className="size-7" aria-hidden="true" />
        </span>
        <h1 className="mt-5 text-2xl font-bold tracking-tight text-stone-900">{title}</h1>
        <p className="mt-3 text-stone-600">This screen arrives with {RELEASES[release]}. Everything about your account is ready today.</p>
        <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
          <ButtonLink to={PATHS.profile}>Go to Profile</ButtonLink>
          <ButtonLink to={PATHS.home} variant="secondary">
            Back to Home
          </ButtonLink>
        </div>
      </div>
    </div>
  );
}
