// The refunds of a booking on the renter's booking card: a cancelled paid trip's refund (issue 20),
// or a charge that could not stay on the booking (paid twice, paid after it expired; decision 024).
// On its way until the payment provider accepts it, then refunded; a refund the provider keeps
// refusing is delayed until Karoo's team retries it.
import { formatRand, type BookingRefund } from '@karoo/shared';
import { clsx } from 'clsx';
import { CheckCircle2, Clock, RotateCcw, type LucideIcon } from 'lucide-react';
import { formatDate } from '@/lib/booking-format';

/** The refund's line as the renter reads it. */
export function refundHeadline(refund: BookingRefund): string {
  if (refund.of === 'deposit') {
    if (refund.status === 'refunded') return `Deposit of ${formatRand(refund.amount)} returned on ${formatDate(refund.refunded_at ?? refund.requested_at)}`;
    if (refund.status === 'failed') return `Deposit return of ${formatRand(refund.amount)} delayed — Karoo's team is on it (requested ${formatDate(refund.requested_at)})`;
    return `Deposit on its way back: ${formatRand(refund.amount)} to your card (requested ${formatDate(refund.requested_at)})`;
  }
  if (refund.status === 'refunded') return `Refunded ${formatRand(refund.amount)} on ${formatDate(refund.refunded_at ?? refund.requested_at)}`;
  if (refund.status === 'failed') return `Refund of ${formatRand(refund.amount)} delayed — Karoo's team is on it (requested ${formatDate(refund.requested_at)})`;
  return `Refund on its way: ${formatRand(refund.amount)} to your card (requested ${formatDate(refund.requested_at)})`;
}

const LOOKS: Record<BookingRefund['status'], { Icon: LucideIcon; box: string; icon: string; text: string }> = {
  refunded: { Icon: CheckCircle2, box: 'bg-emerald-50 ring-emerald-200', icon: 'text-emerald-700', text: 'text-emerald-800' },
  pending: { Icon: RotateCcw, box: 'bg-sky-50 ring-sky-200', icon: 'text-sky-700', text: 'text-sky-800' },
  failed: { Icon: Clock, box: 'bg-amber-50 ring-amber-200', icon: 'text-amber-700', text: 'text-amber-900' },
};

export function BookingRefunds({ refunds }: { refunds: readonly BookingRefund[] }) {
  if (refunds.length === 0) return null;
  return (
    <ul aria-label="Refunds" className="mt-3 space-y-2">
      {refunds.map((refund) => {
        const look = LOOKS[refund.status];
        return (
          <li
            key={refund.id}
            data-testid={refund.of === 'deposit' ? 'booking-deposit-refund' : 'booking-refund'}
            className={clsx('flex items-start gap-2 rounded-lg px-3 py-2 text-sm ring-1 ring-inset', look.box)}
          >
            <look.Icon className={clsx('mt-0.5 size-4 shrink-0', look.icon)} aria-hidden="true" />
            <div className="min-w-0">
              <p className={clsx('font-medium', look.text)}>{refundHeadline(refund)}</p>
              <p className="mt-0.5 text-xs text-stone-600">{refund.reason}</p>
              <p className="text-xs break-words text-stone-600">
                Payment reference <span className="font-mono">{refund.reference}</span>
              </p>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
