import { MapPinOff } from 'lucide-react';
import { ButtonLink } from '@/components/ui/button';
import { PATHS } from '@/lib/routes';

export function NotFoundPage() {
  return (
    <div className="flex flex-1 items-center justify-center px-4 py-20">
      <div className="max-w-md text-center">
        <span className="mx-auto flex size-14 items-center justify-center rounded-2xl bg-stone-100 text-stone-500">
          <MapPinOff className="size-7" aria-hidden="true" />
        </span>
        <p className="mt-5 text-sm font-semibold text-brand-700">404</p>
        <h1 className="mt-1 text-3xl font-bold tracking-tight text-stone-900">Page not found</h1>
        <p className="mt-3 text-stone-600">This road doesn&apos;t lead anywhere. The page may have moved, or the address may be mistyped.</p>
        <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
          <ButtonLink to={PATHS.home}>Back to Home</ButtonLink>
          <ButtonLink to={PATHS.cars} variant="secondary">
            Browse cars
          </ButtonLink>
        </div>
      </div>
    </div>
  );
}
