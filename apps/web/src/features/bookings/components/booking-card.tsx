// One booking as a trip card: status colour, car, dates, duration, total, number, a cancelled paid
// trip's outcome and the renter's refunds; expandable details (options, the stored price breakdown,
// the host's earnings) and the actions the shared status machine allows this user.
import { bookingDiscountLabel, EXACT_PLACE_AFTER_PAYMENT, formatRand, hostFeeLabel, serviceFeeLabel, type Booking } from '@karoo/shared';
import { clsx } from 'clsx';
import { Ban, CalendarDays, Car, ChevronDown, Clock, CreditCard, Star, UserX, Undo2 } from 'lucide-react';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { useNotification } from '@/components/ui/toast';
import { isApiError, messageOf } from '@/lib/api-client';
import { useApproveBooking, useCancelBooking, useRejectBooking } from '../api/bookings';
import type { BookingAction, BookingRole } from '../utils/booking-actions';
import { BookingDocumentLink } from './booking-document-link';
import { BookingMessagesButton } from './booking-messages';
import { BookingCancellationPolicy } from './booking-cancellation-policy';
import { BookingRefunds } from './booking-refunds';
import { BookingReviewsPanel } from './booking-reviews';
import { CancelTripDialog, type CancelTripMode } from './cancel-trip-dialog';
import { RenterRecordLine } from './renter-record';
import { isCancelledPaidTrip, TripCancellation } from './trip-cancellation';
import { TripChargesPanel, type ClaimPayment } from './trip-charges-panel';
import { TrafficFinesPanel } from './traffic-fines-panel';
import { FeeWaiverPanel } from './fee-waiver-panel';
import { TripRecordsPanel } from './trip-records-panel';
import { TripChangesPanel } from './trip-changes-panel';
import { bookingStateLabel, formatDuration, formatExpiresIn, formatTripSpan, partyName, STATUS_STRIPES } from '@/lib/booking-format';

// Document 3 section 8: the failure toasts' fallback texts.
export const ACCEPT_FAILED = 'Failed to accept the booking. Please try again.';
export const REJECT_FAILED = 'Failed to reject the booking. Please try again.';
export const CANCEL_FAILED = 'Failed to cancel the booking. Please try again.';

export interface BookingCardProps {
  booking: Booking;
  role: BookingRole;
  actions: BookingAction[];
  paying?: boolean;
  onPay: (booking: Booking) => void;
  /** Paying what a declined card left owed on the trip's charges (the renter). */
  claimPayment?: ClaimPayment;
  onReturn: (booking: Booking) => void;
  onReview: (booking: Booking) => void;
}

function Row({ label, value, strong }: { label: string; value: string; strong?: boolean }) {
  return (
    <div className={clsx('flex justify-between gap-4 py-1', strong && 'mt-1 border-t border-stone-200 pt-2 font-semibold text-stone-900')}>
      <dt className={strong ? undefined : 'text-stone-600'}>{label}</dt>
      <dd className="tabular-nums">{value}</dd>
    </div>
  );
}

