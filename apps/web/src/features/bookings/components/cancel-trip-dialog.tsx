// Cancelling a paid trip from My Bookings (issue 20; decision 037), before anyone confirms:
// - the renter sees the policy in plain words, until when it is free, the fee if any and what they
//   get back;
// - the host sees that the renter gets everything back and the penalty taken from their next payout;
// - after the start, the host reports a no-show instead and sees the renter's fee and their share.
// The amounts are the shared cancellationOutcome()'s (lib/cancellation.ts), confirmed by the
// server's quote; the server computes them once more as it cancels.
import { CPA_WAIVER_POLICY, formatPolicyMoment, formatRand, type Booking } from '@karoo/shared';
import { CalendarClock } from 'lucide-react';
import { Alert } from '@/components/ui/alert';
import { AmountRows, type AmountRow } from '@/components/ui/amount-rows';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Spinner } from '@/components/ui/spinner';
import { useNotification } from '@/components/ui/toast';
import { messageOf } from '@/lib/api-client';
import { formatTripSpan, partyName } from '@/lib/booking-format';
import { useCancellationPreview, type CancellationFigures, type CancellationPreview } from '@/lib/cancellation';
import { useCancelTrip } from '../api/bookings';

export type CancelTripMode = 'renter' | 'host' | 'no-show';

export const CANCEL_TRIP_FAILED = 'Failed to cancel the trip. Please try again.';

const rand = (cents: number) => formatRand(cents / 100);

interface Copy {
  title: string;
  confirm: string;
  loading: string;
  back: string;
  tone: 'danger' | 'warning';
  description: (b: Booking, renter: string) => string;
  done: (b: Booking, f: CancellationFigures, renter: string) => [string, string];
}


const COPY: Record<CancelTripMode, Copy> = {
  renter: {
    title: 'Cancel your trip?',
    confirm: 'Cancel trip',
    loading: 'Cancelling…',
    back: 'Keep trip',
    tone: 'danger',
    description: (b) => `Your paid trip in the ${b.car.car_year} ${b.car_name}, ${formatTripSpan(b)}.`,
    done: (b, f) => ['Trip Cancelled', `Your trip in the ${b.car_name} is cancelled. ${rand(f.refundCents)} is on its way back to your card.`],
  },
  host: {
    title: 'Cancel this trip?',
    confirm: 'Cancel trip',
    loading: 'Cancelling…',
    back: 'Keep trip',
    tone: 'danger',
    description: (b, renter) => `${renter}'s paid trip in your ${b.car_name}, ${formatTripSpan(b)}. ${renter} is told at once.`,
    done: (_b, f, renter) => ['Trip Cancelled', `${renter} gets ${rand(f.refundCents)} back. ${rand(f.hostPenaltyCents)} will be deducted from your next payout.`],
  },
  'no-show': {
    title: 'Report a no-show?',
    confirm: 'Report no-show',
    loading: 'Reporting…',
    back: 'Back',
    tone: 'warning',
    description: (b, renter) => `${renter} did not come to collect your ${b.car_name} (trip ${formatTripSpan(b)}). The trip is cancelled and ${renter} pays the cancellation fee.`,
    done: (_b, f, renter) => ['No-show Reported', `The trip is cancelled. You earn ${rand(f.hostShareCents)}; ${renter} gets ${rand(f.refundCents)} back.`],
  },
};

/** What each side gets back or pays, in the words of the person cancelling. */
function rowsFor(mode: CancelTripMode, f: CancellationFigures, paidCents: number, renter: string, hostFeeRate: number): AmountRow[] {
  if (mode === 'renter') {
    return [
      { label: 'You paid', cents: paidCents },
      ...(f.feeCents > 0 ? [{ label: 'Cancellation fee', cents: f.feeCents, minus: true, testId: 'cancel-fee' }] : []),
      { label: 'You get back', cents: f.refundCents, strong: true, testId: 'cancel-refund' },
    ];
  }
  if (mode === 'host') {
    return [
      { label: `${renter} gets back`, hint: 'Everything they paid', cents: f.refundCents, testId: 'cancel-refund' },
      { label: 'Your cancellation penalty', hint: 'Deducted from your next payout', cents: f.hostPenaltyCents, strong: true, testId: 'cancel-penalty' },
    ];
  }
  return [
    { label: `${renter} paid`, cents: paidCents },
    { label: 'Cancellation fee', hint: `Kept from ${renter}`, cents: f.feeCents, testId: 'cancel-fee' },
    { label: `${renter} gets back`, cents: f.refundCents, testId: 'cancel-refund' },
    { label: 'You earn', hint: `Your share of the fee, after the host fee of ${hostFeeRate}%`, cents: f.hostShareCents, strong: true, testId: 'cancel-host-share' },
  ];
}

