// The admin panel's Bookings tab (document 3, Bookings): counter cards (the platform's bookings by
// status, aggregated on the server by GET /booking/getStats), the oversight warning, a status
// filter and search (booking number, car, renter) and the table (Booking ID, Guest, Car, Booking
// Type & Dates, Status, Amount with a marker per refunded extra charge, Actions) paged on the
// server. The actions follow the shared machine for the admin (canActorTransition): Approve and
// Reject while pending, Cancel while pending or confirmed and unpaid, Cancel trip on a paid trip
// (a refund choice, cancel-trip-dialog.tsx; issue 20). The seed's capital-'Pending'
// comparison is not kept. The search, the filter and the page are in the URL (DataTable). The page
// on screen and the counters are refetched every 30 seconds.
import { BOOKING_LIST_PAGE_SIZE, BOOKING_STATUSES, canActorTransition, type Booking, type BookingStats, type BookingStatus } from '@karoo/shared';
import { Ban, CalendarCheck, Check, MessageSquare, X } from 'lucide-react';
import { useMemo, useState, type ReactNode } from 'react';
import { DataTable } from '@/components/data-table/data-table';
import { listColumnHelper, type ListColumn } from '@/components/data-table/list-columns';
import { useListSearchParams } from '@/components/data-table/use-list-search-params';
import { Alert } from '@/components/ui/alert';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { StatCard } from '@/components/ui/stat-card';
import { formatDate, formatRand } from '@/lib/format';
import { useAdminBookingStats, useAdminBookings, type AdminBookingAction } from '../api/admin-bookings';
import { BookingActionDialog } from './booking-action-dialog';
import { AdminCancelTripDialog } from './cancel-trip-dialog';
import { ReadConversationDialog } from './read-conversation-dialog';
import { DisputedClaims } from './disputed-claims';
import { AdminFines, WaiverRequests } from './fines-and-waivers';
import { OpenDisputes } from './open-disputes';
import { ReportedMessages } from './reported-messages';

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

/** `cancel-trip`: a paid trip, cancelled by the policy with the refund the admin chooses. */
type TabAction = AdminBookingAction | 'cancel-trip';

