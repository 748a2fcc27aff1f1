// Who may use the developer tools. The router lets only admins in (the role decides, decisions.md
// section 1); inside, the page also honours document 3's username reading of the playground
// (the username contains 'admin' or starts with 'host'), so an admin account named otherwise sees
// the denied text. The server refuses every admin-only call to non-admins either way.
import { canOpenPlayground } from '@karoo/shared';
import { ShieldAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { useAuth } from '@/lib/auth';

export const PLAYGROUND_DENIED = "You don't have permission to access the API playground.";

export function DevToolsAccess({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  if (canOpenPlayground(user)) return <>{children}</>;
  return (
    <div className="mx-auto w-full max-w-xl px-4 py-16 text-center sm:px-6">
      <span className="mx-auto flex size-14 items-center justify-center rounded-full bg-red-50 text-red-600">
        <ShieldAlert className="size-7" aria-hidden="true" />
      </span>
      <h1 className="mt-4 text-2xl font-bold text-stone-900">Access Denied</h1>
      <p className="mt-2 text-stone-600">{PLAYGROUND_DENIED}</p>
      {user ? <p className="mt-1 text-sm text-stone-500">Signed in as {user.username}</p> : null}
    </div>
  );
}
