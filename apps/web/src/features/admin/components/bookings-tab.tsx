// The admin panel's Bookings tab (document 3, Bookings): counter cards (the platform's bookings by
// status, aggregated on the server by GET /booking/getStats), the oversight warning, a status
// filter and search (booking number, car, renter) and the table (Booking ID, Guest, Car, Booking
// Type & Dates, Status, Amount with a marker per refunded extra charge, Actions) paged on the
// server. The actions follow the shared machine for the admin (canActorTransition): Approve and
// Reject while pending, Cancel while pending or confirmed and unpaid. The seed's capital-'Pending'
// comparison is not kept. The page on screen and the counters are refetched every 30 seconds.
import { BOOKING_LIST_PAGE_SIZE, BOOKING_STATUSES, canActorTransition, type Booking, type BookingStats, type BookingStatus } from '@karoo/shared';
import { Ban, CalendarCheck, Check, ChevronLeft, ChevronRight, X } from 'lucide-react';
import { useState, type FormEvent, type ReactNode } from 'react';
import { Alert } from '@/components/ui/alert';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { messageOf } from '@/lib/api-client';
import { formatDate, formatRand } from '@/lib/format';
import { useAdminBookingStats, useAdminBookings, type AdminBookingAction, type AdminBookingFilters } from '../api/admin-bookings';
import { BookingActionDialog } from './booking-action-dialog';

export const BOOKING_STATUS_LABELS: Record<BookingStatus, string> = {
  pending: 'Pending',
  confirmed: 'Confirmed',
  active: 'Active',
  completed: 'Completed',
  cancelled: 'Cancelled',
  rejected: 'Rejected',
};
const STATUS_TONES: Record<BookingStatus, BadgeTone> = {
  pending: 'warning',
  confirmed: 'info',
  active: 'brand',
  completed: 'success',
  cancelled: 'neutral',
  rejected: 'danger',
};

export const OVERSIGHT_WARNING = 'Access to booking details is for customer support, dispute resolution and oversight.';

const COUNTERS: { label: string; value: (s: BookingStats) => number; tone: string }[] = [
  { label: 'Total', value: (s) => s.total, tone: 'text-stone-900' },
  { label: 'Pending', value: (s) => s.pending, tone: 'text-amber-600' },
  { label: 'Confirmed', value: (s) => s.confirmed, tone: 'text-sky-700' },
  { label: 'Active', value: (s) => s.active, tone: 'text-brand-700' },
  { label: 'Completed', value: (s) => s.completed, tone: 'text-emerald-600' },
  { label: 'Cancelled/Rejected', value: (s) => s.cancelled + s.rejected, tone: 'text-red-600' },
];

const selectClasses = 'h-10 rounded-xl border border-stone-300 bg-white px-3 text-sm';

/** Which of the admin's actions a booking offers: the shared machine decides, never a status string. */
function actionsFor(booking: Booking): AdminBookingAction[] {
  const actions: AdminBookingAction[] = [];
  if (canActorTransition(booking.status, 'confirmed', 'admin')) actions.push('approve');
  if (canActorTransition(booking.status, 'rejected', 'admin')) actions.push('reject');
  // A paid booking is no longer cancelled by hand (decisions.md section 5): the server refuses it too.
  if (canActorTransition(booking.status, 'cancelled', 'admin') && booking.payment_status === 'unpaid') actions.push('cancel');
  return actions;
}

function BookingDates({ booking }: { booking: Booking }) {
  if (booking.is_hourly_booking) {
    return (
      <>
        <p className="font-medium text-stone-900">Hourly · {booking.duration_hours ?? 0} h</p>
        <p className="text-xs text-stone-500">
          {formatDate(booking.start_date)}, {booking.start_time}–{booking.end_time}
        </p>
      </>
    );
  }
  return (
    <>
      <p className="font-medium text-stone-900">
        Daily · {booking.duration_days} {booking.duration_days === 1 ? 'day' : 'days'}
      </p>
      <p className="text-xs text-stone-500">
        {formatDate(booking.start_date)} – {formatDate(booking.end_date)}
      </p>
    </>
  );
}

