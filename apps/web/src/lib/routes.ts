// Paths the app links to, and what a redirect to /login carries in its navigation state.
import type { Location } from 'react-router';

export const PATHS = {
  home: '/',
  login: '/login',
  register: '/register',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  signInLink: '/sign-in-link',
  cars: '/cars',
  dashboard: '/dashboard',
  hostDashboard: '/host-dashboard',
  myBookings: '/my-bookings',
  earnings: '/earnings',
  becomeHost: '/become-host',
  admin: '/admin',
  profile: '/profile',
  /** Privacy and data: what is held, download, correction, marketing choice, deletion (POPIA). */
  privacyData: '/profile/privacy',
  terms: '/terms',
  privacy: '/privacy',
} as const;

export interface LoginLocationState {
  /** Where a guard stopped the user; they return there after signing in. */
  from?: Pick<Location, 'pathname' | 'search' | 'hash'>;
  /** Set by registration: the login page shows the pending-verification notice. */
  registered?: boolean;
  username?: string;
}
