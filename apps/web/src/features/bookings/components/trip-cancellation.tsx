// A cancelled paid trip on its booking card (issue 20): who cancelled it and what it meant for the
// reader, from the booking's ledger sums (`money`, each side seeing its own): the renter's fee (their
// refund and its state are the refund lines under it), the host's share of a fee or their penalty.
import { formatRand, type Booking } from '@karoo/shared';
import { Ban } from 'lucide-react';
import type { BookingRole } from '../utils/booking-actions';

type Cause = 'renter' | 'host' | 'no_show' | 'admin';
const CAUSES: readonly string[] = ['renter', 'host', 'no_show', 'admin'] satisfies Cause[];

/** A paid trip cancelled by the policy (not an unpaid request withdrawn or expired). */
export function isCancelledPaidTrip(booking: Pick<Booking, 'status' | 'payment_status' | 'cancel_cause'>): boolean {
  return booking.status === 'cancelled' && booking.payment_status === 'paid' && CAUSES.includes(booking.cancel_cause ?? '');
}

function headline(cause: Cause, role: BookingRole, renter: string): string {
  if (role === 'renter') {
    return {
      renter: 'You cancelled this trip',
      host: 'The host cancelled this trip',
      no_show: 'The host reported that you did not collect the car',
      admin: 'Karoo cancelled this trip',
    }[cause];
  }
  return {
    renter: `${renter} cancelled this trip`,
    host: 'You cancelled this trip',
    no_show: 'You reported a no-show',
    admin: 'Karoo cancelled this trip',
  }[cause];
}

/** What the cancellation meant for the reader's money, in one sentence. */
function moneyLine(booking: Booking, role: BookingRole): string | null {
  const m = booking.money;
  const fee = m.cancellation_fee ?? 0;
  if (role === 'renter') {
    if (m.charged === null) return null;
    return fee > 0 ? `You paid ${formatRand(m.charged)}; the cancellation fee of ${formatRand(fee)} is kept.` : `You paid ${formatRand(m.charged)}; all of it is refunded.`;
  }
  const penalty = m.host_penalty ?? 0;
  if (penalty > 0) return `A ${formatRand(penalty)} cancellation penalty will be deducted from your next payout.`;
  if ((m.host_share ?? 0) > 0) return `You earn ${formatRand(m.host_share ?? 0)} of the ${formatRand(fee)} cancellation fee.`;
  return 'The renter was refunded in full: no earnings from this trip.';
}

export function TripCancellation({ booking, role }: { booking: Booking; role: BookingRole }) {
  if (!isCancelledPaidTrip(booking)) return null;
  const cause = booking.cancel_cause as Cause;
  const line = moneyLine(booking, role);
  return (
    <div data-testid="trip-cancellation" className="mt-3 flex items-start gap-2 rounded-lg bg-stone-50 px-3 py-2 text-sm ring-1 ring-inset ring-stone-200">
      <Ban className="mt-0.5 size-4 shrink-0 text-stone-500" aria-hidden="true" />
      <div className="min-w-0">
        <p className="font-medium text-stone-900">{headline(cause, role, booking.renter.full_name || booking.user_username)}</p>
        {line ? <p className="mt-0.5 text-stone-700">{line}</p> : null}
      </div>
    </div>
  );
}
