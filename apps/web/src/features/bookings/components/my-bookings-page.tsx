// My Bookings: every booking where the user is the renter or the car owner, with status filters,
// summary tiles, expandable cards and the actions the status machine allows (document 3 section 2).
// An admin sees their own trips and requests here too (scope=mine); overseeing everyone's
// bookings is the admin panel's job.
import { BOOKING_STATUSES, formatRand, isHost, type Booking, type BookingStatus } from '@karoo/shared';
import { clsx } from 'clsx';
import { CalendarCheck, CheckCircle2, Hourglass, Lock, ShieldCheck, Wallet } from 'lucide-react';
import { useMemo, useState, type ReactNode } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button, ButtonLink } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { useAuth } from '@/lib/auth';
import { useMyBookings, useMyBookingStats } from '@/lib/queries/bookings';
import { PATHS } from '@/lib/routes';
import { useMyReviews } from '../api/bookings';
import { bookingActions, roleOf } from '../utils/booking-actions';
import { STATUS_LABELS } from '@/lib/booking-format';
import { BookingCard } from './booking-card';
import { ReturnDialog } from './return-dialog';
import { ReviewDialog } from './review-dialog';

type Filter = 'all' | BookingStatus;
type RoleTab = 'all' | 'trips' | 'received';

function Tile({ label, value, icon, hint }: { label: string; value: ReactNode; icon: ReactNode; hint?: string }) {
  return (
    <div className="flex items-center gap-3 rounded-2xl border border-stone-200 bg-white p-4 shadow-sm" title={hint}>
      {/* On a phone the icon gives its room to the figure: "R 98 275" must never be cut to "R 98 …". */}
      <span className="hidden size-10 shrink-0 items-center justify-center rounded-xl bg-brand-50 text-brand-600 sm:flex">{icon}</span>
      <div className="min-w-0">
        <p className="text-xs font-medium uppercase tracking-wide text-stone-500">{label}</p>
        <p className="text-lg font-bold break-words tabular-nums text-stone-900 sm:text-xl">{value}</p>
        {hint ? <p className="text-xs text-stone-500">{hint}</p> : null}
      </div>
    </div>
  );
}

export function SignInGate() {
  return (
    <div className="mx-auto max-w-md px-4 py-16 text-center">
      <Lock className="mx-auto size-10 text-stone-400" aria-hidden="true" />
      <h1 className="mt-4 text-2xl font-bold text-stone-900">Access Required</h1>
      <p className="mt-2 text-stone-600">Sign in to see your bookings.</p>
      <ButtonLink to={PATHS.profile} className="mt-6">
        Sign In to Continue
      </ButtonLink>
    </div>
  );
}

/** Pay now, provided by the router (the payments feature): starts a checkout and renders it. */
export interface BookingPayment {
  startCheckout: (booking: Booking) => Promise<void>;
  /** Pays what a declined card left owed on a claim (decision 073); pendingId is the claim's id meanwhile. */
  startClaimCheckout: (booking: Booking, claimId: string) => Promise<void>;
  pendingId: string | null;
  checkout: ReactNode;
}