function FreeWindow({ preview }: { preview: CancellationPreview }) {
  const free = preview.now < preview.freeUntil;
  return (
    <p
      data-testid="free-window"
      className={
        free
          ? 'flex items-start gap-2 rounded-xl bg-emerald-50 px-3 py-2 text-sm font-medium text-emerald-900 ring-1 ring-emerald-200'
          : 'flex items-start gap-2 rounded-xl bg-amber-50 px-3 py-2 text-sm font-medium text-amber-900 ring-1 ring-amber-200'
      }
    >
      <CalendarClock className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      {free ? `Free cancellation until ${formatPolicyMoment(preview.freeUntil)}` : `Free cancellation ended ${formatPolicyMoment(preview.freeUntil)}`}
    </p>
  );
}

function PreviewBody({ mode, booking, preview, renter }: { mode: CancelTripMode; booking: Booking; preview: CancellationPreview; renter: string }) {
  if (preview.isLoading) {
    return (
      <div className="flex justify-center py-6">
        <Spinner label="Working out the amounts" />
      </div>
    );
  }
  if (!preview.quote || !preview.figures) {
    return (
      <Alert tone="danger" title="The amounts could not be worked out" role="alert">
        {messageOf(preview.loadError, 'Please close this and try again.')}
      </Alert>
    );
  }
  const f = preview.figures;
  const paidCents = Math.round(preview.quote.paid * 100);
  const penalties = preview.quote.penalties;
  return (
    <div className="space-y-3">
      {preview.blocked ? (
        <Alert tone="warning" title="This trip cannot be cancelled now" role="alert">
          {preview.blocked}
        </Alert>
      ) : null}
      {mode === 'renter' ? <FreeWindow preview={preview} /> : null}
      <AmountRows label={mode === 'renter' ? 'What you get back' : mode === 'host' ? 'What each side gets back or pays' : 'What the no-show costs and earns'} rows={rowsFor(mode, f, paidCents, renter, booking.commission_rate)} />
      {preview.differs ? (
        <Alert tone="info" role="status">
          Karoo&rsquo;s clock puts this a moment later than your device&rsquo;s: these are the amounts that apply.
        </Alert>
      ) : null}
      {mode === 'host' && f.hostPenaltyCents > 0 ? (
        <p className="rounded-xl bg-red-50 px-3 py-2 text-sm font-medium text-red-800 ring-1 ring-red-200" data-testid="penalty-note">
          {rand(f.hostPenaltyCents)} will be deducted from your next payout.
        </p>
      ) : null}
      {mode === 'renter' ? (
        <p className="text-sm text-stone-600">
          <span className="font-medium text-stone-800">Cancellation policy:</span> {preview.policy} Refunds reach your card within a few working days.
          {f.feeCents > 0 ? <span className="mt-1 block text-xs" data-testid="cpa-waiver-policy">{CPA_WAIVER_POLICY}</span> : null}
        </p>
      ) : mode === 'host' ? (
        <p className="text-sm text-stone-600">
          A host who cancels a paid trip pays {formatRand(penalties.early)} more than 24 hours before the start and {formatRand(penalties.late)} within 24 hours. The cancellation shows on your profile.
        </p>
      ) : (
        <p className="text-sm text-stone-600">Report a no-show only if {renter} did not come at all: the renter is told, and the fee follows the published cancellation policy.</p>
      )}
    </div>
  );
}

export function CancelTripDialog({ booking, mode, open, onClose }: { booking: Booking; mode: CancelTripMode; open: boolean; onClose: () => void }) {
  const notify = useNotification();
  const cancel = useCancelTrip();
  const copy = COPY[mode];
  const renter = partyName(booking.renter);
  const preview = useCancellationPreview({ booking, actor: mode === 'renter' ? 'renter' : 'host', noShow: mode === 'no-show', open });

  async function onConfirm() {
    const figures = preview.figures;
    if (!figures) throw new Error('No amounts to confirm');
    // The free window may have ended while the dialog was open: show the new amounts, ask again.
    if (!preview.stillShown()) {
      notify.warning('The amounts changed', 'The free cancellation window has just ended. Check the new amounts and confirm again.');
      throw new Error('Amounts changed before confirming');
    }
    try {
      await cancel.mutateAsync({ id: booking.id, noShow: mode === 'no-show', expectedRefundCents: figures.refundCents });
      const [title, message] = copy.done(booking, figures, renter);
      notify.success(title, message);
    } catch (error) {
      notify.error('Cancel Failed', messageOf(error, CANCEL_TRIP_FAILED));
      throw error;
    }
  }

  return (
    <ConfirmDialog
      open={open}
      tone={copy.tone}
      title={copy.title}
      description={copy.description(booking, renter)}
      confirmLabel={copy.confirm}
      loadingLabel={copy.loading}
      cancelLabel={copy.back}
      confirmDisabled={!preview.figures || !!preview.blocked}
      onConfirm={onConfirm}
      onClose={onClose}
      scrollBody
    >
      <PreviewBody mode={mode} booking={booking} preview={preview} renter={renter} />
    </ConfirmDialog>
  );
}
