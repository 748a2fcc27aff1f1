// Which links the top navigation shows (document 1, top navigation).
import { isAdmin, isHost, type User } from '@karoo/shared';
import { PATHS } from '@/lib/routes';

export interface NavItem {
  to: string;
  label: string;
  /** Active only on an exact match (Home). */
  end?: boolean;
}

export function navLinks(user: User | null): NavItem[] {
  if (user && isAdmin(user)) return [{ to: PATHS.admin, label: 'Admin Panel' }];
  const links: NavItem[] = [
    { to: PATHS.home, label: 'Home', end: true },
    { to: PATHS.cars, label: 'Browse Vehicles' },
  ];
  if (user && user.verification_status !== 'pending_verification') {
    links.push(
      { to: PATHS.dashboard, label: 'Dashboard' },
      { to: PATHS.myBookings, label: 'My Bookings' },
      { to: PATHS.becomeHost, label: isHost(user) ? 'Add a Vehicle' : 'Become a Host' },
    );
  }
  if (user && isHost(user)) {
    links.push({ to: PATHS.hostDashboard, label: 'Host Dashboard' }, { to: PATHS.earnings, label: 'Earnings' });
  }
  return links;
}
