// The Bookings tab's Cancel trip on a paid trip (issue 20; decision 037): an administrator settles a
// dispute or a safety problem and chooses the refund: everything, the renter's policy as of now, or
// an amount with a reason. While they choose, the dialog shows what the renter gets back, what is
// kept and how it is shared (what the host earns, what Karoo keeps), computed with the shared
// cancellationOutcome() as the server will; the server's quote confirms the choice. Audited.
import { cancellationOutcome, formatRand, type AdminRefund, type AdminRefundChoice, type Booking } from '@karoo/shared';
import { clsx } from 'clsx';
import { useEffect, useId, useState, type ReactNode } from 'react';
import { Alert } from '@/components/ui/alert';
import { AmountRows, type AmountRow } from '@/components/ui/amount-rows';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { useNotification } from '@/components/ui/toast';
import { messageOf } from '@/lib/api-client';
import { formatDate } from '@/lib/format';
import { paidTripOf, useCancellationPreview, type CancellationFigures } from '@/lib/cancellation';
import { useAdminCancelTrip } from '../api/admin-bookings';

export const ADMIN_CANCEL_FAILED = 'Failed to cancel the trip. Please try again.';

const rand = (cents: number) => formatRand(cents / 100);

/** An amount typed in rand, in cents; null when it is not a number of rand and cents within what was paid. */
export function refundAmountCents(text: string, paidCents: number): number | null {
  const trimmed = text.trim().replace(',', '.');
  if (!/^\d+(\.\d{1,2})?$/.test(trimmed)) return null;
  const amount = Math.round(Number(trimmed) * 100);
  return amount <= paidCents ? amount : null;
}

/** The refund as the shared function takes it; an amount not (yet) valid counts as none back. */
function refundOf(kind: AdminRefundChoice, amountCents: number | null, reason: string): AdminRefund {
  if (kind === 'amount') return { kind: 'amount', amountCents: amountCents ?? 0, reason };
  return { kind };
}

/** The choice the quote was last asked for, from its key ('full', 'policy', 'amount:<cents>'). */
function refundOfKey(key: string): AdminRefund {
  const [kind, cents] = key.split(':') as [AdminRefundChoice, string | undefined];
  return refundOf(kind, cents === undefined ? null : Number(cents), '');
}

/** The quote is asked for a moment after the typing stops, not at each key. */
function useSettled(value: string, ms: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), ms);
    return () => window.clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

function ChoiceRow({ name, value, checked, onChange, title, detail }: { name: string; value: AdminRefundChoice; checked: boolean; onChange: (v: AdminRefundChoice) => void; title: string; detail: ReactNode }) {
  return (
    <label
      className={clsx(
        'flex cursor-pointer gap-3 rounded-xl border p-3 transition has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-500',
        checked ? 'border-stone-900 bg-stone-50' : 'border-stone-200 hover:border-stone-300',
      )}
    >
      <input type="radio" name={name} value={value} checked={checked} onChange={() => onChange(value)} className="mt-1 size-4 shrink-0 accent-stone-900" />
      <span className="min-w-0 flex-1">
        <span className="block text-sm font-semibold text-stone-900">{title}</span>
        <span className="block text-xs text-stone-600">{detail}</span>
      </span>
    </label>
  );
}

function figureRows(f: CancellationFigures, hostEarnings: number): AmountRow[] {
  return [
    { label: 'The renter gets back', cents: f.refundCents, strong: true, testId: 'admin-cancel-refund' },
    { label: 'Kept as a cancellation fee', cents: f.feeCents, testId: 'admin-cancel-fee' },
    { label: 'The host earns', hint: `Their share of the fee (instead of ${formatRand(hostEarnings)} for the trip)`, cents: f.hostShareCents, testId: 'admin-cancel-host-share' },
    { label: 'Karoo keeps', cents: f.platformShareCents, testId: 'admin-cancel-platform-share' },
    ...(f.hostPenaltyCents > 0 ? [{ label: 'The host is charged', cents: f.hostPenaltyCents, testId: 'admin-cancel-penalty' }] : []),
  ];
}

