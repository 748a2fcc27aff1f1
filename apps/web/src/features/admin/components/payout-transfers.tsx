// The Finance tab's Payout transfers (decision 069): what the next runs will send and the balance
// they need, every transfer with its state and reference, Retry on a failed or reversed one, and
// pauses: one host (with a reason, audited) or everyone (a setting).
import { formatRand, formatShortDay, TRANSFER_STATE_LABELS, type PayoutTransfer } from '@karoo/shared';
import { PauseCircle, PlayCircle, RotateCcw } from 'lucide-react';
import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { inputClasses } from '@/components/ui/input';
import { useNotification } from '@/components/ui/toast';
import { messageOf } from '@/lib/api-client';
import { useAdminPayouts, usePauseAll, usePauseHost, useRetryTransfer } from '../api/admin-payouts';

const card = 'rounded-2xl border border-stone-200/80 bg-white shadow-card';
const TONE: Record<PayoutTransfer['state'], string> = {
  queued: 'bg-stone-100 text-stone-700',
  otp: 'bg-amber-100 text-amber-800',
  pending: 'bg-sky-100 text-sky-800',
  success: 'bg-emerald-100 text-emerald-800',
  failed: 'bg-red-100 text-red-800',
  reversed: 'bg-red-100 text-red-800',
};

export function PayoutTransfers() {
  const payouts = useAdminPayouts();
  const retry = useRetryTransfer();
  const pauseHost = usePauseHost();
  const pauseAll = usePauseAll();
  const notify = useNotification();
  const [pausing, setPausing] = useState<string | null>(null);
  const [reason, setReason] = useState('');
  if (payouts.isPending) return <p className="text-sm text-stone-500" role="status">Loading payout transfers…</p>;
  if (payouts.isError) return <Alert tone="danger">{messageOf(payouts.error, 'Payout transfers could not be loaded.')}</Alert>;
  const d = payouts.data;
  const onRetry = (t: PayoutTransfer) =>
    retry.mutate(t.id, {
      onSuccess: (next) => notify.success('Sent again', `${formatRand(next.amount)} to ${t.host_username}: ${TRANSFER_STATE_LABELS[next.state]} (${next.reference}).`),
      onError: (err) => notify.error('Not sent', messageOf(err, 'Please try again.')),
    });
  const paused = new Set(d.paused_hosts.map((p) => p.host_id));
  return (
    <section aria-labelledby="payout-transfers" className={`p-4 sm:p-5 ${card}`}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id="payout-transfers" className="text-lg font-semibold text-stone-900">Payout transfers</h2>
          <p className="text-sm text-stone-600">Balance needed for the next runs: <strong className="text-stone-900">{formatRand(d.needed_for_next_run)}</strong></p>
        </div>
        <Button
          variant={d.paused_all ? 'success' : 'danger-outline'}
          size="sm"
          icon={d.paused_all ? <PlayCircle className="size-4" aria-hidden="true" /> : <PauseCircle className="size-4" aria-hidden="true" />}
          loading={pauseAll.isPending}
          onClick={() => pauseAll.mutate(!d.paused_all, { onError: (err) => notify.error('Not changed', messageOf(err, 'Please try again.')) })}
        >
          {d.paused_all ? 'Resume all payouts' : 'Pause all payouts'}
        </Button>
      </div>
      {d.paused_all && <Alert tone="warning" className="mt-3">Payouts are paused for everyone: no run sends anything.</Alert>}

      <h3 className="mt-4 text-sm font-semibold uppercase tracking-wide text-stone-500">Scheduled</h3>
      {d.scheduled.length === 0 ? (
        <p className="mt-1 text-sm text-stone-600">Nothing is owed to any host now.</p>
      ) : (
        <ul className="mt-1 divide-y divide-stone-100 text-sm">
          {d.scheduled.map((s) => (
            <li key={s.host_id} className="py-2">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <span className="font-medium text-stone-900">{s.host_username} · {formatRand(s.amount)} on {formatShortDay(s.day)}</span>
                {paused.has(s.host_id) ? (
                  <Button variant="secondary" size="sm" onClick={() => pauseHost.mutate({ hostId: s.host_id, paused: false })}>Resume</Button>
                ) : (
                  <Button variant="ghost" size="sm" onClick={() => { setPausing(s.host_id); setReason(''); }}>Pause</Button>
                )}
              </div>
              {s.held_reason && <p className="text-amber-800">{s.held_reason}</p>}
              {pausing === s.host_id && (
                <form
                  className="mt-2 flex flex-wrap gap-2"
                  onSubmit={(e) => {
                    e.preventDefault();
                    pauseHost.mutate({ hostId: s.host_id, paused: true, reason }, { onSuccess: () => setPausing(null), onError: (err) => notify.error('Not paused', messageOf(err, 'Please try again.')) });
                  }}
                >
                  <input aria-label="Reason for pausing" className={`${inputClasses} min-w-0 flex-1`} placeholder="Why (kept in the audit log)" value={reason} onChange={(e) => setReason(e.target.value)} />
                  <Button type="submit" size="sm" variant="danger" disabled={reason.trim().length < 3} loading={pauseHost.isPending}>Pause payouts</Button>
                </form>
              )}
            </li>
          ))}
        </ul>
      )}

      <h3 className="mt-4 text-sm font-semibold uppercase tracking-wide text-stone-500">Transfers</h3>
      {d.transfers.length === 0 ? (
        <p className="mt-1 text-sm text-stone-600">No transfers yet.</p>
      ) : (
        <ul className="mt-1 divide-y divide-stone-100 text-sm">
          {d.transfers.map((t) => (
            <li key={t.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
              <div className="min-w-0">
                <p className="font-medium text-stone-900">{t.host_username} · {formatRand(t.amount)} · {formatShortDay(t.created_at.slice(0, 10))}</p>
                <p className="break-words text-stone-500">{t.reference} · {t.bank_name} ····{t.account_number_last4}{t.failure_reason ? ` · ${t.failure_reason}` : ''}</p>
              </div>
              <div className="flex items-center gap-2">
                <span className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${TONE[t.state]}`}>{TRANSFER_STATE_LABELS[t.state]}{t.retried ? ' · sent again' : ''}</span>
                {(t.state === 'failed' || t.state === 'reversed') && !t.retried && (
                  <Button size="sm" variant="secondary" icon={<RotateCcw className="size-4" aria-hidden="true" />} loading={retry.isPending && retry.variables === t.id} onClick={() => onRetry(t)}>
                    Retry
                  </Button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      {d.paused_hosts.length > 0 && (
        <>
          <h3 className="mt-4 text-sm font-semibold uppercase tracking-wide text-stone-500">Paused hosts</h3>
          <ul className="mt-1 text-sm text-stone-700">
            {d.paused_hosts.map((p) => (
              <li key={p.host_id} className="flex flex-wrap items-center justify-between gap-2 py-1">
                <span>{p.host_username}: {p.reason}</span>
                <Button variant="secondary" size="sm" onClick={() => pauseHost.mutate({ hostId: p.host_id, paused: false })}>Resume</Button>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
