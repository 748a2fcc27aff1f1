// The admin panel's Dashboard tab (document 3, Admin panel): the debug info box, the five counters
// (server aggregates), Recent Activity (the 5 newest users) and Failed mail (issue 12). Refetched
// every 30 seconds while this tab is on screen.
import type { AdminCounters, AdminDebugInfo, AdminRecentUser, Role, VerificationStatus } from '@karoo/shared';
import { CalendarDays, CarFront, ShieldAlert, Terminal, UserCheck, Users, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Alert } from '@/components/ui/alert';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { messageOf } from '@/lib/api-client';
import { formatDate, formatDateTime, initialOf } from '@/lib/format';
import { useAdminOverview } from '../api/get-admin-overview';
import { FailedMail } from './failed-mail';

const COUNTERS: { key: keyof AdminCounters; label: string; icon: LucideIcon; tone: string }[] = [
  { key: 'total_users', label: 'Total Users', icon: Users, tone: 'bg-brand-50 text-brand-600' },
  { key: 'total_cars', label: 'Total Cars', icon: CarFront, tone: 'bg-sky-50 text-sky-600' },
  { key: 'total_bookings', label: 'Total Bookings', icon: CalendarDays, tone: 'bg-emerald-50 text-emerald-600' },
  { key: 'pending_user_verification', label: 'Pending User Verification', icon: UserCheck, tone: 'bg-amber-50 text-amber-600' },
  { key: 'pending_car_verification', label: 'Pending Car Verification', icon: ShieldAlert, tone: 'bg-amber-50 text-amber-600' },
];

const ROLE_TONES: Record<Role, BadgeTone> = { admin: 'brand', host: 'info', customer: 'neutral' };
const ROLE_LABELS: Record<Role, string> = { admin: 'Admin', host: 'Host', customer: 'Customer' };
const STATUS_TONES: Record<VerificationStatus, BadgeTone> = {
  verified: 'success',
  pending_verification: 'warning',
  pending_upload: 'neutral',
  rejected: 'danger',
};
const STATUS_LABELS: Record<VerificationStatus, string> = {
  verified: 'Verified',
  pending_verification: 'Pending verification',
  pending_upload: 'Documents needed',
  rejected: 'Rejected',
};

/** "3 d 4 h", "2 h 5 min", "45 s": how long the server has been up. */
export function formatUptime(seconds: number): string {
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3_600);
  const minutes = Math.floor((seconds % 3_600) / 60);
  if (days > 0) return `${days} d ${hours} h`;
  if (hours > 0) return `${hours} h ${minutes} min`;
  if (minutes > 0) return `${minutes} min`;
  return `${seconds} s`;
}

const card = 'rounded-2xl border border-stone-200/80 bg-white shadow-card';
const bone = 'animate-pulse rounded bg-stone-200';

export function DashboardTab() {
  const overview = useAdminOverview();

  if (overview.isPending) return <DashboardSkeleton />;
  if (!overview.data) {
    return (
      <Alert tone="danger" title="The dashboard could not be loaded" role="alert">
        {messageOf(overview.error, 'Please try again.')}
        <div className="mt-3">
          <Button size="sm" variant="secondary" onClick={() => void overview.refetch()} loading={overview.isFetching}>
            Try again
          </Button>
        </div>
      </Alert>
    );
  }
  const { counters, recent_users, debug } = overview.data;
  return (
    <div className="space-y-6">
      <DebugInfo debug={debug} />
      <dl aria-label="Platform counters" className="grid grid-cols-2 gap-3 sm:gap-4 md:grid-cols-3 xl:grid-cols-5">
        {COUNTERS.map((counter) => (
          <CounterCard key={counter.key} label={counter.label} icon={counter.icon} tone={counter.tone} value={counters[counter.key].toLocaleString('en-ZA')} />
        ))}
      </dl>
      <RecentActivity users={recent_users} />
      <FailedMail />
    </div>
  );
}

/** Five cards in a two-column phone grid: the last one takes the whole row rather than sit alone. */
const counterCard = `flex min-h-[7.5rem] flex-col justify-between gap-3 p-4 last:max-md:col-span-2 ${card}`;

function CounterCard({ label, icon: Icon, tone, value }: { label: string; icon: LucideIcon; tone: string; value: ReactNode }) {
  return (
    <div className={counterCard}>
      <dt className="flex items-start justify-between gap-2 text-sm leading-snug font-medium text-stone-600">
        <span>{label}</span>
        <span className={`flex size-9 shrink-0 items-center justify-center rounded-xl ${tone}`}>
          <Icon className="size-5" aria-hidden="true" />
        </span>
      </dt>
      <dd className="text-3xl font-bold tracking-tight tabular-nums text-stone-900">{value}</dd>
    </div>
  );
}