export function MyBookingsPage({ payment }: { payment: BookingPayment }) {
  const { user } = useAuth();
  const bookings = useMyBookings(!!user);
  const stats = useMyBookingStats(!!user);
  const reviews = useMyReviews(user?.username);
  const { startCheckout, startClaimCheckout, pendingId, checkout } = payment;
  const [filter, setFilter] = useState<Filter>('all');
  const [roleTab, setRoleTab] = useState<RoleTab>('all');
  const [returning, setReturning] = useState<Booking | null>(null);
  const [reviewing, setReviewing] = useState<Booking | null>(null);
  const host = isHost(user);

  const reviewed = useMemo(() => new Set((reviews.data ?? []).map((r) => r.booking_id).filter(Boolean)), [reviews.data]);
  // Only bookings the viewer is part of, each with the viewer's real relation to it.
  const withRole = useMemo(
    () =>
      (bookings.data ?? []).flatMap((booking) => {
        const role = roleOf(booking, user);
        return role ? [{ booking, role }] : [];
      }),
    [bookings.data, user],
  );
  const hasReceived = withRole.some((x) => x.role === 'owner');
  const byRole = withRole.filter((x) => roleTab === 'all' || (roleTab === 'received' ? x.role === 'owner' : x.role === 'renter'));
  const shown = byRole.filter((x) => filter === 'all' || x.booking.status === filter);

  if (!user) return <SignInGate />;


  return (
    <div className="mx-auto w-full min-w-0 max-w-5xl px-4 py-8 sm:px-6">
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-3xl font-bold text-stone-900">My Bookings</h1>
          <p className="mt-1 text-stone-600">{host || hasReceived ? 'Your trips and the requests for your cars.' : 'Your trips, past and upcoming.'}</p>
        </div>
        <ButtonLink to={PATHS.cars} variant="secondary">
          Browse cars
        </ButtonLink>
      </header>

      {bookings.isPending ? (
        <div className="flex justify-center py-20">
          <Spinner label="Loading your bookings" />
        </div>
      ) : bookings.isError ? (
        <div className="mx-auto mt-10 max-w-lg text-center">
          <Alert tone="danger" title="Unable to Load Bookings" role="alert">
            There was an error loading your booking history. Please try again later.
          </Alert>
          <Button className="mt-4" variant="secondary" onClick={() => window.location.reload()}>
            Reload
          </Button>
        </div>
      ) : (
        <>
          {/* The server's counts and stored sums (the list stops at 500 rows; the money rule is the server's). */}
          <section aria-label="Booking summary" className="mt-6 grid grid-cols-2 gap-3 lg:grid-cols-4">
            <Tile label="Total Bookings" value={stats.data?.total ?? '…'} icon={<CalendarCheck className="size-5" aria-hidden="true" />} />
            <Tile label="Completed" value={stats.data?.completed ?? '…'} icon={<CheckCircle2 className="size-5" aria-hidden="true" />} />
            <Tile label={STATUS_LABELS.pending} value={stats.data?.pending ?? '…'} icon={<Hourglass className="size-5" aria-hidden="true" />} />
            {host ? (
              <Tile
                label="Revenue Received"
                hint="Paid or completed bookings of your cars"
                value={stats.data ? formatRand(stats.data.total_revenue) : '…'}
                icon={<Wallet className="size-5" aria-hidden="true" />}
              />
            ) : (
              <Tile
                label="Total Spent"
                hint="Your paid or completed trips"
                value={stats.data ? formatRand(stats.data.total_spent) : '…'}
                icon={<Wallet className="size-5" aria-hidden="true" />}
              />
            )}
          </section>

          <p className="mt-4 flex items-start gap-2 rounded-xl bg-sky-50 px-4 py-3 text-sm text-sky-900 ring-1 ring-sky-100">
            <ShieldCheck className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            <span>
              <strong>Privacy:</strong> a booking is visible only to the renter, the car owner and administrators.
            </span>
          </p>

          {hasReceived ? (
            <div className="mt-6 inline-flex rounded-xl bg-stone-100 p-1" role="group" aria-label="Booking role">
              {(
                [
                  ['all', 'All bookings'],
                  ['trips', 'My trips'],
                  ['received', 'Received bookings'],
                ] as const
              ).map(([value, label]) => (
                <button
                  key={value}
                  type="button"
                  aria-pressed={roleTab === value}
                  onClick={() => setRoleTab(value)}
                  className={clsx(
                    'rounded-lg px-3 py-1.5 text-sm font-medium',
                    roleTab === value ? 'bg-white text-stone-900 shadow-sm' : 'text-stone-600 hover:text-stone-900',
                  )}
                >
                  {label}
                </button>
              ))}
            </div>
          ) : null}

          <div className="-mx-4 mt-4 overflow-x-auto px-4" role="group" aria-label="Filter by status">
            <div className="flex gap-2">
              {(['all', ...BOOKING_STATUSES] as const).map((value) => {
                const count = value === 'all' ? byRole.length : byRole.filter((x) => x.booking.status === value).length;
                return (
                  <button
                    key={value}
                    type="button"
                    aria-pressed={filter === value}
                    onClick={() => setFilter(value)}
                    className={clsx(
                      'shrink-0 rounded-full border px-3.5 py-1.5 text-sm font-medium transition-colors',
                      filter === value ? 'border-stone-900 bg-stone-900 text-white' : 'border-stone-300 bg-white text-stone-700 hover:border-stone-400',
                    )}
                  >
                    {value === 'all' ? 'All' : STATUS_LABELS[value]}
                    <span className={clsx('ml-1.5 text-xs', filter === value ? 'text-stone-300' : 'text-stone-500')}>{count}</span>
                  </button>
                );
              })}
            </div>
          </div>

          {shown.length === 0 ? (
            <div className="mt-8 rounded-2xl border border-dashed border-stone-300 bg-white px-6 py-12 text-center">
              <h2 className="text-lg font-semibold text-stone-900">
                {filter === 'all' ? 'No bookings yet' : `No ${STATUS_LABELS[filter].toLowerCase()} bookings`}
              </h2>
              <p className="mt-1 text-stone-600">{filter === 'all' ? 'Find a car for your next trip.' : 'Try another filter.'}</p>
              <div className="mt-5 flex flex-wrap justify-center gap-2">
                <ButtonLink to={PATHS.cars}>Browse Cars</ButtonLink>
                {filter !== 'all' || roleTab !== 'all' ? (
                  <Button
                    variant="secondary"
                    onClick={() => {
                      setFilter('all');
                      setRoleTab('all');
                    }}
                  >
                    View All Bookings
                  </Button>
                ) : null}
              </div>
            </div>
          ) : (
            <ul className="mt-6 space-y-4">
              {shown.map(({ booking, role }) => (
                <li key={booking.id}>
                  <BookingCard
                    booking={booking}
                    role={role}
                    actions={bookingActions(booking, role, { reviewed: reviewed.has(booking.id) || reviews.isPending })}
                    paying={pendingId === booking.id}
                    onPay={(b) => void startCheckout(b)}
                    claimPayment={{ start: (b, claimId) => void startClaimCheckout(b, claimId), pendingId }}
                    onReturn={setReturning}
                    onReview={setReviewing}
                  />
                </li>
              ))}
            </ul>
          )}
        </>
      )}
      {checkout}
      {returning ? <ReturnDialog booking={returning} onClose={() => setReturning(null)} /> : null}
      {reviewing ? <ReviewDialog booking={reviewing} onClose={() => setReviewing(null)} /> : null}
    </div>
  );
}
