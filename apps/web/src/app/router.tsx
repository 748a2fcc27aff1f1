// Every route of document 1's route table, with its guard. Screens of later releases render the
// UpcomingPage; /list-car and /signin redirect (decisions.md section 2).
// Only the landing page is in the entry bundle: every other screen is a chunk loaded by its route
// (`lazy`), so the forms (zod, react-hook-form), the map (Leaflet) and the charts stay out of the
// first download (scripts/bundle-size.mjs keeps it under 150 KB gzip).
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { HomePage } from '@/features/home/components/home-page';
import { PATHS } from '@/lib/routes';
import { RedirectKeepingState, RequireAuth } from './guards';
import { RootLayout } from './layout/root-layout';
import { NotFoundPage } from './pages/not-found-page';
import { RouteError } from './pages/route-error';

export const routes: RouteObject[] = [
  {
    path: '/',
    element: <RootLayout />,
    errorElement: <RouteError />,
    children: [
      {
        // Errors inside a page keep the navigation and footer around them.
        errorElement: <RouteError />,
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
          { path: 'terms', lazy: () => import('@/features/legal/components/terms-page').then((m) => ({ Component: m.TermsPage })) },
          { path: 'privacy', lazy: () => import('@/features/legal/components/privacy-page').then((m) => ({ Component: m.PrivacyPage })) },

          { path: 'cars', lazy: () => import('./routes/browse-route').then((m) => ({ Component: m.BrowseRoute })) },
          { path: 'cars/:id', lazy: () => import('./routes/car-detail-route').then((m) => ({ Component: m.CarDetailRoute })) },
          { path: 'car/:id', lazy: () => import('./routes/car-detail-route').then((m) => ({ Component: m.CarDetailRoute })) },
          { path: 'become-host', lazy: () => import('./routes/become-host-route').then((m) => ({ Component: m.BecomeHostRoute })) },
          { path: 'list-car', element: <Navigate to={PATHS.becomeHost} replace /> },
          { path: 'signin', element: <RedirectKeepingState to={PATHS.login} /> },

          {
            element: <RequireAuth />,
            children: [
              { path: 'profile', lazy: () => import('./routes/profile-route').then((m) => ({ Component: m.ProfileRoute })) },
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

export function createAppRouter() {
  return createBrowserRouter(routes);
}
export type AppRouter = ReturnType<typeof createAppRouter>;