function DebugInfo({ debug }: { debug: AdminDebugInfo }) {
  const rows: [string, string][] = [
    ['API version', debug.api_version],
    ['Commit', debug.commit],
    ['Node.js', debug.node_version],
    ['Database', debug.database],
    ['Mail', debug.mail],
    ['Payments', debug.payments],
    ['Uptime', formatUptime(debug.uptime_seconds)],
    ['Server time', formatDateTime(debug.server_time)],
  ];
  return (
    <section aria-labelledby="admin-debug-info" className="rounded-2xl border border-stone-200/80 bg-stone-50 p-4 sm:p-5">
      <h2 id="admin-debug-info" className="flex items-center gap-2 text-sm font-semibold text-stone-800">
        <Terminal className="size-4 text-stone-500" aria-hidden="true" />
        Debug Info
      </h2>
      <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-3 sm:grid-cols-4">
        {rows.map(([label, value]) => (
          <div key={label} className="min-w-0">
            <dt className="text-xs font-medium text-stone-500">{label}</dt>
            <dd className="truncate font-mono text-sm text-stone-900" title={value}>
              {value}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function RecentActivity({ users }: { users: AdminRecentUser[] }) {
  return (
    <section aria-labelledby="admin-recent-activity" className={`p-4 sm:p-5 ${card}`}>
      <h2 id="admin-recent-activity" className="text-lg font-semibold text-stone-900">
        Recent Activity
      </h2>
      <p className="text-sm text-stone-500">The newest members of Karoo.</p>
      {users.length === 0 ? (
        <p className="mt-4 text-sm text-stone-500">No users yet.</p>
      ) : (
        <ul className="mt-3 divide-y divide-stone-100">
          {users.map((u) => (
            <li key={u.id} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
              <div className="flex min-w-0 items-center gap-3">
                <span aria-hidden="true" className="flex size-10 shrink-0 items-center justify-center rounded-full bg-brand-100 font-semibold text-brand-700">
                  {initialOf(u.full_name || u.username)}
                </span>
                <div className="min-w-0">
                  <p className="truncate font-medium text-stone-900">
                    {u.full_name || u.username} <span className="font-normal text-stone-500">@{u.username}</span>
                  </p>
                  <p className="truncate text-sm text-stone-500">{u.email}</p>
                </div>
              </div>
              <div className="flex flex-wrap items-center gap-2 pl-13 sm:shrink-0 sm:pl-0">
                <Badge tone={ROLE_TONES[u.role]}>{ROLE_LABELS[u.role]}</Badge>
                <Badge tone={STATUS_TONES[u.verification_status]}>{STATUS_LABELS[u.verification_status]}</Badge>
                <span className="text-xs text-stone-500">Joined {formatDate(u.created_at)}</span>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The loaded layout's shapes and sizes, so nothing jumps when the data arrives. */
function DashboardSkeleton() {
  return (
    <div className="space-y-6" role="status" aria-label="Loading the dashboard">
      <div className="rounded-2xl border border-stone-200/80 bg-stone-50 p-4 sm:p-5">
        <div className={`h-5 w-24 ${bone}`} />
        <div className="mt-3 grid grid-cols-2 gap-x-4 gap-y-3 sm:grid-cols-4">
          {Array.from({ length: 8 }, (_, i) => (
            <div key={i} className="space-y-1.5 py-0.5">
              <div className={`h-3 w-16 ${bone}`} />
              <div className={`h-4 w-24 ${bone}`} />
            </div>
          ))}
        </div>
      </div>
      <div className="grid grid-cols-2 gap-3 sm:gap-4 md:grid-cols-3 xl:grid-cols-5">
        {COUNTERS.map((c) => (
          <div key={c.key} className={counterCard}>
            <div className="flex items-start justify-between gap-2">
              <div className={`h-4 w-24 ${bone}`} />
              <div className="size-9 animate-pulse rounded-xl bg-stone-100" />
            </div>
            <div className={`h-9 w-16 ${bone}`} />
          </div>
        ))}
      </div>
      <div className={`p-4 sm:p-5 ${card}`}>
        <div className={`h-6 w-36 ${bone}`} />
        <div className={`mt-1.5 h-4 w-48 ${bone}`} />
        <div className="mt-3 divide-y divide-stone-100">
          {Array.from({ length: 5 }, (_, i) => (
            <div key={i} className="flex items-center gap-3 py-3">
              <div className="size-10 shrink-0 animate-pulse rounded-full bg-stone-200" />
              <div className="flex-1 space-y-2">
                <div className={`h-4 w-1/3 ${bone}`} />
                <div className={`h-3 w-1/2 ${bone}`} />
              </div>
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}
