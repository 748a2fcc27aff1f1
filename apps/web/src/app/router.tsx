// Every route of document 1's route table, with its guard. Screens of later releases render the
// UpcomingPage; /list-car and /signin redirect (decisions.md section 2).
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { ForgotPasswordPage } from '@/features/auth/components/forgot-password-page';
import { LoginPage } from '@/features/auth/components/login-page';
import { RegisterPage } from '@/features/auth/components/register-page';
import { ResetPasswordPage } from '@/features/auth/components/reset-password-page';
import { HomePage } from '@/features/home/components/home-page';
import { PrivacyPage } from '@/features/legal/components/privacy-page';
import { TermsPage } from '@/features/legal/components/terms-page';
import { ProfilePage } from '@/features/profile/components/profile-page';
import { DocumentUploadPanel } from '@/features/verification/components/document-upload-panel';
import { PATHS } from '@/lib/routes';
import { RequireAuth } from './guards';
import { RootLayout } from './layout/root-layout';
import { NotFoundPage } from './pages/not-found-page';
import { RouteError } from './pages/route-error';
import { UpcomingPage } from './pages/upcoming-page';

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
          { path: 'login', element: <LoginPage /> },
          { path: 'register', element: <RegisterPage /> },
          { path: 'forgot-password', element: <ForgotPasswordPage /> },
          { path: 'reset-password', element: <ResetPasswordPage /> },
          { path: 'terms', element: <TermsPage /> },
          { path: 'privacy', element: <PrivacyPage /> },

          { path: 'cars', element: <UpcomingPage title="Browse Vehicles" release="vehicles" /> },
          { path: 'cars/:id', element: <UpcomingPage title="Vehicle Details" release="vehicles" /> },
          { path: 'car/:id', element: <UpcomingPage title="Vehicle Details" release="vehicles" /> },
          { path: 'become-host', element: <UpcomingPage title="Become a Host" release="vehicles" /> },
          { path: 'list-car', element: <Navigate to={PATHS.becomeHost} replace /> },
          { path: 'signin', element: <Navigate to={PATHS.login} replace /> },

          {
            element: <RequireAuth />,
            children: [
              { path: 'profile', element: <ProfilePage documentsPanel={<DocumentUploadPanel />} /> },
              { path: 'dashboard', element: <UpcomingPage title="Dashboard" release="bookings" /> },
              { path: 'my-bookings', element: <UpcomingPage title="My Bookings" release="bookings" /> },
            ],
          },
          {
            element: <RequireAuth role="host" />,
            children: [
              { path: 'host-dashboard', element: <UpcomingPage title="Host Dashboard" release="bookings" /> },
              { path: 'earnings', element: <UpcomingPage title="Earnings" release="bookings" /> },
            ],
          },
          {
            element: <RequireAuth role="admin" />,
            children: [
              { path: 'admin', element: <UpcomingPage title="Admin Panel" release="bookings" /> },
              { path: 'api-playground', element: <UpcomingPage title="API Playground" release="bookings" /> },
              { path: 'api-test', element: <UpcomingPage title="API Connection Test" release="bookings" /> },
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
