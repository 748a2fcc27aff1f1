// Where a user lands after signing in (decisions.md section 2): back to the page a guard stopped
// them at, otherwise by role: admins to /admin, hosts to /host-dashboard, everyone else to /cars.
import { isAdmin, isHost, type RoleBearer } from '@karoo/shared';
import { PATHS, type LoginLocationState } from '@/lib/routes';

const NO_RETURN = new Set<string>([PATHS.login, PATHS.register, PATHS.forgotPassword, PATHS.resetPassword, PATHS.signInLink, '/signin']);

export function postLoginPath(user: RoleBearer, from?: LoginLocationState['from']): string {
  if (from?.pathname && !NO_RETURN.has(from.pathname)) {
    return `${from.pathname}${from.search ?? ''}${from.hash ?? ''}`;
  }
  if (isAdmin(user)) return PATHS.admin;
  if (isHost(user)) return PATHS.hostDashboard;
  return PATHS.cars;
}
