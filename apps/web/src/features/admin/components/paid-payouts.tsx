// Admin Finance: the payouts marked paid and their reversals (issue 18; docs/decisions/032). Paid is
// final: a mistake is taken back with "Reverse", which asks for the reason (kept with the reversal
// and in the audit log); the trip's payout is then owed again and shows under Host payouts.
import { PAYOUT_REVERSAL_REASON_MAX, reversePayoutBodySchema, type FinancePaidPayout, type FinancePayoutReversal } from '@karoo/shared';
import { Undo2 } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { useNotification } from '@/components/ui/toast';
import { messageOf } from '@/lib/api-client';
import { formatDate, formatRand } from '@/lib/format';
import { useReversePayout } from '../api/admin-finance';

const card = 'rounded-2xl border border-stone-200/80 bg-white p-4 shadow-card sm:p-5';

export function PaidPayouts({ paid, reversals }: { paid: FinancePaidPayout[]; reversals: FinancePayoutReversal[] }) {
  const [reversing, setReversing] = useState<FinancePaidPayout | null>(null);
  return (
    <section aria-labelledby="finance-paid-payouts" className={card}>
      <h2 id="finance-paid-payouts" className="text-lg font-semibold text-stone-900">
        Paid payouts
      </h2>
      <p className="text-sm text-stone-500">The latest payouts marked paid. A paid payout is final: a mistake is reversed with a reason, and the trip is owed again.</p>
      {paid.length === 0 ? (
        <p className="mt-3 text-sm text-stone-500">No payout has been marked paid yet.</p>
      ) : (
        <ul className="mt-3 divide-y divide-stone-100">
          {paid.map((p) => (
            <li key={p.booking_id} className="flex flex-wrap items-center justify-between gap-3 py-3" data-testid="finance-paid-payout">
              <div className="min-w-0">
                <p className="font-medium text-stone-900">
                  {p.host_name} <span className="font-normal text-stone-500">@{p.host_username}</span>
                </p>
                {/* Each part on one line: a narrow screen breaks between them, never inside a reference. */}
                <p className="flex flex-wrap gap-x-1.5 text-sm text-stone-500">
                  <span className="font-mono text-xs leading-5">{p.booking_number}</span>
                  <span>· {p.car_name}</span>
                  <span className="whitespace-nowrap">· {p.payout_reference ? `Ref ${p.payout_reference}` : 'No reference'}</span>
                  <span className="whitespace-nowrap">· {p.paid_at ? `paid ${formatDate(p.paid_at)}` : 'paid'}</span>
                </p>
              </div>
              <div className="flex items-center gap-3">
                <span className="text-lg font-semibold tabular-nums text-stone-900">{formatRand(p.amount)}</span>
                <Button size="sm" variant="secondary" icon={<Undo2 className="size-4" aria-hidden="true" />} aria-label={`Reverse payout of ${p.booking_number}`} onClick={() => setReversing(p)}>
                  Reverse
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}

      {reversals.length > 0 ? (
        <>
          <h3 className="mt-5 text-base font-semibold text-stone-900">Reversed payouts</h3>
          <ul className="mt-2 divide-y divide-stone-100">
            {reversals.map((r) => (
              <li key={r.id} className="py-3 text-sm" data-testid="finance-payout-reversal">
                <p className="flex flex-wrap justify-between gap-2">
                  <span>
                    <span className="font-mono text-xs">{r.booking_number}</span> <span className="text-stone-500">@{r.host_username}</span>
                  </span>
                  <span className="tabular-nums text-stone-900">{formatRand(r.amount)}</span>
                </p>
                <p className="mt-0.5 break-words text-stone-600">&ldquo;{r.reason}&rdquo;</p>
                <p className="mt-0.5 flex flex-wrap gap-x-1.5 text-xs text-stone-500">
                  <span>
                    Reversed {formatDate(r.reversed_at)} by @{r.reversed_by}
                  </span>
                  {r.payout_reference ? <span className="whitespace-nowrap">· was ref {r.payout_reference}</span> : null}
                </p>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <ReversePayoutDialog payout={reversing} onClose={() => setReversing(null)} />
    </section>
  );
}

function ReversePayoutDialog({ payout, onClose }: { payout: FinancePaidPayout | null; onClose: () => void }) {
  const notify = useNotification();
  const mutation = useReversePayout();
  const fieldId = useId();
  const errorId = useId();
  const field = useRef<HTMLTextAreaElement>(null);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>();
  const close = () => {
    setReason('');
    setError(undefined);
    onClose();
  };
  const submit = async () => {
    if (!payout) return;
    // The server's own rule (the same schema), so the dialog says what the server would.
    const parsed = reversePayoutBodySchema.safeParse({ reason });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Please give the reason for the reversal.');
      field.current?.focus();
      return;
    }
    try {
      await mutation.mutateAsync({ bookingId: payout.booking_id, reason: parsed.data.reason });
      notify.success('Payout reversed', `${formatRand(payout.amount)} to @${payout.host_username} (${payout.booking_number}) is owed again.`);
      close();
    } catch (failure) {
      notify.error('Reversal failed', messageOf(failure, 'The payout could not be reversed.'));
    }
  };
  return (
    <Dialog
      open={payout !== null}
      onClose={close}
      title="Reverse payout"
      description={
        payout
          ? `${formatRand(payout.amount)} paid to ${payout.host_name} (@${payout.host_username}) for ${payout.booking_number}${payout.payout_reference ? `, reference ${payout.payout_reference}` : ''}. The trip is owed again; the reversal and its reason are kept in the records.`
          : undefined
      }
      footer={
        <>
          <Button variant="secondary" onClick={close} disabled={mutation.isPending}>
            Cancel
          </Button>
          <Button variant="danger" onClick={() => void submit()} loading={mutation.isPending}>
            Reverse payout
          </Button>
        </>
      }
    >
      <label htmlFor={fieldId} className="mb-1.5 block text-sm font-medium text-stone-700">
        Reason (required)
      </label>
      <textarea
        ref={field}
        id={fieldId}
        className="min-h-24 w-full rounded-xl border border-stone-300 px-3.5 py-2.5 text-[15px]"
        value={reason}
        maxLength={PAYOUT_REVERSAL_REASON_MAX}
        required
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        onChange={(e) => {
          setReason(e.target.value);
          setError(undefined);
        }}
        placeholder="e.g. Paid to the wrong bank account"
      />
      {error ? (
        <p id={errorId} className="mt-1.5 text-sm text-red-600" role="alert">
          {error}
        </p>
      ) : null}
    </Dialog>
  );
}
