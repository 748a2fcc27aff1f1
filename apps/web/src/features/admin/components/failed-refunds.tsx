// The Finance tab's Refunds needing attention (issue 20): refunds the payment provider kept refusing
// until the retries gave up, each with its booking, renter, amount, reason, attempts and last error,
// and a Retry that asks the provider again at once and says what it answered. Empty most of the
// time, and says so in one line.
import type { AdminRefundRow } from '@karoo/shared';
import { RotateCcw, TriangleAlert } from 'lucide-react';
import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { useNotification } from '@/components/ui/toast';
import { messageOf } from '@/lib/api-client';
import { formatDateTime, formatRand } from '@/lib/format';
import { useFailedRefunds, useRetryRefund, type RefundRetryResult } from '../api/admin-refunds';

const card = 'rounded-2xl border border-stone-200/80 bg-white shadow-card';

const RESULT_TEXT: Record<RefundRetryResult['outcome'], string> = {
  refunded: 'The refund was accepted by the payment provider.',
  pending: 'Asked again; the provider has not accepted it yet.',
  failed: 'The payment provider refused the refund again.',
  skipped: 'Nothing to do: this refund was already settled or asked for again.',
};

export function FailedRefunds() {
  const failed = useFailedRefunds();
  if (failed.isPending) {
    return (
      <p className="text-sm text-stone-500" role="status">
        Loading refunds needing attention…
      </p>
    );
  }
  if (!failed.data) {
    return (
      <Alert tone="danger" title="Refunds needing attention could not be loaded">
        {messageOf(failed.error, 'Please try again.')}
        <div className="mt-3">
          <Button size="sm" variant="secondary" onClick={() => void failed.refetch()} loading={failed.isFetching}>
            Try again
          </Button>
        </div>
      </Alert>
    );
  }
  // Nothing to act on: one quiet line instead of an empty panel.
  if (failed.data.length === 0) {
    return (
      <p className="text-sm text-stone-500" data-testid="no-failed-refunds">
        No failed refunds.
      </p>
    );
  }
  return (
    <section aria-labelledby="finance-failed-refunds" className={`border-amber-300 p-4 sm:p-5 ${card}`}>
      <h2 id="finance-failed-refunds" className="flex items-center gap-2 text-lg font-semibold text-stone-900">
        <TriangleAlert className="size-5 text-amber-600" aria-hidden="true" />
        Refunds needing attention
      </h2>
      <p className="text-sm text-stone-600">The payment provider refused these refunds after repeated tries. The renters are still owed the money.</p>
      <ul className="mt-3 divide-y divide-stone-100">
        {failed.data.map((refund) => (
          <FailedRefundItem key={refund.id} refund={refund} />
        ))}
      </ul>
    </section>
  );
}

function FailedRefundItem({ refund }: { refund: AdminRefundRow }) {
  const notify = useNotification();
  const retry = useRetryRefund();
  const [result, setResult] = useState<RefundRetryResult | null>(null);
  const onRetry = () =>
    retry.mutate(refund.id, {
      onSuccess: (answer) => {
        setResult(answer);
        const text = answer.message || RESULT_TEXT[answer.outcome];
        if (answer.outcome === 'refunded') notify.success('Refund accepted', `${formatRand(refund.amount)} to @${refund.renter_username}: ${text}`);
        else if (answer.outcome === 'failed') notify.error('Refund refused again', text);
        else notify.info('Refund asked again', text);
      },
      onError: (error) => notify.error('Retry failed', messageOf(error, 'The refund could not be asked for again.')),
    });
  return (
    <li className="flex flex-col gap-3 py-3 sm:flex-row sm:items-start sm:justify-between" data-testid="failed-refund">
      <div className="min-w-0 space-y-1">
        <p className="font-medium text-stone-900">
          {formatRand(refund.amount)} to @{refund.renter_username} · booking <span className="font-mono">{refund.booking_number}</span>
        </p>
        {refund.reason ? <p className="text-sm text-stone-600">{refund.reason}</p> : null}
        <p className="text-xs text-stone-500">
          {refund.attempts} {refund.attempts === 1 ? 'attempt' : 'attempts'} · asked {formatDateTime(refund.requested_at)}
        </p>
        {refund.last_error ? <p className="text-sm break-words text-red-700">Last error: {refund.last_error}</p> : null}
        {result ? (
          <p role="status" className="text-sm font-medium text-stone-800">
            {result.message || RESULT_TEXT[result.outcome]}
          </p>
        ) : null}
      </div>
      {refund.retried ? (
        <Badge tone="info" className="shrink-0 self-start">
          Asked again
        </Badge>
      ) : (
        <Button
          size="sm"
          variant="secondary"
          className="shrink-0 self-start"
          icon={<RotateCcw className="size-4" aria-hidden="true" />}
          loading={retry.isPending}
          onClick={onRetry}
          aria-label={`Retry the refund of ${formatRand(refund.amount)} to ${refund.renter_username} (booking ${refund.booking_number})`}
        >
          Retry
        </Button>
      )}
    </li>
  );
}
