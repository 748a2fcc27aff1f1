// The profile's sidebar: Account Stats and Quick Actions (hosts and renters get different actions).
import { isHost, type User } from '@karoo/shared';
import { BarChart3, CalendarCheck, Car, ChevronRight, CirclePlus, KeyRound, LayoutDashboard, ShieldCheck } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { Card, CardHeader } from '@/components/ui/card';
import { PATHS } from '@/lib/routes';
import { verificationStatusLabel } from '../utils/profile-values';

const STATUS_TONE: Record<string, BadgeTone> = {
  verified: 'success',
  pending_verification: 'info',
  rejected: 'danger',
};

function StatRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex items-center justify-between gap-3 py-3">
      <dt className="text-sm text-stone-500">{label}</dt>
      <dd className="text-sm font-semibold text-stone-900">{children}</dd>
    </div>
  );
}

export interface AccountStatsProps {
  user: User;
  /** Cars whose owner is the user; undefined while loading or when the count could not be read. */
  carsListed?: number;
}

export function AccountStats({ user, carsListed }: AccountStatsProps) {
  return (
    <Card>
      <CardHeader title="Account Stats" as="h2" />
      <dl className="divide-y divide-stone-100 px-5 sm:px-6">
        <StatRow label="Cars Listed">{carsListed ?? '—'}</StatRow>
        <StatRow label="Account Type">{isHost(user) ? 'Host' : 'Customer'}</StatRow>
        <StatRow label="Status">
          <span className="inline-flex items-center gap-1.5">
            <span className="size-2 rounded-full bg-emerald-500" aria-hidden="true" />
            Active
          </span>
        </StatRow>
        <StatRow label="Verification">
          <Badge tone={STATUS_TONE[user.verification_status] ?? 'warning'}>{verificationStatusLabel(user.verification_status)}</Badge>
        </StatRow>
      </dl>
    </Card>
  );
}

interface Action {
  label: string;
  description: string;
  to: string;
  icon: ReactNode;
}

const iconClass = 'size-5';
const HOST_ACTIONS: Action[] = [
  { label: 'Add New Car', description: 'List another vehicle', to: PATHS.becomeHost, icon: <CirclePlus className={iconClass} aria-hidden="true" /> },
  { label: 'Manage Cars', description: 'Your fleet and requests', to: PATHS.hostDashboard, icon: <LayoutDashboard className={iconClass} aria-hidden="true" /> },
  { label: 'View Earnings', description: 'Payouts after fees', to: PATHS.earnings, icon: <BarChart3 className={iconClass} aria-hidden="true" /> },
];
const RENTER_ACTIONS: Action[] = [
  { label: 'Browse Cars', description: 'Find your next ride', to: PATHS.cars, icon: <Car className={iconClass} aria-hidden="true" /> },
  { label: 'My Bookings', description: 'Trips and requests', to: PATHS.myBookings, icon: <CalendarCheck className={iconClass} aria-hidden="true" /> },
  { label: 'Become a Host', description: 'Earn from your car', to: PATHS.becomeHost, icon: <KeyRound className={iconClass} aria-hidden="true" /> },
];

const PRIVACY_ACTION: Action = {
  label: 'Privacy and data',
  description: 'See, download or correct your data',
  to: PATHS.privacyData,
  icon: <ShieldCheck className={iconClass} aria-hidden="true" />,
};

export function QuickActions({ user }: { user: User }) {
  const actions = [...(isHost(user) ? HOST_ACTIONS : RENTER_ACTIONS), PRIVACY_ACTION];
  return (
    <Card>
      <CardHeader title="Quick Actions" as="h2" />
      <ul className="p-2">
        {actions.map((action) => (
          <li key={action.to}>
            <Link
              to={action.to}
              className="group flex items-center gap-3 rounded-xl px-3 py-3 hover:bg-stone-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
            >
              <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-brand-50 text-brand-600">{action.icon}</span>
              <span className="min-w-0 flex-1">
                <span className="block text-sm font-semibold text-stone-900">{action.label}</span>
                <span className="block text-xs text-stone-500">{action.description}</span>
              </span>
              <ChevronRight className="size-4 text-stone-400 transition-transform group-hover:translate-x-0.5" aria-hidden="true" />
            </Link>
          </li>
        ))}
      </ul>
    </Card>
  );
}
