// The two dialogs of a booking request: the confirmation before it is sent (it stays open, no
// longer loading, when sending fails) and the booking confirmation after the server accepted it.
import { bookingDiscountLabel, type Booking, type PriceBreakdown as Breakdown } from '@karoo/shared';
import { CalendarDays, CheckCircle2, Clock, MapPin, ShieldCheck } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { CancellationPolicyNote } from '@/components/cancellation-policy-note';
import { Badge } from '@/components/ui/badge';
import { Button, ButtonLink } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { formatRand } from '@/lib/format';
import { PATHS } from '@/lib/routes';
import { formatDayShort } from '../utils/booking-dates';
import { PriceBreakdown } from './price-breakdown';

export interface BookingSummary {
  carName: string;
  isHourly: boolean;
  startDate: string;
  endDate: string;
  startTime: string;
  endTime: string;
  pickupName?: string;
  insuranceName?: string;
}

function SummaryRow({ icon, children }: { icon: ReactNode; children: ReactNode }) {
  return (
    <li className="flex items-start gap-2.5 text-sm text-stone-700">
      <span className="mt-0.5 shrink-0 text-stone-400">{icon}</span>
      <span className="min-w-0">{children}</span>
    </li>
  );
}

function whenText(summary: Pick<BookingSummary, 'isHourly' | 'startDate' | 'endDate' | 'startTime' | 'endTime'>): string {
  if (summary.isHourly && summary.startDate === summary.endDate) {
    return `${formatDayShort(summary.startDate)}, ${summary.startTime} – ${summary.endTime}`;
  }
  return `${formatDayShort(summary.startDate)} ${summary.startTime} – ${formatDayShort(summary.endDate)} ${summary.endTime}`;
}

function SummaryList({ summary }: { summary: BookingSummary }) {
  return (
    <ul className="space-y-2">
      <SummaryRow icon={<CalendarDays className="size-4" aria-hidden="true" />}>
        <span className="font-medium text-stone-900">{summary.isHourly ? 'Hourly' : 'Daily'} rental</span> · {whenText(summary)}
      </SummaryRow>
      {summary.pickupName ? <SummaryRow icon={<MapPin className="size-4" aria-hidden="true" />}>Pickup: {summary.pickupName}</SummaryRow> : null}
      {summary.insuranceName ? <SummaryRow icon={<ShieldCheck className="size-4" aria-hidden="true" />}>Insurance: {summary.insuranceName}</SummaryRow> : null}
    </ul>
  );
}

export interface ConfirmBookingDialogProps {
  open: boolean;
  summary: BookingSummary;
  price: Breakdown | null;
  /** The cancellation policy of these dates, in words. */
  policy?: string;
  isSending: boolean;
  onCancel: () => void;
  onConfirm: (specialRequirements: string) => void;
  /** The renter meets the car's instant booking: the request is confirmed at once (decision 078). */
  instant?: boolean;
}

export function ConfirmBookingDialog({ open, summary, price, policy, isSending, onCancel, onConfirm, instant = false }: ConfirmBookingDialogProps) {
  const [notes, setNotes] = useState('');
  return (
    <Dialog
      open={open}
      onClose={() => (isSending ? undefined : onCancel())}
      title={instant ? 'Confirm Instant Booking' : 'Confirm Booking Request'}
      description={
        instant
          ? `Book ${summary.carName} for these dates? Instant booking: it is confirmed at once, then you pay to secure it.`
          : `Send ${summary.carName}'s host a request for these dates? You pay only after the host accepts.`
      }
      footer={
        <>
          <Button variant="secondary" onClick={onCancel} disabled={isSending}>
            Cancel
          </Button>
          <Button onClick={() => onConfirm(notes)} loading={isSending}>
            {isSending ? 'Sending…' : instant ? 'Book Instantly' : 'Send Request'}
          </Button>
        </>
      }
    >
      <div className="space-y-4">
        <SummaryList summary={summary} />
        {price ? (
          <div className="rounded-xl bg-stone-50 p-4">
            <PriceBreakdown price={price} />
          </div>
        ) : null}
        {policy ? <CancellationPolicyNote text={policy} /> : null}
        <div>
          <label htmlFor="special-requirements" className="mb-1 block text-sm font-medium text-stone-700">
            Message to the host (optional)
          </label>
          <textarea
            id="special-requirements"
            rows={2}
            maxLength={1000}
            value={notes}
            onChange={(event) => setNotes(event.target.value)}
            placeholder="Child seat, late arrival, anything the host should know"
            className="block w-full rounded-xl border border-stone-300 px-3 py-2 text-sm focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none"
          />
        </div>
      </div>
    </Dialog>
  );
}

