// The frame of every page: navigation, the verification banner, the page, the footer.
import { Outlet, ScrollRestoration } from 'react-router';
import { VerificationBanner } from '@/features/verification/components/verification-banner';
import { Footer } from './footer';
import { Navbar } from './navbar';

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
        <Outlet />
      </main>
      <Footer />
      <ScrollRestoration />
    </div>
  );
}
