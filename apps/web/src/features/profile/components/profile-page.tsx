// /profile: the signed-in user's details, bank details, verification documents, a host's cars and shortcuts
// (document 1, profile screen). The documents panel comes from the verification feature and is
// passed in by the router, so the two features stay independent.
import { isAdmin, isHost } from '@karoo/shared';
import { Pencil } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Alert } from '@/components/ui/alert';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { useAuth } from '@/lib/auth';
import { formatDate, initialOf } from '@/lib/format';
import { useProfile } from '../api/get-profile';
import { useOwnerFleet as useProfileCars } from '@/lib/queries/owner-cars';
import { verificationStatusLabel } from '../utils/profile-values';
import { AccountStats, QuickActions } from './account-sidebar';
import { MyCars } from './my-cars';
import { ProfileDetails } from './profile-details';
import { ProfileFormCards } from './profile-form';

const STATUS_TONE: Record<string, BadgeTone> = { verified: 'success', pending_verification: 'info', rejected: 'danger' };

export interface ProfilePageProps {
  /** The document upload panel, rendered under the bank details. */
  documentsPanel?: ReactNode;
}

export function ProfilePage({ documentsPanel }: ProfilePageProps) {
  const { user } = useAuth();
  const profile = useProfile();
  const ownCars = useProfileCars(user?.username);
  const [editing, setEditing] = useState(false);

  if (!user) return null; // the route guard has already sent guests to /login
  if (profile.isPending) {
    return (
      <div className="flex flex-1 items-center justify-center py-24" role="status">
        <div className="flex flex-col items-center gap-3 text-stone-500">
          <Spinner className="size-8 text-brand-600" />
          <p className="text-sm font-medium">Loading profile...</p>
        </div>
      </div>
    );
  }

  const status = user.verification_status;
  const role = isAdmin(user) ? 'Administrator' : isHost(user) ? 'Host' : 'Customer';

  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-8 sm:px-6 lg:px-8 lg:py-10">
      <header className="mb-8 flex flex-col gap-5 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex items-center gap-4">
          <span className="flex size-16 shrink-0 items-center justify-center rounded-2xl bg-gradient-to-br from-brand-500 to-brand-700 text-2xl font-bold text-white shadow-sm">
            {initialOf(user.full_name || user.username)}
          </span>
          <div className="min-w-0">
            <h1 className="truncate text-2xl font-bold tracking-tight text-stone-900 sm:text-3xl">{user.full_name || user.username}</h1>
            <div className="mt-1.5 flex flex-wrap items-center gap-2 text-sm text-stone-500">
              <Badge tone="brand">{role}</Badge>
              <Badge tone={STATUS_TONE[status] ?? 'warning'}>{verificationStatusLabel(status)}</Badge>
              <span>Joined {formatDate(user.created_at, 'Unknown')}</span>
            </div>
          </div>
        </div>
        {!editing ? (
          <Button variant="secondary" icon={<Pencil className="size-4" aria-hidden="true" />} onClick={() => setEditing(true)}>
            Edit Profile
          </Button>
        ) : null}
      </header>

      <div className="mb-6 space-y-4 empty:hidden">
        {profile.isError ? (
          <Alert tone="warning" title="Showing saved details">
            We couldn&apos;t reload your profile just now, so these are the details saved in this browser.{' '}
            <button type="button" className="font-semibold underline underline-offset-2" onClick={() => void profile.refetch()}>
              Try again
            </button>
          </Alert>
        ) : null}
        {status === 'pending_upload' ? (
          <div className="rounded-2xl border border-yellow-300 bg-yellow-50 p-5 text-yellow-900">
            <h2 className="font-semibold">Complete Your Registration</h2>
            <p className="mt-1 text-sm leading-6">
              To finish setting up your account, please upload your identification documents, add your bank account details and fill in
              the other required fields below. We&apos;ll review them as soon as everything is in.
            </p>
          </div>
        ) : null}
        {status === 'rejected' ? (
          <Alert tone="danger" title="Your verification was not approved">
            {user.verification_notes ? <>Reason: {user.verification_notes}. </> : null}
            Please correct your details and upload updated documents below; we&apos;ll review them again.
          </Alert>
        ) : null}
        {status === 'pending_verification' ? (
          <Alert tone="info" title="Verification in progress">
            Our team is reviewing your account. Make sure your details are complete and your documents are uploaded so we can approve it
            quickly.
          </Alert>
        ) : null}
      </div>

      <div className="grid gap-6 lg:grid-cols-3 lg:gap-8">
        <div className="min-w-0 space-y-6 lg:col-span-2">
          {editing ? <ProfileFormCards user={user} onDone={() => setEditing(false)} /> : <ProfileDetails user={user} />}
          {documentsPanel}
          {isHost(user) && ownCars.data && ownCars.data.cars.length > 0 ? <MyCars cars={ownCars.data.cars} /> : null}
        </div>
        <aside className="space-y-6" aria-label="Account summary">
          <AccountStats user={user} carsListed={ownCars.data?.total} />
          <QuickActions user={user} />
        </aside>
      </div>
    </div>
  );
}
