// The deposit and trip charges on a returned trip's card (issue 34; decisions 064 and 065): what the
// deposit did (held, paid charges, back), each claim with its lines, evidence and where it stands;
// for the host "Add trip charges" while the window is open, with fuel, extra km and late return
// prefilled from the records; for the renter Accept or Dispute while the 48 hours run, and "Pay R X"
// when the saved card declined what the deposit did not cover (decision 073: the payments feature's
// checkout, passed in by the page).
import { TRIP_CHARGE_KINDS, TRIP_CHARGE_LABELS, type Booking, type TripChargeKind } from '@karoo/shared';
import { CreditCard, Receipt } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { useNotification } from '@/components/ui/toast';
import { messageOf } from '@/lib/api-client';
import { formatDateTime, formatRand } from '@/lib/format';
import { useAnswerClaim, useBookingClaims, useFileClaim, type BookingClaims, type TripClaim } from '../api/trip-charges';

const STATUS: Record<TripClaim['status'], string> = {
  awaiting_renter: 'Waiting for the renter',
  disputed: 'Disputed: Karoo will decide',
  settled: 'Settled',
  withdrawn: 'Withdrawn',
};

/** The checkout of a claim's payment link (the payments feature's, through the page): start it, and which claim is starting. */
export interface ClaimPayment {
  start: (booking: Booking, claimId: string) => void;
  pendingId: string | null;
}

export function TripChargesPanel({ booking, role, payment }: { booking: Booking; role: 'host' | 'renter'; payment?: ClaimPayment | undefined }) {
  const shown = booking.payment_status === 'paid' && booking.status === 'completed';
  const query = useBookingClaims(booking.id, shown);
  if (!shown || !query.data) return null;
  const data = query.data;
  if (data.deposit.taken === 0 && data.claims.length === 0 && !(role === 'host' && data.window.open)) return null;
  return (
    <section className="border-t border-stone-100 p-4 sm:px-5" aria-label="Deposit and trip charges" data-testid="trip-charges">
      <h3 className="flex items-center gap-2 text-sm font-semibold text-stone-900">
        <Receipt className="size-4 text-stone-500" aria-hidden="true" /> Deposit and trip charges
      </h3>
      <DepositSummary data={data} />
      <ul className="mt-3 space-y-3">
        {data.claims.map((claim) => (
          <ClaimItem key={claim.id} claim={claim} role={role} onPay={payment ? () => payment.start(booking, claim.id) : undefined} paying={payment?.pendingId === claim.id} />
        ))}
      </ul>
      {role === 'host' && data.window.open ? <AddCharges bookingId={booking.id} data={data} /> : null}
    </section>
  );
}

function DepositSummary({ data }: { data: BookingClaims }) {
  const d = data.deposit;
  if (d.taken === 0) return <p className="mt-1 text-sm text-stone-600">No deposit on this trip.</p>;
  const parts = [
    d.applied > 0 ? `${formatRand(d.applied)} paid trip charges` : null,
    d.released > 0 ? `${formatRand(d.released)} back to the card` : null,
    d.held > 0 ? `${formatRand(d.held)} held${data.window.closes_at ? ` until ${formatDateTime(data.window.closes_at)} if nothing more is claimed` : ''}` : null,
  ].filter(Boolean);
  return (
    <p className="mt-1 text-sm text-stone-700" data-testid="deposit-summary">
      Deposit {formatRand(d.taken)}: {parts.join(' · ')}.
    </p>
  );
}

