// The CPA s. 17 waiver on a cancelled trip's card (issue 34; decision 067): when a cancellation
// kept a fee, the renter may ask for it back because they, or a member of their immediate family,
// died or were admitted to hospital, with a death certificate or a hospital letter; then they see
// where the request stands. The host never sees the request (the evidence is about health).
import { CPA_WAIVER_POLICY, type Booking, type FeeWaiver, type WaiverGround } from '@karoo/shared';
import { HeartPulse } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { useNotification } from '@/components/ui/toast';
import { messageOf } from '@/lib/api-client';
import { formatDateTime, formatRand } from '@/lib/format';
import { useBookingWaivers, useRequestWaiver } from '../api/fee-waivers';

const STATUS: Record<FeeWaiver['status'], string> = {
  requested: 'Asked: Karoo will look at it',
  approved: 'Approved: the fee is refunded to your card',
  declined: 'Declined',
};

export function FeeWaiverPanel({ booking }: { booking: Booking }) {
  const fee = booking.money.cancellation_fee ?? 0;
  const shown = booking.status === 'cancelled' && booking.payment_status === 'paid';
  const query = useBookingWaivers(booking.id, shown);
  const [asking, setAsking] = useState(false);
  if (!shown || !query.data) return null;
  const waivers = query.data;
  const live = waivers.find((w) => w.status !== 'declined');
  if (fee <= 0 && waivers.length === 0) return null;
  // Once approved the fee is given back: the heading says so, and the rule's "ask for it" is done.
  const waived = live?.status === 'approved';
  return (
    <section className="border-t border-stone-100 p-4 sm:px-5" aria-label="Cancellation fee waiver" data-testid="fee-waiver">
      <h3 className="flex items-start gap-2 text-sm font-semibold text-stone-900">
        <HeartPulse className="mt-0.5 size-4 shrink-0 text-stone-500" aria-hidden="true" /> {waived ? 'Cancellation fee waived (Consumer Protection Act, section 17)' : 'Cancellation fee'}
      </h3>
      {waived ? null : <p className="mt-1 text-sm text-stone-600">{CPA_WAIVER_POLICY}</p>}
      <ul className="mt-2 space-y-2">
        {waivers.map((w) => (
          <li key={w.id} className="rounded-lg border border-stone-200 p-2 text-sm text-stone-800" data-testid="fee-waiver-request">
            <p className="font-medium">
              {formatRand(w.fee)} · {STATUS[w.status]}
            </p>
            <p className="text-xs text-stone-500">Asked {formatDateTime(w.created_at)}</p>
            {w.decision_reason ? <p className="mt-1">Karoo: “{w.decision_reason}”</p> : null}
          </li>
        ))}
      </ul>
      {!live && fee > 0 ? asking ? <WaiverForm booking={booking} onDone={() => setAsking(false)} /> : (
        <div className="mt-3">
          <Button variant="secondary" onClick={() => setAsking(true)}>
            Ask for the {formatRand(fee)} fee back
          </Button>
        </div>
      ) : null}
    </section>
  );
}

function WaiverForm({ booking, onDone }: { booking: Booking; onDone: () => void }) {
  const notify = useNotification();
  const request = useRequestWaiver();
  const [ground, setGround] = useState<WaiverGround>('hospital');
  const [person, setPerson] = useState<'renter' | 'family'>('renter');
  const [statement, setStatement] = useState('');
  const [evidence, setEvidence] = useState<File | null>(null);
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!evidence) {
      notify.error('Evidence Missing', 'Add the death certificate or the hospital letter (a photo or PDF).');
      return;
    }
    request.mutate(
      { bookingId: booking.id, ground, person, statement, evidence },
      {
        onSuccess: () => {
          notify.success('Request Sent', 'Karoo will look at it and tell you.');
          onDone();
        },
        onError: (error) => notify.error('Not Sent', messageOf(error, 'Your request could not be sent. Please try again.')),
      },
    );
  };
  const radio = 'flex min-h-11 items-center gap-2 text-sm text-stone-700';
  return (
    <form onSubmit={onSubmit} className="mt-3 space-y-3 rounded-lg bg-stone-50 p-3" aria-label="Ask for the cancellation fee back">
      <fieldset>
        <legend className="text-sm font-medium text-stone-800">What happened</legend>
        <label className={radio}>
          <input type="radio" name={`ground-${booking.id}`} checked={ground === 'hospital'} onChange={() => setGround('hospital')} /> Admitted to hospital
        </label>
        <label className={radio}>
          <input type="radio" name={`ground-${booking.id}`} checked={ground === 'death'} onChange={() => setGround('death')} /> A death
        </label>
      </fieldset>
      <fieldset>
        <legend className="text-sm font-medium text-stone-800">Who</legend>
        <label className={radio}>
          <input type="radio" name={`person-${booking.id}`} checked={person === 'renter'} onChange={() => setPerson('renter')} /> Me
        </label>
        <label className={radio}>
          <input type="radio" name={`person-${booking.id}`} checked={person === 'family'} onChange={() => setPerson('family')} /> A member of my immediate family
        </label>
      </fieldset>
      <Input label="Death certificate or hospital letter" type="file" accept="image/jpeg,image/png,application/pdf" onChange={(e) => setEvidence(e.target.files?.[0] ?? null)} />
      <label className="block text-sm font-medium text-stone-700" htmlFor={`waiver-statement-${booking.id}`}>
        Anything Karoo should know (optional)
      </label>
      <textarea id={`waiver-statement-${booking.id}`} className="w-full rounded-lg border border-stone-300 p-2 text-sm" rows={2} value={statement} onChange={(e) => setStatement(e.target.value)} />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" loading={request.isPending}>
          Send request
        </Button>
        <Button type="button" variant="ghost" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
