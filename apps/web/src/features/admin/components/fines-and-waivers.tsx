// Traffic fines and CPA s. 17 requests in the admin's Bookings tab (issue 34; decisions 066, 067).
// Fines: each with its car, notice, match (or "no trip"), state and deadline; the nomination is
// downloadable (audited). Requests: the ground, the evidence, the fee, and a decide form whose
// reason the audit log keeps; approved, the fee is refunded through the ledger at once.
import type { FeeWaiver, WaiverGround } from '@karoo/shared';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { useNotification } from '@/components/ui/toast';
import { messageOf } from '@/lib/api-client';
import { formatDate, formatDateTime, formatRand } from '@/lib/format';
import { downloadFineNomination, openFineNotice, openWaiverEvidence, useAdminFines, useDecideWaiver, useWaiverRequests } from '../api/admin-fines';
import { AdminQueue } from './admin-queue';

const GROUND: Record<WaiverGround, string> = { death: 'A death', hospital: 'Admitted to hospital' };

export function AdminFines() {
  const notify = useNotification();
  const { data, isPending, isError } = useAdminFines();
  return (
    <AdminQueue id="admin-fines-title" title="Traffic fines" intro="Fines hosts entered, the trip each fell in, and the 32 days to nominate the driver." isPending={isPending} isError={isError} isEmpty={data?.length === 0} loading="Loading fines…" failed="Fines could not be loaded." empty="No traffic fines.">
      {data && data.length > 0 ? (
        <ul className="mt-3 divide-y divide-stone-100">
          {data.map((fine) => (
            <li key={fine.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm" data-testid="admin-fine">
              <div>
                <p className="font-medium text-stone-900">
                  {fine.notice_number} · {formatRand(fine.amount)} · {fine.car.name} ({fine.plate})
                </p>
                <p className="text-stone-600">
                  {formatDateTime(fine.occurred_at)}, {fine.place} · {fine.trip ? `trip ${fine.trip.booking_number}` : 'no trip had the car'} · {fine.status_label}
                  {fine.status === 'open' ? ` · nominate by ${formatDate(fine.nominate_by)}` : ''}
                </p>
              </div>
              <div className="flex gap-2">
                <Button size="sm" variant="ghost" onClick={() => void openFineNotice(fine).catch((e: unknown) => notify.error('Not Opened', messageOf(e, 'The notice could not be opened.')))}>
                  Notice
                </Button>
                {fine.nomination_url ? (
                  <Button size="sm" variant="secondary" onClick={() => void downloadFineNomination(fine).catch((e: unknown) => notify.error('Download Failed', messageOf(e, 'The nomination could not be made.')))}>
                    AARTO 07
                  </Button>
                ) : null}
              </div>
            </li>
          ))}
        </ul>
      ) : null}
    </AdminQueue>
  );
}

function DecideWaiver({ waiver }: { waiver: FeeWaiver }) {
  const notify = useNotification();
  const decide = useDecideWaiver();
  const [reason, setReason] = useState('');
  const send = (decision: 'approve' | 'decline') => (e?: FormEvent) => {
    e?.preventDefault();
    decide.mutate(
      { id: waiver.id, decision, reason },
      {
        onSuccess: () => notify.success(decision === 'approve' ? 'Fee Refunded' : 'Request Declined', `Booking ${waiver.booking_number}: the reason is in the audit log.`),
        onError: (error) => notify.error('Not Decided', messageOf(error, 'The request could not be decided. Please try again.')),
      },
    );
  };
  return (
    <form onSubmit={send('approve')} className="mt-2 grid gap-2 sm:grid-cols-[1fr_auto_auto] sm:items-end" aria-label={`Decide the request on ${waiver.booking_number}`}>
      <Input label="Reason" value={reason} onChange={(e) => setReason(e.target.value)} hint="At least 10 characters; the renter reads it." />
      <Button type="submit" loading={decide.isPending}>
        Approve and refund {formatRand(waiver.fee)}
      </Button>
      <Button type="button" variant="secondary" onClick={() => send('decline')()}>
        Decline
      </Button>
    </form>
  );
}

export function WaiverRequests() {
  const notify = useNotification();
  const { data, isPending, isError } = useWaiverRequests();
  return (
    <AdminQueue id="fee-waivers-title" title={'Cancellation fee waivers (CPA s.\u00a017)'} isPending={isPending} isError={isError} isEmpty={data?.length === 0} loading="Loading requests…" failed="Requests could not be loaded." empty="No requests to waive a cancellation fee.">
      {data && data.length > 0 ? (
        <ul className="mt-3 space-y-3">
          {data.map((w) => (
            <li key={w.id} className="rounded-lg border border-stone-200 p-3" data-testid="fee-waiver-request">
              <p className="text-sm font-semibold text-stone-900">
                {w.booking_number} · {formatRand(w.fee)}
              </p>
              <p className="text-sm text-stone-600">
                {GROUND[w.ground]} ({w.person === 'renter' ? 'the renter' : 'immediate family'}) · asked {formatDateTime(w.created_at)}
              </p>
              {w.statement ? <p className="mt-1 text-sm text-stone-700">“{w.statement}”</p> : null}
              <Button size="sm" variant="ghost" onClick={() => void openWaiverEvidence(w).catch((e: unknown) => notify.error('Not Opened', messageOf(e, 'The evidence could not be opened.')))}>
                View the evidence
              </Button>
              <DecideWaiver waiver={w} />
            </li>
          ))}
        </ul>
      ) : null}
    </AdminQueue>
  );
}
