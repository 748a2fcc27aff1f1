// Disputed trip charges in the admin's Bookings tab (issue 34; decision 065): each claim's lines,
// the host's and the renter's statements and photos side by side, and a decide form: an amount (at
// most what was claimed) and a reason, which the audit log keeps; it is paid at once.
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { useNotification } from '@/components/ui/toast';
import { TripPhoto } from '@/components/trip-photo';
import { messageOf } from '@/lib/api-client';
import { formatDateTime, formatRand } from '@/lib/format';
import { useDecideClaim, useDisputedClaims, type AdminClaim } from '../api/admin-claims';
import { AdminQueue } from './admin-queue';

function Side({ title, statement, photos }: { title: string; statement: string | null; photos: AdminClaim['evidence'] }) {
  return (
    <div className="rounded-lg bg-white p-2">
      <p className="text-xs font-semibold uppercase tracking-wide text-stone-500">{title}</p>
      <p className="mt-1 text-sm text-stone-800">{statement ? `“${statement}”` : 'No statement.'}</p>
      {photos.length ? (
        <div className="mt-2 grid grid-cols-2 gap-2">
          {photos.map((p) => (
            <TripPhoto key={p.id} photo={{ id: p.id, slot: 'extra', url: p.url }} />
          ))}
        </div>
      ) : null}
    </div>
  );
}

function DecideForm({ claim }: { claim: AdminClaim }) {
  const decide = useDecideClaim();
  const notify = useNotification();
  const [amount, setAmount] = useState(String(claim.claimed));
  const [reason, setReason] = useState('');
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    decide.mutate(
      { id: claim.id, amount: Number(amount), reason },
      {
        onSuccess: () => notify.success('Claim decided', `Booking ${claim.booking_number}: paid, and the reason is in the audit log.`),
        onError: (error) => notify.error('Not decided', messageOf(error, 'The claim could not be decided. Please try again.')),
      },
    );
  };
  return (
    <form onSubmit={onSubmit} className="mt-3 grid gap-2 sm:grid-cols-[10rem_1fr_auto] sm:items-end" aria-label={`Decide the claim on ${claim.booking_number}`}>
      <Input label="Amount (R)" type="number" inputMode="decimal" min={0} max={claim.claimed} step="0.01" value={amount} onChange={(e) => setAmount(e.target.value)} />
      <Input label="Reason" value={reason} onChange={(e) => setReason(e.target.value)} hint="Both parties read it." />
      <Button type="submit" loading={decide.isPending}>
        Decide
      </Button>
    </form>
  );
}

export function DisputedClaims() {
  const { data, isPending, isError } = useDisputedClaims();
  return (
    <AdminQueue
      id="disputed-claims-title"
      title="Disputed trip charges"
      isPending={isPending}
      isError={isError}
      isEmpty={data?.length === 0}
      loading="Loading trip charges…"
      failed="Trip charges could not be loaded."
      empty="No disputed trip charges."
    >
      {data && data.length > 0 ? (
        <ul className="mt-3 space-y-3">
          {data.map((claim) => (
            <li key={claim.id} className="rounded-lg border border-amber-300 bg-amber-50 p-3" data-testid="disputed-claim">
              <p className="text-sm font-semibold text-stone-900">
                {claim.booking_number} · {formatRand(claim.claimed)} claimed, {formatDateTime(claim.created_at)}
              </p>
              <ul className="mt-1 text-sm text-stone-700">
                {claim.items.map((i) => (
                  <li key={i.kind}>
                    {i.label}: {formatRand(i.amount)}
                    {i.detail ? ` (${i.detail})` : ''}
                    {i.note ? `: “${i.note}”` : ''}
                  </li>
                ))}
              </ul>
              <div className="mt-2 grid gap-2 sm:grid-cols-2">
                <Side title="Host" statement={claim.host_statement || null} photos={claim.evidence.filter((e) => e.party === 'host')} />
                <Side title="Renter" statement={claim.renter_statement} photos={claim.evidence.filter((e) => e.party === 'renter')} />
              </div>
              <DecideForm claim={claim} />
            </li>
          ))}
        </ul>
      ) : null}
    </AdminQueue>
  );
}
