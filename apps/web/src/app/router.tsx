// Every route of document 1's route table, with its guard. Screens of later releases render the
// UpcomingPage; /list-car and /signin redirect (decisions.md section 2).
// Only the landing page is in the entry bundle: every other screen is a chunk loaded by its route
// (`lazy`), so the forms (zod, react-hook-form), the map (Leaflet) and the charts stay out of the
// first download (scripts/bundle-size.mjs keeps it under 135 KB gzip).
import type { Car } from '@karoo/shared';
import type { QueryClient } from '@tanstack/react-query';
import { createBrowserRouter, Navigate, type HydrationState, type LoaderFunctionArgs, type RouteObject, type ShouldRevalidateFunctionArgs } from 'react-router';
import { getCar } from '@/features/cars/api/get-car';
import { getCarReviews } from '@/features/cars/api/get-car-reviews';
import { HomePage } from '@/features/home/components/home-page';
import { queryKeys } from '@/lib/query-keys';
import { PATHS } from '@/lib/routes';
import { RedirectKeepingState, RequireAuth } from './guards';
import { RootLayout } from './layout/root-layout';
import { NotFoundPage } from './pages/not-found-page';
import { PageFallback } from './pages/page-fallback';
import { RouteError } from './pages/route-error';

// The app's query cache, for loaders that start a page's request while its code still loads.
let prefetchClient: QueryClient | null = null;

/**
 * What the server renderer (entry-server.tsx) hands the loaders as their `context`: its own query
 * cache for this request. On the server a loader waits for its data, so that the page is rendered
 * with it; in the browser it only starts the request.
 */
export interface ServerLoadContext {
  queryClient: QueryClient;
}

function serverContextOf(context: unknown): ServerLoadContext | null {
  return context && typeof context === 'object' && 'queryClient' in context ? (context as ServerLoadContext) : null;
}

/** The query cache a loader fills, and whether the loader waits for it (on the server). */
function loaderClient(context: unknown): { client: QueryClient | null; wait: boolean } {
  const server = serverContextOf(context);
  return server ? { client: server.queryClient, wait: true } : { client: prefetchClient, wait: false };
}

/**
 * A car page asks for its car and its reviews at once, alongside its code, instead of after it: the
 * photo (the page's largest paint) arrives sooner, and on the server both are in the HTML (a page
 * read without scripts has its reviews, never "Loading reviews…"). The page reads the same cached
 * queries; in the browser nothing waits here.
 */
async function prefetchCar({ params, context }: LoaderFunctionArgs) {
  const id = params.id;
  const { client, wait } = loaderClient(context);
  if (client && id) {
    const loading = client.prefetchQuery({ queryKey: queryKeys.cars.detail(id), queryFn: ({ signal }) => getCar(id, signal) }).then(() => {
      // Under the key the page reads (its car_username; the address may name the car by id).
      const car = client.getQueryData<Car>(queryKeys.cars.detail(id));
      if (!car) return;
      return client.prefetchQuery({ queryKey: queryKeys.reviews.car(car.car_username), queryFn: ({ signal }) => getCarReviews(car.car_username, signal) });
    });
    if (wait) await loading;
    else void loading;
  }
  return null;
}