const ACTION_BUTTONS: Record<AdminBookingAction, { label: string; variant: 'success' | 'danger-outline' | 'ghost'; icon: ReactNode }> = {
  approve: { label: 'Approve', variant: 'success', icon: <Check className="size-4" aria-hidden="true" /> },
  reject: { label: 'Reject', variant: 'danger-outline', icon: <X className="size-4" aria-hidden="true" /> },
  cancel: { label: 'Cancel', variant: 'ghost', icon: <Ban className="size-4" aria-hidden="true" /> },
};

export function BookingsTab() {
  const [filters, setFilters] = useState<AdminBookingFilters>({ page: 1, limit: BOOKING_LIST_PAGE_SIZE });
  const [search, setSearch] = useState('');
  const [target, setTarget] = useState<{ action: AdminBookingAction; booking: Booking } | null>(null);
  const list = useAdminBookings(filters);
  const stats = useAdminBookingStats();

  const total = list.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / filters.limit));
  const choose = (patch: Partial<AdminBookingFilters>) => setFilters((current) => ({ ...current, ...patch, page: 1 }));
  const onSearch = (event: FormEvent) => {
    event.preventDefault();
    choose({ search: search.trim() || undefined });
  };

  return (
    <div className="space-y-6">
      <dl aria-label="Booking counters" className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6">
        {COUNTERS.map((counter) => (
          <div key={counter.label} className="rounded-2xl border border-stone-200/80 bg-white p-4 shadow-card">
            <dt className="text-xs font-semibold tracking-wide text-stone-500 uppercase">{counter.label}</dt>
            <dd className={`mt-1 text-2xl font-bold ${counter.tone}`}>
              {stats.data ? counter.value(stats.data).toLocaleString('en-ZA') : <span className="inline-block h-7 w-10 animate-pulse rounded bg-stone-200" />}
            </dd>
          </div>
        ))}
      </dl>

      <Alert tone="warning" title="Booking oversight">
        {OVERSIGHT_WARNING} Use it only for these purposes; every change you make is recorded in the audit log.
      </Alert>

      <section aria-labelledby="bookings-heading" className="rounded-2xl border border-stone-200 bg-white shadow-sm">
        <header className="flex flex-col gap-4 border-b border-stone-100 p-5 lg:flex-row lg:items-end lg:justify-between">
          <div>
            <h2 id="bookings-heading" className="flex items-center gap-2 text-lg font-semibold text-stone-900">
              <CalendarCheck className="size-5 text-brand-600" aria-hidden="true" /> Bookings
            </h2>
            <p className="mt-1 text-sm text-stone-600">Every booking on Karoo: answer requests and cancel unpaid ones.</p>
          </div>
          <div className="flex flex-wrap items-end gap-3">
            <form onSubmit={onSearch} className="flex w-full items-end gap-2 sm:w-auto" role="search">
              <label className="min-w-0 flex-1 text-sm sm:flex-none">
                <span className="mb-1 block font-medium text-stone-700">Search bookings</span>
                <input
                  type="search"
                  className="h-10 w-full rounded-xl border border-stone-300 px-3 text-sm sm:w-60"
                  value={search}
                  onChange={(e) => setSearch(e.target.value)}
                  placeholder="Booking ID, car or guest"
                />
              </label>
              <Button type="submit" variant="secondary">
                Search
              </Button>
            </form>
            <label className="text-sm">
              <span className="mb-1 block font-medium text-stone-700">Status</span>
              <select className={selectClasses} value={filters.status ?? ''} onChange={(e) => choose({ status: (e.target.value || undefined) as AdminBookingFilters['status'] })}>
                <option value="">All statuses</option>
                {BOOKING_STATUSES.map((status) => (
                  <option key={status} value={status}>
                    {BOOKING_STATUS_LABELS[status]}
                  </option>
                ))}
              </select>
            </label>
          </div>
        </header>

        {list.isError && !list.data ? (
          <div className="p-5">
            <Alert tone="danger" title="Unable to load the bookings" role="alert">
              {messageOf(list.error, 'There was an error loading the bookings. Please try again.')}
            </Alert>
            <Button className="mt-3" variant="secondary" onClick={() => void list.refetch()}>
              Try again
            </Button>
          </div>
        ) : list.isPending ? (
          <div className="space-y-3 p-5" role="status" aria-label="Loading the bookings">
            {[0, 1, 2, 3].map((i) => (
              <div key={i} className="h-12 animate-pulse rounded-xl bg-stone-100" />
            ))}
          </div>
        ) : list.data.bookings.length === 0 ? (
          <p className="p-5 text-sm text-stone-500">No bookings match this search and this filter.</p>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full min-w-[980px] text-left text-sm">
              <thead className="bg-stone-50 text-xs font-semibold tracking-wide text-stone-500 uppercase">
                <tr>
                  <th scope="col" className="px-5 py-3">Booking ID</th>
                  <th scope="col" className="px-5 py-3">Guest</th>
                  <th scope="col" className="px-5 py-3">Car</th>
                  <th scope="col" className="px-5 py-3">Booking Type &amp; Dates</th>
                  <th scope="col" className="px-5 py-3">Status</th>
                  <th scope="col" className="px-5 py-3">Amount</th>
                  <th scope="col" className="px-5 py-3">Actions</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-stone-100">
                {list.data.bookings.map((booking) => {
                  const actions = actionsFor(booking);
                  return (
                    <tr key={booking.id} data-testid="booking-row" className="align-top">
                      <td className="px-5 py-3">
                        <p className="font-mono text-xs font-semibold text-stone-900">{booking.booking_id}</p>
                        <p className="text-xs text-stone-500">Booked {formatDate(booking.created_at)}</p>
                      </td>
                      <td className="px-5 py-3">
                        <p className="font-medium text-stone-900">{booking.renter.full_name}</p>
                        <p className="text-xs text-stone-500">@{booking.renter.username}</p>
                      </td>
                      <td className="px-5 py-3">
                        <p className="font-medium text-stone-900">{booking.car_name}</p>
                        <p className="text-xs text-stone-500">Host @{booking.car_owner}</p>
                      </td>
                      <td className="px-5 py-3">
                        <BookingDates booking={booking} />
                      </td>
                      <td className="px-5 py-3">
                        <Badge tone={STATUS_TONES[booking.status]}>{BOOKING_STATUS_LABELS[booking.status]}</Badge>
                        <p className="mt-1 text-xs text-stone-500">{booking.payment_status === 'paid' ? 'Paid' : 'Unpaid'}</p>
                      </td>
                      <td className="px-5 py-3">
                        <p className="font-medium text-stone-900">{formatRand(booking.total_price)}</p>
                        {booking.refunds.length > 0 ? (
                          <div className="mt-1 flex flex-col items-start gap-1">
                            {booking.refunds.map((refund) => (
                              <Badge key={refund.reference} tone={refund.status === 'refunded' ? 'success' : 'warning'}>
                                Refund {formatRand(refund.amount)} ({refund.status})
                              </Badge>
                            ))}
                          </div>
                        ) : null}
                      </td>
                      <td className="px-5 py-3">
                        {actions.length === 0 ? (
                          <span className="text-xs text-stone-500">—</span>
                        ) : (
                          <div className="flex flex-wrap gap-1.5">
                            {actions.map((action) => {
                              const button = ACTION_BUTTONS[action];
                              return (
                                <Button
                                  key={action}
                                  size="sm"
                                  variant={button.variant}
                                  className={action === 'cancel' ? 'text-red-600' : undefined}
                                  icon={button.icon}
                                  aria-label={`${button.label} ${booking.booking_id}`}
                                  onClick={() => setTarget({ action, booking })}
                                >
                                  {button.label}
                                </Button>
                              );
                            })}
                          </div>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}

        <footer className="flex items-center justify-between gap-3 border-t border-stone-100 px-5 py-3 text-sm text-stone-600">
          <span>
            {total.toLocaleString('en-ZA')} {total === 1 ? 'booking' : 'bookings'} · page {filters.page} of {pages}
          </span>
          <div className="flex gap-2">
            <Button
              variant="secondary"
              size="sm"
              icon={<ChevronLeft className="size-4" aria-hidden="true" />}
              disabled={filters.page <= 1}
              onClick={() => setFilters((current) => ({ ...current, page: current.page - 1 }))}
            >
              Previous
            </Button>
            <Button
              variant="secondary"
              size="sm"
              icon={<ChevronRight className="size-4" aria-hidden="true" />}
              disabled={filters.page >= pages}
              onClick={() => setFilters((current) => ({ ...current, page: current.page + 1 }))}
            >
              Next
            </Button>
          </div>
        </footer>
      </section>

      <BookingActionDialog target={target} onClose={() => setTarget(null)} />
    </div>
  );
}