export function AdminCancelTripDialog({ booking, onClose }: { booking: Booking; onClose: () => void }) {
  const notify = useNotification();
  const cancel = useAdminCancelTrip();
  const name = useId();
  const [kind, setKind] = useState<AdminRefundChoice>('full');
  const [amountText, setAmountText] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<{ amount?: string; reason?: string }>({});
  const trip = paidTripOf(booking);
  const amountCents = refundAmountCents(amountText, trip.totalCents);
  const choice = refundOf(kind, amountCents, reason.trim());
  const quotedKey = useSettled(kind === 'amount' ? `amount:${amountCents ?? 0}` : kind, 300);
  const preview = useCancellationPreview({ booking, actor: 'admin', adminRefund: choice, quotedRefund: refundOfKey(quotedKey), open: true });
  // The two fixed choices' amounts, for their labels: the same function, at the same moment.
  const byPolicy = cancellationOutcome({ trip, actor: 'admin', now: preview.now, adminRefund: { kind: 'policy' } });
  const amountShown = kind !== 'amount' || amountCents !== null;
  const reasonId = useId();

  const validate = () => {
    const found: typeof errors = {};
    if (kind === 'amount' && amountCents === null) found.amount = `Enter an amount from R 0 to ${rand(trip.totalCents)}, in rand and cents.`;
    if (kind === 'amount' && !reason.trim()) found.reason = 'Give a reason for this amount: the renter and the host are told it.';
    setErrors(found);
    return Object.keys(found).length === 0;
  };

  const submit = async () => {
    if (!validate() || !preview.figures) return;
    if (!preview.stillShown()) {
      notify.warning('The amounts changed', 'The renter’s free cancellation window has just ended. Check the new amounts and confirm again.');
      return;
    }
    try {
      await cancel.mutateAsync({ booking, choice, expectedRefundCents: preview.figures.refundCents, ...(reason.trim() ? { reason: reason.trim() } : {}) });
      notify.success('Trip Cancelled', `${booking.booking_id}: @${booking.renter.username} gets ${rand(preview.figures.refundCents)} back; both sides are told.`);
      onClose();
    } catch (failure) {
      notify.error('Cancel Failed', messageOf(failure, ADMIN_CANCEL_FAILED));
    }
  };

  return (
    <Dialog
      open
      onClose={() => {
        if (!cancel.isPending) onClose();
      }}
      title="Cancel paid trip"
      description={`${booking.booking_id}: ${booking.renter.full_name} (@${booking.renter.username}) in @${booking.car_owner}'s ${booking.car_name}, ${formatDate(booking.start_date)} ${booking.start_time}. Paid ${formatRand(booking.total_price)}.`}
      scrollBody
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={cancel.isPending}>
            Back
          </Button>
          <Button variant="danger" onClick={() => void submit()} loading={cancel.isPending} disabled={!preview.figures || !!preview.blocked}>
            Cancel trip
          </Button>
        </>
      }
    >
      {preview.isLoading ? (
        <div className="flex justify-center py-6">
          <Spinner label="Working out the amounts" />
        </div>
      ) : !preview.quote ? (
        <Alert tone="danger" title="The amounts could not be worked out" role="alert">
          {messageOf(preview.loadError, 'Please close this and try again.')}
        </Alert>
      ) : (
        <div className="space-y-4">
          {preview.blocked && !(kind === 'amount' && amountCents === null) ? (
            <Alert tone="warning" title="This trip cannot be cancelled so" role="alert">
              {preview.blocked}
            </Alert>
          ) : null}
          <fieldset className="min-w-0">
            <legend className="mb-2 text-sm font-semibold text-stone-900">Refund to the renter</legend>
            <div className="space-y-2">
              <ChoiceRow name={name} value="full" checked={kind === 'full'} onChange={setKind} title="Full refund" detail={`${rand(trip.totalCents)} back: everything they paid.`} />
              <ChoiceRow
                name={name}
                value="policy"
                checked={kind === 'policy'}
                onChange={setKind}
                title="By the cancellation policy, as of now"
                detail={byPolicy.feeCents > 0 ? `${rand(byPolicy.refundCents)} back, less the ${rand(byPolicy.feeCents)} cancellation fee.` : `${rand(byPolicy.refundCents)} back: still inside the free window.`}
              />
              <ChoiceRow name={name} value="amount" checked={kind === 'amount'} onChange={setKind} title="An amount" detail="Any amount up to what they paid, with a reason." />
            </div>
          </fieldset>
          {kind === 'amount' ? (
            <Input
              label="Amount to refund (R)"
              type="text"
              inputMode="decimal"
              autoComplete="off"
              value={amountText}
              placeholder={`0 to ${(trip.totalCents / 100).toFixed(2)}`}
              error={errors.amount}
              onChange={(e) => {
                setAmountText(e.target.value);
                setErrors((x) => ({ ...x, amount: undefined }));
              }}
            />
          ) : null}
          <div>
            <label htmlFor={reasonId} className="mb-1.5 block text-sm font-medium text-stone-700">
              {kind === 'amount' ? 'Reason (required)' : 'Reason (optional)'}
            </label>
            <textarea
              id={reasonId}
              className={clsx('min-h-20 w-full rounded-xl border px-3.5 py-2.5 text-[15px]', errors.reason ? 'border-red-400' : 'border-stone-300')}
              value={reason}
              maxLength={1000}
              aria-invalid={errors.reason ? true : undefined}
              aria-describedby={errors.reason ? `${reasonId}-error` : `${reasonId}-hint`}
              onChange={(e) => {
                setReason(e.target.value);
                setErrors((x) => ({ ...x, reason: undefined }));
              }}
              placeholder="e.g. The car was unsafe to drive"
            />
            {errors.reason ? (
              <p id={`${reasonId}-error`} role="alert" className="mt-1.5 text-sm font-medium text-red-600">
                {errors.reason}
              </p>
            ) : (
              <p id={`${reasonId}-hint`} className="mt-1.5 text-xs text-stone-500">
                The renter and the host are told it; it is kept in the audit log.
              </p>
            )}
          </div>
          <div aria-live="polite">
            {preview.figures && amountShown ? (
              <AmountRows label="What each side gets" rows={figureRows(preview.figures, booking.car_owner_earnings)} />
            ) : (
              <p className="rounded-xl border border-dashed border-stone-300 px-4 py-3 text-sm text-stone-600">Enter the amount to see what each side gets.</p>
            )}
            {preview.differs ? (
              <p className="mt-2 text-xs text-stone-600">These are the server&rsquo;s amounts: its clock puts this a moment later than this device&rsquo;s.</p>
            ) : null}
          </div>
        </div>
      )}
    </Dialog>
  );
}
