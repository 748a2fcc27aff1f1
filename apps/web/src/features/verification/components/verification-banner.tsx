// The strip under the navigation telling a signed-in user what their verification still needs
// (document 1, verification banner). Hidden for guests, verified users, admins and on /profile;
// dismissible per user for an hour.
import { BANNER_MAX_ITEMS, isAdmin, VERIFICATION_DOCUMENTS_ITEM } from '@karoo/shared';
import { clsx } from 'clsx';
import { AlertTriangle, Clock, ShieldAlert, X } from 'lucide-react';
import { Link, useLocation } from 'react-router';
import { useAuth } from '@/lib/auth';
import { PATHS } from '@/lib/routes';
import { useVerificationStatus } from '../api/get-verification-status';
import { useBannerDismissal } from '../hooks/use-banner-dismissal';

export const PENDING_MESSAGE = "Verification in process - we're awaiting your documents and information";
export const REJECTED_MESSAGE = 'Verification rejected - please update your documents';

export function incompleteMessage(count: number): string {
  return `Complete your profile verification - ${count} item(s) needed`;
}

const TONES = {
  pending: { box: 'border-sky-200 bg-sky-50 text-sky-900', button: 'bg-sky-700 hover:bg-sky-800', icon: Clock },
  rejected: { box: 'border-red-200 bg-red-50 text-red-900', button: 'bg-red-600 hover:bg-red-700', icon: ShieldAlert },
  incomplete: { box: 'border-amber-200 bg-amber-50 text-amber-900', button: 'bg-amber-600 hover:bg-amber-700', icon: AlertTriangle },
} as const;

export function VerificationBanner() {
  const { user } = useAuth();
  const { pathname } = useLocation();
  const { dismissed, dismiss } = useBannerDismissal(user?.username);

  const status = user?.verification_status;
  const hidden = !user || status === 'verified' || isAdmin(user) || pathname === PATHS.profile || dismissed;
  const needsList = !hidden && status !== 'pending_verification' && status !== 'rejected';
  const check = useVerificationStatus(user?.username, { enabled: needsList, version: user?.updated_at });

  if (hidden) return null;

  let tone: keyof typeof TONES;
  let message: string;
  let action: string;
  let items: string[] = [];
  if (status === 'pending_verification') {
    tone = 'pending';
    message = PENDING_MESSAGE;
    action = 'Upload Documents';
  } else if (status === 'rejected') {
    tone = 'rejected';
    message = REJECTED_MESSAGE;
    action = 'Update Documents';
  } else {
    if (check.isPending) return null; // wait for the list rather than flash a wrong count
    items = check.isError ? [VERIFICATION_DOCUMENTS_ITEM] : check.data.missing;
    if (items.length === 0) return null;
    tone = 'incomplete';
    message = incompleteMessage(items.length);
    action = 'Complete Profile';
  }

  const shown = items.slice(0, BANNER_MAX_ITEMS);
  const more = items.length - shown.length;
  const { box, button, icon: Icon } = TONES[tone];

  return (
    <div role="region" aria-label="Account verification" className={clsx('border-b', box)} data-testid="verification-banner">
      <div className="mx-auto flex max-w-7xl flex-col gap-3 px-4 py-3 sm:flex-row sm:items-center sm:gap-4 sm:px-6 lg:px-8">
        <div className="flex min-w-0 flex-1 items-start gap-3">
          <Icon className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
          <div className="min-w-0 text-sm">
            <p className="font-semibold">{message}</p>
            {shown.length > 0 ? (
              <p className="mt-0.5 opacity-90">
                {shown.join(', ')}
                {more > 0 ? <span className="font-medium">{`, and ${more} more`}</span> : null}
              </p>
            ) : null}
          </div>
        </div>
        <div className="flex shrink-0 items-center gap-2 pl-8 sm:pl-0">
          <Link
            to={PATHS.profile}
            className={clsx(
              'inline-flex h-9 items-center rounded-lg px-3.5 text-sm font-semibold text-white shadow-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-offset-2 focus-visible:ring-stone-900',
              button,
            )}
          >
            {action}
          </Link>
          <button
            type="button"
            onClick={dismiss}
            aria-label="Dismiss verification reminder for an hour"
            className="rounded-lg p-2 opacity-70 hover:bg-black/5 hover:opacity-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-stone-900"
          >
            <X className="size-4" aria-hidden="true" />
          </button>
        </div>
      </div>
    </div>
  );
}
