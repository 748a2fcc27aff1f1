// The user dashboard: welcome, stat cards, recent activity, quick actions, the booking status
// summary, a fleet preview for hosts and the Trust and Safety panel (document 3 section 2).
import { formatRand, isHost } from '@karoo/shared';
import { CalendarDays, Car as CarIcon, Headphones, Search, ShieldCheck, UserCheck, Wallet, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Spinner } from '@/components/ui/spinner';
import { useAuth } from '@/lib/auth';
import { PATHS } from '@/lib/routes';
import { bookingStateLabel, formatDuration, STATUS_LABELS } from '@/lib/booking-format';
import { useMyBookings, useMyBookingStats } from '@/lib/queries/bookings';
import { useListedCarsCount } from '@/lib/queries/car-count';
import { useEarningsSummary } from '@/lib/queries/earnings';
import { useOwnerFleet } from '@/lib/queries/owner-cars';

export const RECENT_ACTIVITY = 5;
export const FLEET_PREVIEW = 3;

function StatCard({ label, value, detail, icon: Icon }: { label: string; value: ReactNode; detail?: ReactNode; icon: LucideIcon }) {
  return (
    <div className="rounded-2xl border border-stone-200 bg-white p-5 shadow-sm">
      <div className="flex items-center justify-between">
        <p className="text-sm font-medium text-stone-600">{label}</p>
        <span className="flex size-9 items-center justify-center rounded-xl bg-brand-50 text-brand-600">
          <Icon className="size-5" aria-hidden="true" />
        </span>
      </div>
      <p className="mt-2 text-3xl font-bold tabular-nums text-stone-900">{value}</p>
      {detail ? <p className="mt-1 text-sm text-stone-500">{detail}</p> : null}
    </div>
  );
}

function QuickAction({ to, label, icon: Icon }: { to: string; label: string; icon: LucideIcon }) {
  return (
    <Link
      to={to}
      className="flex items-center gap-3 rounded-xl border border-stone-200 bg-white px-4 py-3 text-sm font-medium text-stone-800 hover:border-brand-300 hover:bg-brand-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
    >
      <Icon className="size-5 text-brand-600" aria-hidden="true" />
      {label}
    </Link>
  );
}

