// The frame of every page: navigation, the verification banner, the page, the footer.
import { lazy, Suspense } from 'react';
import { Outlet, ScrollRestoration, useLocation } from 'react-router';
import { usePolicies } from '@/features/legal/api/policies';
import { VerificationBanner } from '@/features/verification/components/verification-banner';
import { useAuth } from '@/lib/auth';
import { PATHS } from '@/lib/routes';
import { PageFallback } from '../pages/page-fallback';
import { Footer } from './footer';
import { Navbar } from './navbar';

const PolicyAcceptance = lazy(() => import('@/features/legal/components/policy-acceptance').then((m) => ({ default: m.PolicyAcceptance })));

/**
 * The page, or, for a signed-in person who has not accepted the current terms or privacy notice,
 * the acceptance screen in its place until they do (decision 049). The two texts stay readable.
 */
function PageOrPolicyAcceptance() {
  const { user } = useAuth();
  const policies = usePolicies(user?.id);
  const { pathname } = useLocation();
  const pending = !!user && !!policies.data?.some((policy) => policy.needs_acceptance) && pathname !== PATHS.terms && pathname !== PATHS.privacy;
  if (!pending || !policies.data) return <Outlet />;
  return (
    <Suspense fallback={<PageFallback />}>
      <PolicyAcceptance policies={policies.data} />
    </Suspense>
  );
}

export function RootLayout() {
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:z-[100] focus:rounded-lg focus:bg-white focus:px-4 focus:py-2 focus:shadow-pop"
      >
        Skip to content
      </a>
      <Navbar />
      <VerificationBanner />
      <main id="main" className="flex flex-1 flex-col">
        <PageOrPolicyAcceptance />
      </main>
      <Footer />
      <ScrollRestoration />
    </div>
  );
}