/** The booking panel keeps its dates in the car page's query (decision 060): that is not a new page to load. */
function sameCarKeepsItsData({ currentUrl, nextUrl, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return currentUrl.pathname === nextUrl.pathname ? false : defaultShouldRevalidate;
}

/** The browse page's first cars, asked for alongside its code (the module is loaded on demand, not in the entry). */
async function prefetchCars({ request, context }: LoaderFunctionArgs) {
  const { client, wait } = loaderClient(context);
  if (client) {
    const loading = import('@/features/cars/api/prefetch-cars').then((m) => m.prefetchFirstCarPage(client, new URL(request.url)));
    if (wait) await loading;
    else void loading;
  }
  return null;
}

/**
 * The source files of the server-rendered pages' lazy routes, as the build's manifest names them
 * (apps/web/dist/.vite/manifest.json): the server puts their chunks in the page's head as
 * modulepreload links (decision 052), so the browser fetches them with the page. Kept beside the
 * imports below; router.test.ts checks that each file exists.
 */
export const SERVER_RENDERED_SOURCES = {
  browse: 'src/app/routes/browse-route.tsx',
  carDetail: 'src/app/routes/car-detail-route.tsx',
} as const;

/** What a route's `handle` may carry: the source of its lazy module (SERVER_RENDERED_SOURCES). */
export interface RouteHandle {
  source?: string;
}

export const routes: RouteObject[] = [
  {
    path: '/',
    element: <RootLayout />,
    errorElement: <RouteError />,
    children: [
      {
        // Errors inside a page keep the navigation and footer around them; so does the placeholder
        // shown while the first page's code loads (opening the app on a lazy route).
        errorElement: <RouteError />,
        HydrateFallback: PageFallback,
        children: [
          { index: true, element: <HomePage /> },
          { path: 'login', lazy: () => import('@/features/auth/components/login-page').then((m) => ({ Component: m.LoginPage })) },
          { path: 'register', lazy: () => import('@/features/auth/components/register-page').then((m) => ({ Component: m.RegisterPage })) },
          {
            path: 'forgot-password',
            lazy: () => import('@/features/auth/components/forgot-password-page').then((m) => ({ Component: m.ForgotPasswordPage })),
          },
          {
            path: 'reset-password',
            lazy: () => import('@/features/auth/components/reset-password-page').then((m) => ({ Component: m.ResetPasswordPage })),
          },
          {
            path: 'sign-in-link',
            lazy: () => import('@/features/auth/components/sign-in-link-page').then((m) => ({ Component: m.SignInLinkPage })),
          },
          { path: 'terms', lazy: () => import('@/features/legal/components/terms-page').then((m) => ({ Component: m.TermsPage })) },
          { path: 'privacy', lazy: () => import('@/features/legal/components/privacy-page').then((m) => ({ Component: m.PrivacyPage })) },
          { path: 'unsubscribe', lazy: () => import('@/features/legal/components/unsubscribe-page').then((m) => ({ Component: m.UnsubscribePage })) },

          {
            path: 'cars',
            loader: prefetchCars,
            handle: { source: SERVER_RENDERED_SOURCES.browse },
            lazy: () => import('./routes/browse-route').then((m) => ({ Component: m.BrowseRoute })),
          },
          {
            path: 'cars/:id',
            loader: prefetchCar,
            shouldRevalidate: sameCarKeepsItsData,
            handle: { source: SERVER_RENDERED_SOURCES.carDetail },
            lazy: () => import('./routes/car-detail-route').then((m) => ({ Component: m.CarDetailRoute })),
          },
          {
            path: 'car/:id',
            loader: prefetchCar,
            shouldRevalidate: sameCarKeepsItsData,
            handle: { source: SERVER_RENDERED_SOURCES.carDetail },
            lazy: () => import('./routes/car-detail-route').then((m) => ({ Component: m.CarDetailRoute })),
          },
          { path: 'become-host', lazy: () => import('./routes/become-host-route').then((m) => ({ Component: m.BecomeHostRoute })) },
          { path: 'list-car', element: <Navigate to={PATHS.becomeHost} replace /> },
          { path: 'signin', element: <RedirectKeepingState to={PATHS.login} /> },

          {
            element: <RequireAuth />,
            children: [
              { path: 'profile', lazy: () => import('./routes/profile-route').then((m) => ({ Component: m.ProfileRoute })) },
              { path: 'profile/privacy', lazy: () => import('./routes/privacy-data-route').then((m) => ({ Component: m.PrivacyDataRoute })) },
              { path: 'dashboard', lazy: () => import('./routes/dashboard-route').then((m) => ({ Component: m.DashboardRoute })) },
              { path: 'my-bookings', lazy: () => import('./routes/my-bookings-route').then((m) => ({ Component: m.MyBookingsRoute })) },
            ],
          },
          {
            element: <RequireAuth role="host" />,
            children: [
              { path: 'host-dashboard', lazy: () => import('./routes/host-dashboard-route').then((m) => ({ Component: m.HostDashboardRoute })) },
              { path: 'earnings', lazy: () => import('./routes/earnings-route').then((m) => ({ Component: m.EarningsRoute })) },
            ],
          },
          {
            element: <RequireAuth role="admin" />,
            children: [
              { path: 'admin', lazy: () => import('@/features/admin/components/admin-panel-page').then((m) => ({ Component: m.AdminPanelPage })) },
              {
                path: 'api-playground',
                lazy: () => import('@/features/dev-tools/components/api-playground-page').then((m) => ({ Component: m.ApiPlaygroundPage })),
              },
              { path: 'api-test', lazy: () => import('@/features/dev-tools/components/api-test-page').then((m) => ({ Component: m.ApiTestPage })) },
            ],
          },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
];

export function createAppRouter(queryClient?: QueryClient, hydrationData?: HydrationState) {
  prefetchClient = queryClient ?? null;
  return createBrowserRouter(routes, hydrationData ? { hydrationData } : {});
}
export type AppRouter = ReturnType<typeof createAppRouter>;
