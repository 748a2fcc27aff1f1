// Shown in the page's place, between the navigation and the footer, while the first screen's code
// loads (React Router's HydrateFallback for lazy routes). A viewport tall, so the footer stays
// below the fold and nothing moves when the page arrives.
import { Spinner } from '@/components/ui/spinner';

export function PageFallback() {
  return (
    <div className="flex min-h-dvh items-start justify-center pt-24 text-stone-500" data-testid="page-fallback">
      <Spinner className="size-6" label="Loading the page" />
    </div>
  );
}