export interface BookingConfirmationModalProps {
  booking: Booking | null;
  carName: string;
  onClose: () => void;
  /** A booking confirmed at once is paid from here (instant booking, decision 078). */
  onPay?: (booking: Booking) => void;
}

export function BookingConfirmationModal({ booking, carName, onClose, onPay }: BookingConfirmationModalProps) {
  if (!booking) return null;
  const confirmed = booking.status === 'confirmed';
  const rows: [string, number][] = [
    [
      booking.is_hourly_booking ? `${booking.duration_hours ?? 0} ${booking.duration_hours === 1 ? 'hour' : 'hours'}` : `${booking.duration_days} ${booking.duration_days === 1 ? 'day' : 'days'}`,
      booking.subtotal + (booking.discount ?? 0),
    ],
  ];
  // The weekly or monthly discount it was priced with (decision 048), off the rental.
  if (booking.discount) rows.push([bookingDiscountLabel(booking.discount_rate ?? 0, booking.duration_days), -booking.discount]);
  rows.push([`Service fee (${booking.service_fee_rate}%)`, booking.service_fee]);
  if (booking.insurance_fee) rows.push(['Insurance', booking.insurance_fee]);
  if (booking.pickup_fee) rows.push(['Pickup fee', booking.pickup_fee]);
  return (
    <Dialog
      open
      onClose={onClose}
      title={confirmed ? 'Booking Confirmed' : 'Booking Request Sent'}
      description={
        confirmed
          ? onPay
            ? `Your ${carName} is confirmed. Pay now to secure it, or later from My Bookings.`
            : `Your ${carName} is booked. Pay from My Bookings to secure it.`
          : `We've sent your request to the host. You'll get a notification when they respond.`
      }
      footer={
        confirmed && onPay ? (
          <>
            <ButtonLink to={PATHS.myBookings} variant="secondary">
              View My Bookings
            </ButtonLink>
            <Button onClick={() => onPay(booking)}>Pay {formatRand(booking.total_price)} now</Button>
          </>
        ) : (
          <>
            <Button variant="secondary" onClick={onClose}>
              Done
            </Button>
            <ButtonLink to={PATHS.myBookings}>View My Bookings</ButtonLink>
          </>
        )
      }
    >
      <div className="space-y-4" data-testid="booking-confirmation">
        <div className="flex items-center justify-between gap-3 rounded-xl bg-emerald-50 p-3">
          <span className="flex items-center gap-2 text-sm font-semibold text-emerald-800">
            <CheckCircle2 className="size-5" aria-hidden="true" /> Booking {booking.booking_id}
          </span>
          <Badge tone={confirmed ? 'success' : 'warning'} icon={confirmed ? undefined : <Clock className="size-3" aria-hidden="true" />}>
            {confirmed ? 'Confirmed' : 'Pending'}
          </Badge>
        </div>
        <div>
          <p className="font-semibold text-stone-900">{carName}</p>
          <div className="mt-2">
            <SummaryList
              summary={{
                carName,
                isHourly: booking.is_hourly_booking,
                startDate: booking.start_date,
                endDate: booking.end_date,
                startTime: booking.start_time,
                endTime: booking.end_time,
                pickupName: booking.pickup_option?.name,
                insuranceName: booking.insurance_option?.name,
              }}
            />
          </div>
        </div>
        <dl className="space-y-1.5 rounded-xl bg-stone-50 p-4 text-sm">
          {rows.map(([label, amount]) => (
            <div key={label} className={amount < 0 ? 'flex justify-between font-medium text-emerald-800' : 'flex justify-between text-stone-600'}>
              <dt>{label}</dt>
              <dd className="tabular-nums">{amount < 0 ? `−${formatRand(-amount)}` : formatRand(amount)}</dd>
            </div>
          ))}
          <div className="flex justify-between border-t border-stone-200 pt-2 font-bold text-stone-900">
            <dt>Total</dt>
            <dd className="tabular-nums">{formatRand(booking.total_price)}</dd>
          </div>
        </dl>
      </div>
    </Dialog>
  );
}