function ClaimItem({ claim, role, onPay, paying }: { claim: TripClaim; role: 'host' | 'renter'; onPay?: (() => void) | undefined; paying: boolean }) {
  const owing = claim.status === 'settled' && claim.payment_state === 'card_declined' && claim.owed > 0;
  return (
    <li className="rounded-lg border border-stone-200 p-3" data-testid="trip-claim">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p className="text-sm font-semibold text-stone-900">Trip charges of {formatRand(claim.claimed)}</p>
        <p className="text-xs font-medium text-stone-600">{STATUS[claim.status]}</p>
      </div>
      <dl className="mt-2 space-y-1 text-sm">
        {claim.items.map((item) => (
          <div key={item.kind} className="flex justify-between gap-4 text-stone-700">
            <dt>
              {item.label}
              {item.detail ? <span className="block text-xs text-stone-500">{item.detail}</span> : null}
              {item.note ? <span className="block text-xs text-stone-500">“{item.note}”</span> : null}
            </dt>
            <dd className="tabular-nums">{formatRand(item.amount)}</dd>
          </div>
        ))}
      </dl>
      {claim.host_statement ? <p className="mt-2 text-sm text-stone-700">Host: “{claim.host_statement}”</p> : null}
      {claim.renter_statement ? <p className="mt-1 text-sm text-stone-700">Renter: “{claim.renter_statement}”</p> : null}
      {claim.evidence.length ? <p className="mt-1 text-xs text-stone-500">{claim.evidence.length} photo(s) of evidence</p> : null}
      {claim.status === 'settled' ? (
        <p className="mt-2 text-sm text-stone-800" data-testid="claim-outcome">
          {claim.decided !== null ? `Karoo decided ${formatRand(claim.decided)}: ${claim.decision_reason}. ` : claim.renter_answer === 'unanswered' ? 'Not answered in time, so accepted. ' : 'Accepted. '}
          Paid {formatRand(claim.from_deposit)} from the deposit{claim.from_card > 0 ? ` and ${formatRand(claim.from_card)} from the card` : ''}.
          {owing ? (role === 'renter' ? ` The card was declined (${(claim.payment_error ?? 'no reason given').replace(/\.$/, '')}): ${formatRand(claim.owed)} is still owed.` : ` The renter's card was declined: ${formatRand(claim.owed)} still owed by the renter.`) : ''}
        </p>
      ) : null}
      {owing && role === 'renter' && onPay ? (
        <div className="mt-2">
          <Button onClick={onPay} loading={paying} icon={<CreditCard className="size-4" aria-hidden="true" />}>
            Pay {formatRand(claim.owed)}
          </Button>
        </div>
      ) : null}
      {role === 'renter' && claim.status === 'awaiting_renter' ? <AnswerClaim claim={claim} /> : null}
    </li>
  );
}

function AnswerClaim({ claim }: { claim: TripClaim }) {
  const notify = useNotification();
  const answer = useAnswerClaim();
  const [disputing, setDisputing] = useState(false);
  const [statement, setStatement] = useState('');
  const [photos, setPhotos] = useState<File[]>([]);
  const send = (kind: 'accept' | 'dispute') =>
    answer.mutate(
      { claimId: claim.id, answer: kind, statement, photos },
      {
        onSuccess: () => notify.success(kind === 'accept' ? 'Charges Accepted' : 'Charges Disputed', kind === 'accept' ? 'They are paid from your deposit first.' : 'Karoo will look at both sides and decide.'),
        onError: (error) => notify.error('Not Sent', messageOf(error, 'Your answer could not be sent. Please try again.')),
      },
    );
  return (
    <div className="mt-3 space-y-2">
      <p className="text-xs text-stone-600">Answer by {formatDateTime(claim.answer_due_at)}; unanswered, the charges are accepted.</p>
      {disputing ? (
        <form
          className="space-y-2"
          onSubmit={(e: FormEvent) => {
            e.preventDefault();
            send('dispute');
          }}
        >
          <label className="block text-sm font-medium text-stone-700" htmlFor={`dispute-${claim.id}`}>
            Why you dispute the charges
          </label>
          <textarea id={`dispute-${claim.id}`} className="w-full rounded-lg border border-stone-300 p-2 text-sm" rows={3} value={statement} onChange={(e) => setStatement(e.target.value)} />
          <Input label="Your photos (optional)" type="file" accept="image/*" multiple onChange={(e) => setPhotos(Array.from(e.target.files ?? []))} />
          <div className="flex flex-wrap gap-2">
            <Button type="submit" variant="secondary" loading={answer.isPending}>
              Send dispute
            </Button>
            <Button type="button" variant="ghost" onClick={() => setDisputing(false)}>
              Back
            </Button>
          </div>
        </form>
      ) : (
        <div className="flex flex-wrap gap-2">
          <Button onClick={() => send('accept')} loading={answer.isPending}>
            Accept {formatRand(claim.claimed)}
          </Button>
          <Button variant="secondary" onClick={() => setDisputing(true)}>
            Dispute
          </Button>
        </div>
      )}
    </div>
  );
}

