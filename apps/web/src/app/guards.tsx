// Route guards (document 1, route table): guests are sent to /login and come back afterwards;
// signed-in users without the host or admin role are sent to /.
import { isAdmin, isHost } from '@karoo/shared';
import { Navigate, Outlet, useLocation } from 'react-router';
import { useAuth } from '@/lib/auth';
import { PATHS, type LoginLocationState } from '@/lib/routes';

export type RequiredRole = 'user' | 'host' | 'admin';

export function RequireAuth({ role = 'user' }: { role?: RequiredRole }) {
  const { user } = useAuth();
  const location = useLocation();

  if (!user) {
    const state: LoginLocationState = {
      from: { pathname: location.pathname, search: location.search, hash: location.hash },
    };
    return <Navigate to={PATHS.login} replace state={state} />;
  }
  if ((role === 'host' && !isHost(user)) || (role === 'admin' && !isAdmin(user))) {
    return <Navigate to={PATHS.home} replace />;
  }
  return <Outlet />;
}

/** A redirect that keeps the navigation state (e.g. /signin -> /login still returns to `from`). */
export function RedirectKeepingState({ to }: { to: string }) {
  const location = useLocation();
  return <Navigate to={to} replace state={location.state} />;
}