/** Which of the admin's actions a booking offers: the shared machine decides, never a status string. */
function actionsFor(booking: Booking): TabAction[] {
  const actions: TabAction[] = [];
  if (canActorTransition(booking.status, 'confirmed', 'admin')) actions.push('approve');
  if (canActorTransition(booking.status, 'rejected', 'admin')) actions.push('reject');
  if (canActorTransition(booking.status, 'cancelled', 'admin')) {
    // Unpaid: cancelled with a reason. Paid (and so active): by the cancellation policy, with a refund.
    if (booking.payment_status === 'unpaid') actions.push('cancel');
    else if (booking.status === 'active') actions.push('cancel-trip');
  }
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

const ACTION_BUTTONS: Record<TabAction, { label: string; variant: 'success' | 'danger-outline' | 'ghost'; icon: ReactNode }> = {
  approve: { label: 'Approve', variant: 'success', icon: <Check className="size-4" aria-hidden="true" /> },
  reject: { label: 'Reject', variant: 'danger-outline', icon: <X className="size-4" aria-hidden="true" /> },
  cancel: { label: 'Cancel', variant: 'ghost', icon: <Ban className="size-4" aria-hidden="true" /> },
  'cancel-trip': { label: 'Cancel trip', variant: 'ghost', icon: <Ban className="size-4" aria-hidden="true" /> },
};

type Target = { action: TabAction; booking: Booking };
const column = listColumnHelper<Booking>();

function bookingColumns(open: (target: Target) => void, readConversation: (booking: Booking) => void): ListColumn<Booking>[] {
  return [
    column.display({
      id: 'booking',
      header: 'Booking ID',
      cell: ({ row: { original: booking } }) => (
        <>
          <p className="font-mono text-xs font-semibold text-stone-900">{booking.booking_id}</p>
          <p className="text-xs text-stone-500">Booked {formatDate(booking.created_at)}</p>
        </>
      ),
    }),
    column.display({
      id: 'guest',
      header: 'Guest',
      cell: ({ row: { original: booking } }) => (
        <>
          <p className="font-medium text-stone-900">{booking.renter.full_name}</p>
          <p className="text-xs text-stone-500">@{booking.renter.username}</p>
        </>
      ),
    }),
    column.display({
      id: 'car',
      header: 'Car',
      cell: ({ row: { original: booking } }) => (
        <>
          <p className="font-medium text-stone-900">{booking.car_name}</p>
          <p className="text-xs text-stone-500">Host @{booking.car_owner}</p>
        </>
      ),
    }),
    column.display({ id: 'dates', header: 'Booking Type & Dates', cell: ({ row }) => <BookingDates booking={row.original} /> }),
    column.accessor('status', {
      id: 'status',
      header: 'Status',
      meta: { filter: { label: 'Status', allLabel: 'All statuses', options: BOOKING_STATUSES.map((status) => ({ value: status, label: BOOKING_STATUS_LABELS[status] })) } },
      cell: ({ row: { original: booking } }) => (
        <>
          <Badge tone={STATUS_TONES[booking.status]}>{BOOKING_STATUS_LABELS[booking.status]}</Badge>
          <p className="mt-1 text-xs text-stone-500">{booking.payment_status === 'paid' ? 'Paid' : 'Unpaid'}</p>
        </>
      ),
    }),
    column.display({
      id: 'amount',
      header: 'Amount',
      cell: ({ row: { original: booking } }) => (
        <>
          <p className="font-medium text-stone-900">{formatRand(booking.total_price)}</p>
          {booking.refunds.length > 0 ? (
            <div className="mt-1 flex flex-col items-start gap-1">
              {booking.refunds.map((refund) => (
                <Badge key={refund.id} tone={refund.status === 'refunded' ? 'success' : refund.status === 'failed' ? 'danger' : 'warning'}>
                  Refund {formatRand(refund.amount)} ({refund.status})
                </Badge>
              ))}
            </div>
          ) : null}
        </>
      ),
    }),
    column.display({
      id: 'actions',
      header: 'Actions',
      cell: ({ row: { original: booking } }) => {
        const actions = actionsFor(booking);
        return (
          <div className="flex flex-wrap gap-1.5">
            {actions.map((action) => {
              const button = ACTION_BUTTONS[action];
              return (
                <Button
                  key={action}
                  size="sm"
                  variant={button.variant}
                  className={action === 'cancel' || action === 'cancel-trip' ? 'text-red-600' : undefined}
                  icon={button.icon}
                  aria-label={`${button.label} ${booking.booking_id}`}
                  onClick={() => open({ action, booking })}
                >
                  {button.label}
                </Button>
              );
            })}
            {/* Reading the two parties' messages is for a dispute or a report: it asks why, and is audited. */}
            <Button size="sm" variant="ghost" icon={<MessageSquare className="size-4" aria-hidden="true" />} aria-label={`Read conversation ${booking.booking_id}`} onClick={() => readConversation(booking)}>
              Read conversation
            </Button>
          </div>
        );
      },
    }),
  ];
}

export function BookingsTab() {
  const [target, setTarget] = useState<Target | null>(null);
  const [reading, setReading] = useState<Booking | null>(null);
  const columns = useMemo(() => bookingColumns(setTarget, setReading), []);
  const view = useListSearchParams(columns, { pageSize: BOOKING_LIST_PAGE_SIZE });
  const list = useAdminBookings({ page: view.page, limit: view.pageSize, search: view.search, status: view.filter('status', BOOKING_STATUSES) });
  const stats = useAdminBookingStats();

  return (
    <div className="space-y-6">
      <dl aria-label="Booking counters" className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6">
        {COUNTERS.map((counter) => (
          <StatCard key={counter.label} label={counter.label} tone={counter.tone} value={stats.data ? counter.value(stats.data) : undefined} />
        ))}
      </dl>

      <Alert tone="warning" title="Booking oversight">
        {OVERSIGHT_WARNING} Use it only for these purposes; every change you make is recorded in the audit log.
      </Alert>

      <DisputedClaims />
      <WaiverRequests />
      <OpenDisputes />
      <AdminFines />

      <ReportedMessages />

      <DataTable
        title="Bookings"
        icon={CalendarCheck}
        description="Every booking on Karoo: answer requests, cancel unpaid ones and cancel paid trips with a refund."
        columns={columns}
        list={view}
        rows={list.data?.bookings}
        total={list.data?.total}
        query={list}
        what="the bookings"
        noun={['booking', 'bookings']}
        empty="No bookings match this search and this filter."
        search={{ label: 'Search bookings', placeholder: 'Booking ID, car or guest' }}
        layout={{ kind: 'scroll', minWidth: 'min-w-[980px]' }}
        regionLabel="Bookings"
        rowTestId="booking-row"
      />

      <BookingActionDialog target={target && target.action !== 'cancel-trip' ? { action: target.action, booking: target.booking } : null} onClose={() => setTarget(null)} />
      {reading ? <ReadConversationDialog key={reading.id} booking={reading} onClose={() => setReading(null)} /> : null}
      {target?.action === 'cancel-trip' ? <AdminCancelTripDialog key={target.booking.id} booking={target.booking} onClose={() => setTarget(null)} /> : null}
    </div>
  );
}