export function DashboardPage() {
  const { user } = useAuth();
  const host = isHost(user);
  // The user's own bookings (as renter, and as owner for hosts; an admin's own too): the counts
  // are the server's aggregates, the list only feeds Recent Activity (newest first).
  const bookings = useMyBookings(!!user);
  const stats = useMyBookingStats(!!user);
  const fleet = useOwnerFleet(user?.username, host);
  const available = useListedCarsCount(!host);
  // The same stored sums as the Earnings page.
  const earnings = useEarningsSummary(host);

  if (!user) return null;
  const total = stats.data?.total ?? 0;
  const activeCount = stats.data?.active ?? 0;
  const activePercent = total > 0 ? Math.round((activeCount / total) * 100) : 0;
  const recent = [...(bookings.data ?? [])].sort((a, b) => b.created_at.localeCompare(a.created_at)).slice(0, RECENT_ACTIVITY);
  const rented = fleet.data?.cars.filter((c) => c.status === 'rented' || c.isRented).length ?? 0;

  return (
    <div className="mx-auto w-full min-w-0 max-w-6xl px-4 py-8 sm:px-6">
      <h1 className="text-3xl font-bold text-stone-900">Welcome back, {user.full_name || user.username}</h1>
      <p className="mt-1 text-stone-600">{host ? 'Here is how your trips and your fleet are doing.' : 'Here is an overview of your trips.'}</p>

      <section aria-label="Statistics" className="mt-6 grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3">
        <StatCard
          label="Total Bookings"
          value={stats.data ? total : '…'}
          detail={stats.data ? `${activeCount} paid (${activePercent}%)` : undefined}
          icon={CalendarDays}
        />
        {host ? (
          <>
            <StatCard label="Fleet Size" value={fleet.data?.total ?? '…'} detail={`${rented} rented now`} icon={CarIcon} />
            <StatCard label="Total Earnings" value={earnings.data ? formatRand(earnings.data.total_earnings) : '…'} detail="After the platform fee" icon={Wallet} />
          </>
        ) : (
          <StatCard label="Available Cars" value={available.data ?? '…'} detail="Ready to book on Karoo" icon={CarIcon} />
        )}
      </section>

      <div className="mt-6 grid gap-6 lg:grid-cols-3">
        <section className="rounded-2xl border border-stone-200 bg-white p-5 shadow-sm lg:col-span-2" aria-labelledby="recent-activity">
          <div className="flex items-center justify-between">
            <h2 id="recent-activity" className="text-lg font-semibold text-stone-900">
              Recent Activity
            </h2>
            <Link to={PATHS.myBookings} className="text-sm font-medium text-brand-700 hover:underline">
              View all
            </Link>
          </div>
          {bookings.isPending ? (
            <div className="py-8">
              <Spinner label="Loading bookings" />
            </div>
          ) : recent.length === 0 ? (
            <p className="mt-4 text-sm text-stone-500">No bookings yet.</p>
          ) : (
            <ul className="mt-3 divide-y divide-stone-100">
              {recent.map((b) => {
                const state = bookingStateLabel(b, b.car_owner.toLowerCase() === user.username.toLowerCase() ? 'owner' : 'renter');
                return (
                  <li key={b.id} className="flex flex-wrap items-center justify-between gap-2 py-3">
                    <div className="min-w-0">
                      <p className="truncate font-medium text-stone-900">{b.car_name}</p>
                      <p className="text-xs text-stone-500">
                        <span className="font-mono">#{b.booking_id.slice(0, 8)}</span> · {formatDuration(b)}
                      </p>
                    </div>
                    <div className="flex items-center gap-3">
                      <Badge tone={state.tone}>{state.label}</Badge>
                      <span className="font-semibold tabular-nums text-stone-900">{formatRand(b.total_price)}</span>
                    </div>
                  </li>
                );
              })}
            </ul>
          )}
        </section>

        <div className="space-y-6">
          <section className="rounded-2xl border border-stone-200 bg-white p-5 shadow-sm" aria-labelledby="quick-actions">
            <h2 id="quick-actions" className="text-lg font-semibold text-stone-900">
              Quick Actions
            </h2>
            <div className="mt-3 grid gap-2">
              <QuickAction to={PATHS.cars} label="Browse Cars" icon={Search} />
              <QuickAction to={PATHS.myBookings} label="My Bookings" icon={CalendarDays} />
              {host ? <QuickAction to={PATHS.earnings} label="View Earnings" icon={Wallet} /> : null}
              {host ? <QuickAction to={PATHS.hostDashboard} label="Manage Cars" icon={CarIcon} /> : <QuickAction to={PATHS.becomeHost} label="Become a Host" icon={CarIcon} />}
            </div>
          </section>

          <section className="rounded-2xl border border-stone-200 bg-white p-5 shadow-sm" aria-labelledby="status-summary">
            <h2 id="status-summary" className="text-lg font-semibold text-stone-900">
              Booking Status
            </h2>
            <dl className="mt-3 grid grid-cols-3 gap-2 text-center">
              {(['pending', 'active', 'completed'] as const).map((status) => (
                <div key={status} className="rounded-xl bg-stone-50 px-2 py-3">
                  <dt className="text-xs font-medium text-stone-500">{STATUS_LABELS[status]}</dt>
                  <dd className="text-xl font-bold tabular-nums text-stone-900">{stats.data ? stats.data[status] : '…'}</dd>
                </div>
              ))}
            </dl>
          </section>
        </div>
      </div>

      {host ? (
        <section className="mt-6" aria-labelledby="fleet-preview">
          <div className="flex items-center justify-between">
            <h2 id="fleet-preview" className="text-lg font-semibold text-stone-900">
              Your Fleet
            </h2>
            <Link to={PATHS.hostDashboard} className="text-sm font-medium text-brand-700 hover:underline">
              Manage
            </Link>
          </div>
          {fleet.data && fleet.data.cars.length === 0 ? (
            <p className="mt-3 text-sm text-stone-500">
              No cars yet. <Link to="/list-car" className="font-medium text-brand-700 hover:underline">List your first car</Link>.
            </p>
          ) : (
            <ul className="mt-3 grid gap-4 sm:grid-cols-3">
              {(fleet.data?.cars ?? []).slice(0, FLEET_PREVIEW).map((car) => (
                <li key={car.id} className="overflow-hidden rounded-2xl border border-stone-200 bg-white shadow-sm">
                  <div className="aspect-[16/10] bg-stone-100">
                    {car.images[0] ? <img src={car.images[0]} alt={`${car.car_make} ${car.car_model}`} className="size-full object-cover" loading="lazy" /> : null}
                  </div>
                  <div className="flex items-center justify-between gap-2 p-3">
                    <div className="min-w-0">
                      <p className="truncate font-medium text-stone-900">
                        {car.car_year} {car.car_make} {car.car_model}
                      </p>
                      <p className="text-xs text-stone-500">{formatRand(car.car_rent_price)} / day</p>
                    </div>
                    <Badge tone={car.status === 'available' ? 'success' : car.status === 'rented' ? 'brand' : 'neutral'}>{car.status}</Badge>
                  </div>
                </li>
              ))}
            </ul>
          )}
        </section>
      ) : null}

      <section className="mt-6 rounded-2xl bg-stone-900 p-6 text-white" aria-labelledby="trust">
        <h2 id="trust" className="text-lg font-semibold">
          Trust and Safety
        </h2>
        <ul className="mt-4 grid gap-4 sm:grid-cols-3">
          {[
            { icon: UserCheck, title: 'Verified Users', text: 'Every renter and host is identity-checked.' },
            { icon: ShieldCheck, title: 'Insured Vehicles', text: 'Insurance options on every trip.' },
            { icon: Headphones, title: '24/7 Support', text: 'Help whenever you are on the road.' },
          ].map(({ icon: Icon, title, text }) => (
            <li key={title} className="flex gap-3">
              <Icon className="size-6 shrink-0 text-brand-400" aria-hidden="true" />
              <div>
                <p className="font-semibold">{title}</p>
                <p className="text-sm text-stone-300">{text}</p>
              </div>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