export function BookingCard({ booking, role, actions, paying, onPay, claimPayment, onReturn, onReview }: BookingCardProps) {
  const [open, setOpen] = useState(false);
  const [hostResponse, setHostResponse] = useState('');
  const [confirming, setConfirming] = useState<'reject' | 'cancel' | null>(null);
  const [cancellingTrip, setCancellingTrip] = useState<CancelTripMode | null>(null);
  const detailsId = useId();
  const responseId = useId();
  const notify = useNotification();
  const approve = useApproveBooking();
  const reject = useRejectBooking();
  const cancel = useCancelBooking();
  const expires = formatExpiresIn(booking.expires_at);
  const state = bookingStateLabel(booking, role);
  const title = `${booking.car.car_year} ${booking.car_name}`;

  async function onAccept() {
    try {
      await approve.mutateAsync({ id: booking.id, hostResponse: hostResponse.trim() || undefined });
      notify.success('Booking Confirmed', `${partyName(booking.renter)} can now pay to secure the trip.`);
    } catch (error) {
      if (isApiError(error) && error.status === 404) notify.error('Booking Not Found', 'Could not find the booking to accept.');
      else notify.error('Accept Failed', messageOf(error, ACCEPT_FAILED));
    }
  }
  // Reject and Cancel run from their confirmation dialog: a failure is toasted and rethrown, so the
  // dialog stays open for another try.
  async function onReject() {
    try {
      await reject.mutateAsync({ id: booking.id, hostResponse: hostResponse.trim() || undefined });
      notify.success('Booking Rejected', 'The renter has been told.');
    } catch (error) {
      notify.error('Reject Failed', messageOf(error, REJECT_FAILED));
      throw error;
    }
  }
  async function onCancel() {
    try {
      await cancel.mutateAsync(booking.id);
      notify.success('Booking Cancelled', `Your booking of the ${booking.car_name} is cancelled.`);
    } catch (error) {
      notify.error('Cancel Failed', messageOf(error, CANCEL_FAILED));
      throw error;
    }
  }

  return (
    <article
      aria-label={`Booking ${booking.booking_id}`}
      data-testid="booking-card"
      className={clsx('overflow-hidden rounded-2xl border border-l-4 border-stone-200 bg-white shadow-sm', STATUS_STRIPES[booking.status])}
    >
      <div className="flex flex-col gap-4 p-4 sm:flex-row sm:p-5">
        <div className="h-32 w-full shrink-0 overflow-hidden rounded-xl bg-stone-100 sm:h-24 sm:w-36">
          {booking.car.image ? (
            <img src={booking.car.image} alt={title} className="size-full object-cover" loading="lazy" />
          ) : (
            <div className="flex size-full items-center justify-center text-stone-400">
              <Car className="size-8" aria-hidden="true" />
            </div>
          )}
        </div>
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-2">
            {/* One badge that says where the booking stands for this reader and what comes next. */}
            <Badge tone={state.tone}>{state.label}</Badge>
          </div>
          <h3 className="mt-2 truncate text-lg font-semibold text-stone-900">
            <Link to={`/cars/${booking.car_username}`} className="hover:underline">
              {title}
            </Link>
          </h3>
          <p className="mt-1 flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-stone-600">
            <span className="inline-flex items-center gap-1.5">
              <CalendarDays className="size-4" aria-hidden="true" />
              {formatTripSpan(booking)}
            </span>
            <span className="inline-flex items-center gap-1.5">
              <Clock className="size-4" aria-hidden="true" />
              {formatDuration(booking)}
            </span>
          </p>
          <p className="mt-1 text-xs text-stone-500">
            Booking <span className="font-mono">{booking.booking_id}</span>
            {role === 'owner' ? ` · Renter ${partyName(booking.renter)}` : ` · Host ${partyName(booking.host)}`}
          </p>
          {/* Before accepting or rejecting, the host sees the renter's record (decision 043). */}
          {role === 'owner' && booking.status === 'pending' ? <RenterRecordLine username={booking.user_username} /> : null}
          {expires ? <p className="mt-1 text-xs font-medium text-amber-700">{expires}</p> : null}
          <TripCancellation booking={booking} role={role} />
          {/* The renter's refunds (the API answers none to the car owner). */}
          {role === 'renter' ? <BookingRefunds refunds={booking.refunds} /> : null}
          <BookingCancellationPolicy booking={booking} role={role} />
        </div>
        <div className="flex flex-wrap items-end justify-between gap-x-3 gap-y-1 sm:flex-col sm:flex-nowrap sm:items-end sm:gap-3">
          <div className="text-right">
            <p className="text-xs text-stone-500">{role === 'owner' ? 'Trip total' : 'Total'}</p>
            <p className="text-xl font-bold tabular-nums text-stone-900">{formatRand(booking.total_price)}</p>
          </div>
          <button
            type="button"
            aria-expanded={open}
            aria-controls={detailsId}
            onClick={() => setOpen((v) => !v)}
            className="inline-flex items-center gap-1 rounded-lg px-2 py-1 text-sm font-medium text-brand-700 hover:bg-brand-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
          >
            {open ? 'Hide details' : 'View details'}
            <ChevronDown className={clsx('size-4 transition-transform', open && 'rotate-180')} aria-hidden="true" />
          </button>
          <BookingDocumentLink booking={booking} role={role} />
          <BookingMessagesButton booking={booking} />
        </div>
      </div>

      {open ? (
        <div id={detailsId} className="grid gap-5 border-t border-stone-100 bg-stone-50/60 p-4 text-sm sm:grid-cols-2 sm:p-5">
          <div className="space-y-3">
            <div>
              <h4 className="font-semibold text-stone-900">Pickup</h4>
              <p className="text-stone-600">
                {booking.pickup_option ? `${booking.pickup_option.name} – ${booking.pickup_option.address}` : booking.car.pickup_location || 'At the car'}
              </p>
              {/* Before payment the renter reads the area only (decision 055). */}
              {booking.car.exact_place ? (
                booking.car.car_plate_number ? <p className="text-stone-600">Plate {booking.car.car_plate_number}</p> : null
              ) : (
                <p className="text-xs text-stone-500" data-testid="booking-area-only">{EXACT_PLACE_AFTER_PAYMENT}.</p>
              )}
            </div>
            <div>
              <h4 className="font-semibold text-stone-900">Insurance</h4>
              <p className="text-stone-600">
                {booking.insurance_option
                  ? `${booking.insurance_option.name} (${booking.insurance_option.daily_rate > 0 ? `${formatRand(booking.insurance_option.daily_rate)} per day` : 'included'}, excess ${formatRand(booking.insurance_option.excess_amount)})`
                  : 'No insurance option'}
              </p>
            </div>
            {booking.special_requirements ? (
              <div>
                <h4 className="font-semibold text-stone-900">Special requirements</h4>
                <p className="text-stone-600">{booking.special_requirements}</p>
              </div>
            ) : null}
            {booking.host_response ? (
              <div>
                <h4 className="font-semibold text-stone-900">Host response</h4>
                <p className="text-stone-600">“{booking.host_response}”</p>
              </div>
            ) : null}
          </div>
          <div className="space-y-4">
            <div>
              <h4 className="font-semibold text-stone-900">Price breakdown</h4>
              <dl className="mt-1">
                {booking.discount ? (
                  <>
                    {/* The car's weekly or monthly discount it was priced with (decision 048), off the rental. */}
                    <Row label={`Rental (${formatDuration(booking)})`} value={formatRand(booking.subtotal + booking.discount)} />
                    <Row label={bookingDiscountLabel(booking.discount_rate ?? 0, booking.duration_days)} value={`−${formatRand(booking.discount)}`} />
                  </>
                ) : (
                  <Row label={`Subtotal (${formatDuration(booking)})`} value={formatRand(booking.subtotal)} />
                )}
                <Row label={serviceFeeLabel(booking.service_fee_rate)} value={formatRand(booking.service_fee)} />
                {booking.insurance_fee > 0 ? <Row label="Insurance" value={formatRand(booking.insurance_fee)} /> : null}
                {booking.pickup_fee > 0 ? <Row label="Pickup fee" value={formatRand(booking.pickup_fee)} /> : null}
                <Row label="Total" value={formatRand(booking.total_price)} strong />
              </dl>
            </div>
            {/* A cancelled paid trip earns nothing as a rental: the card's cancellation line says what it earned or cost. */}
            {role === 'owner' && !isCancelledPaidTrip(booking) ? (
              <div>
                <h4 className="font-semibold text-stone-900">Your earnings</h4>
                {/* The stored figures: the host fee applies to the rental and pickup fee; the renter's
                    service fee and insurance are Karoo's and never part of the host's share. */}
                <dl className="mt-1">
                  <Row label={`${booking.discount ? 'Rental after discount' : 'Rental'}${booking.pickup_fee > 0 ? ' and pickup fee' : ''}`} value={formatRand(booking.subtotal + booking.pickup_fee)} />
                  <Row label={hostFeeLabel(booking.commission_rate, booking.pickup_fee > 0)} value={`-${formatRand(booking.subtotal + booking.pickup_fee - booking.car_owner_earnings)}`} />
                  <Row label="You earn" value={formatRand(booking.car_owner_earnings)} strong />
                </dl>
                {booking.service_fee > 0 || booking.insurance_fee > 0 ? (
                  <p className="mt-1 text-xs text-stone-500">The renter&rsquo;s service fee and insurance go to Karoo and are not part of your earnings.</p>
                ) : null}
              </div>
            ) : null}
          </div>
        </div>
      ) : null}

      <TripChangesPanel booking={booking} role={role} />
      <TripRecordsPanel booking={booking} />
      <TripChargesPanel booking={booking} role={role === 'owner' ? 'host' : 'renter'} payment={claimPayment} />
      <TrafficFinesPanel booking={booking} role={role === 'owner' ? 'host' : 'renter'} />
      {role === 'renter' ? <FeeWaiverPanel booking={booking} /> : null}

      {booking.status === 'completed' ? <BookingReviewsPanel booking={booking} role={role} /> : null}

      {actions.length > 0 ? (
        <div className="border-t border-stone-100 p-4 sm:px-5" aria-label="Booking actions">
          {actions.includes('accept') ? (
            <div className="mb-3">
              <label htmlFor={responseId} className="mb-1 block text-sm font-medium text-stone-700">
                Message to the renter (optional)
              </label>
              <textarea
                id={responseId}
                rows={2}
                maxLength={1000}
                value={hostResponse}
                onChange={(e) => setHostResponse(e.target.value)}
                className="w-full rounded-lg border border-stone-300 px-3 py-2 text-sm focus:border-brand-500 focus:outline-none focus:ring-4 focus:ring-brand-500/20"
              />
            </div>
          ) : null}
          <div className="flex flex-wrap gap-2">
            {actions.includes('accept') ? (
              <Button variant="success" onClick={onAccept} loading={approve.isPending} disabled={reject.isPending}>
                Accept
              </Button>
            ) : null}
            {actions.includes('reject') ? (
              <Button variant="danger-outline" onClick={() => setConfirming('reject')} loading={reject.isPending} disabled={approve.isPending}>
                Reject
              </Button>
            ) : null}
            {actions.includes('pay') ? (
              <Button onClick={() => onPay(booking)} loading={paying} icon={<CreditCard className="size-4" aria-hidden="true" />}>
                Pay now
              </Button>
            ) : null}
            {actions.includes('cancel') ? (
              <Button variant="danger-outline" onClick={() => setConfirming('cancel')} loading={cancel.isPending}>
                Cancel Booking
              </Button>
            ) : null}
            {actions.includes('cancel-trip') ? (
              <Button variant="danger-outline" onClick={() => setCancellingTrip(role === 'owner' ? 'host' : 'renter')} icon={<Ban className="size-4" aria-hidden="true" />}>
                Cancel trip
              </Button>
            ) : null}
            {actions.includes('report-no-show') ? (
              <Button variant="danger-outline" onClick={() => setCancellingTrip('no-show')} icon={<UserX className="size-4" aria-hidden="true" />}>
                Report a no-show
              </Button>
            ) : null}
            {actions.includes('return') ? (
              <Button onClick={() => onReturn(booking)} icon={<Undo2 className="size-4" aria-hidden="true" />}>
                Mark as Returned
              </Button>
            ) : null}
            {actions.includes('review') ? (
              <Button onClick={() => onReview(booking)} icon={<Star className="size-4" aria-hidden="true" />}>
                Leave a review
              </Button>
            ) : null}
          </div>
        </div>
      ) : null}

      <ConfirmDialog
        open={confirming === 'reject'}
        tone="danger"
        title="Reject this booking request?"
        description={`${partyName(booking.renter)} will be told that you declined the ${booking.car_name} for ${formatTripSpan(booking)}. This cannot be undone.`}
        confirmLabel="Reject Booking"
        loadingLabel="Rejecting…"
        cancelLabel="Keep Request"
        onConfirm={onReject}
        onClose={() => setConfirming(null)}
      >
        {hostResponse.trim() ? (
          <p className="text-sm text-stone-600">
            Your message: <span className="text-stone-900">“{hostResponse.trim()}”</span>
          </p>
        ) : null}
      </ConfirmDialog>
      <ConfirmDialog
        open={confirming === 'cancel'}
        tone="danger"
        title="Cancel this booking?"
        description={`Your booking of the ${booking.car_name} for ${formatTripSpan(booking)} will be cancelled and the host told. This cannot be undone.`}
        confirmLabel="Cancel Booking"
        loadingLabel="Cancelling…"
        cancelLabel="Keep Booking"
        onConfirm={onCancel}
        onClose={() => setConfirming(null)}
      />
      {cancellingTrip ? <CancelTripDialog booking={booking} mode={cancellingTrip} open onClose={() => setCancellingTrip(null)} /> : null}
    </article>
  );
}
