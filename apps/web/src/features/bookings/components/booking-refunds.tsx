// The refunds of a booking's extra charges on the renter's booking card (docs/decisions/024): a
// charge that could not stay on the booking (paid twice, paid after it expired) goes back to the
// card in full; pending until the payment provider accepts the refund, then refunded.
import { formatRand, type BookingRefund } from '@karoo/shared';
import { clsx } from 'clsx';
import { CheckCircle2, RotateCcw } from 'lucide-react';
import { formatDate } from '@/lib/booking-format';

/** The refund's line as the renter reads it. */
export function refundHeadline(refund: BookingRefund): string {
  if (refund.status === 'refunded') return `Refunded ${formatRand(refund.amount)} on ${formatDate(refund.refunded_at ?? refund.requested_at)}`;
  return `Refund of ${formatRand(refund.amount)} — on its way to your card (requested ${formatDate(refund.requested_at)})`;
}

export function BookingRefunds({ refunds }: { refunds: readonly BookingRefund[] }) {
  if (refunds.length === 0) return null;
  return (
    <ul aria-label="Refunds" className="mt-3 space-y-2">
      {refunds.map((refund) => {
        const done = refund.status === 'refunded';
        const Icon = done ? CheckCircle2 : RotateCcw;
        return (
          <li
            key={refund.reference}
            data-testid="booking-refund"
            className={clsx('flex items-start gap-2 rounded-lg px-3 py-2 text-sm ring-1 ring-inset', done ? 'bg-emerald-50 ring-emerald-200' : 'bg-sky-50 ring-sky-200')}
          >
            <Icon className={clsx('mt-0.5 size-4 shrink-0', done ? 'text-emerald-700' : 'text-sky-700')} aria-hidden="true" />
            <div className="min-w-0">
              <p className={clsx('font-medium', done ? 'text-emerald-800' : 'text-sky-800')}>{refundHeadline(refund)}</p>
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