const ENTERED_KINDS = TRIP_CHARGE_KINDS.filter((k) => k !== 'fuel' && k !== 'extra_km' && k !== 'late_return');

function AddCharges({ bookingId, data }: { bookingId: string; data: BookingClaims }) {
  const notify = useNotification();
  const file = useFileClaim();
  const charged = new Set(data.claims.filter((c) => c.status !== 'withdrawn').flatMap((c) => c.items.map((i) => i.kind)));
  const computed = data.computed.filter((c) => !charged.has(c.kind));
  const [open, setOpen] = useState(false);
  const [picked, setPicked] = useState<Set<TripChargeKind>>(() => new Set(computed.map((c) => c.kind)));
  const [amounts, setAmounts] = useState<Partial<Record<TripChargeKind, string>>>({});
  const [statement, setStatement] = useState('');
  const [photos, setPhotos] = useState<File[]>([]);
  if (!open) {
    return (
      <div className="mt-3">
        <Button variant="secondary" onClick={() => setOpen(true)}>
          Add trip charges
        </Button>
        {data.window.closes_at ? <p className="mt-1 text-xs text-stone-500">You can add charges until {formatDateTime(data.window.closes_at)}.</p> : null}
      </div>
    );
  }
  const toggle = (kind: TripChargeKind) => setPicked((p) => (p.has(kind) ? new Set([...p].filter((k) => k !== kind)) : new Set([...p, kind])));
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const items = [
      ...computed.filter((c) => picked.has(c.kind)).map((c) => ({ kind: c.kind })),
      ...ENTERED_KINDS.filter((k) => !charged.has(k) && Number(amounts[k] ?? 0) > 0).map((k) => ({ kind: k, amount: Number(amounts[k]) })),
    ];
    file.mutate(
      { bookingId, items, statement, photos },
      {
        onSuccess: () => {
          notify.success('Trip Charges Filed', 'The renter has been told and has 48 hours to answer.');
          setOpen(false);
        },
        onError: (error) => notify.error('Not Filed', messageOf(error, 'The charges could not be filed. Please try again.')),
      },
    );
  };
  return (
    <form onSubmit={onSubmit} className="mt-3 space-y-3 rounded-lg bg-stone-50 p-3" aria-label="Add trip charges">
      {computed.length ? (
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium text-stone-800">From the check-in and check-out records</legend>
          {computed.map((c) => (
            <label key={c.kind} className="flex min-h-11 items-start gap-2 text-sm text-stone-700">
              <input type="checkbox" className="mt-1 size-4" checked={picked.has(c.kind)} onChange={() => toggle(c.kind)} />
              <span className="flex-1">
                {c.label}: <strong className="tabular-nums">{formatRand(c.amount)}</strong>
                <span className="block text-xs text-stone-500">{c.detail}</span>
              </span>
            </label>
          ))}
        </fieldset>
      ) : (
        <p className="text-sm text-stone-600">The records show no fuel, extra kilometres or late return to charge.</p>
      )}
      <fieldset className="grid gap-2 sm:grid-cols-2">
        <legend className="mb-1 text-sm font-medium text-stone-800">Other charges (add a photo, receipt or quote)</legend>
        {ENTERED_KINDS.filter((k) => !charged.has(k)).map((k) => (
          <Input key={k} label={`${TRIP_CHARGE_LABELS[k]} (R)`} type="number" inputMode="decimal" min={0} step="0.01" value={amounts[k] ?? ''} onChange={(e) => setAmounts((a) => ({ ...a, [k]: e.target.value }))} />
        ))}
      </fieldset>
      <Input label="Photos, receipts or a quote" type="file" accept="image/*" multiple onChange={(e) => setPhotos(Array.from(e.target.files ?? []))} />
      <label className="block text-sm font-medium text-stone-700" htmlFor={`statement-${bookingId}`}>
        What happened (optional)
      </label>
      <textarea id={`statement-${bookingId}`} className="w-full rounded-lg border border-stone-300 p-2 text-sm" rows={2} value={statement} onChange={(e) => setStatement(e.target.value)} />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" loading={file.isPending}>
          File charges
        </Button>
        <Button type="button" variant="ghost" onClick={() => setOpen(false)}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
