// Changing a paid trip on its card (issue 36; decision 081). The renter picks new dates and times
// (during the trip, only the return) and sees, from the server's quote (the shared pricing), the new
// price, what each part moves by, what the cancellation policy keeps of time given up, and what
// they pay or get back; they send the request (or, with instant booking, change the trip at once).
// The host sees a waiting request with their earnings' difference and the deadline, and accepts or
// declines. Both see how earlier requests ended.
import { describeTripTimes, momentOf, TRIP_CHANGE_STATUS_LABELS, type Booking, type TripChangeView, type TripTimesOf } from '@karoo/shared';
import { CalendarClock } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { useNotification } from '@/components/ui/toast';
import { messageOf } from '@/lib/api-client';
import { formatDateTime, formatRand } from '@/lib/format';
import { useAnswerChange, useChangeQuote, useRequestChange, useTripChanges } from '../api/trip-changes';

type Role = 'renter' | 'owner';

const timesOf = (b: TripTimesOf): TripTimesOf => ({ start_date: b.start_date, end_date: b.end_date, start_time: b.start_time, end_time: b.end_time });

function signed(amount: number): string {
  if (amount > 0) return `+${formatRand(amount)}`;
  if (amount < 0) return `−${formatRand(-amount)}`;
  return formatRand(0);
}

export function TripChangesPanel({ booking, role }: { booking: Booking; role: Role }) {
  const changeable = booking.status === 'active' && booking.payment_status === 'paid';
  const query = useTripChanges(booking.id, changeable || booking.status === 'completed');
  const [open, setOpen] = useState(false);
  const { answer, act } = useAnswer();
  const changes = query.data ?? [];
  if (!changeable && changes.length === 0) return null;
  const pending = changes.find((c) => c.status === 'pending');
  const earlier = changes.filter((c) => c.status !== 'pending');
  return (
    <section className="border-t border-stone-100 p-4 sm:px-5" aria-label="Trip changes" data-testid="trip-changes">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="flex items-center gap-2 text-sm font-semibold text-stone-900">
          <CalendarClock className="size-4 text-stone-500" aria-hidden="true" /> Trip changes
        </h3>
        {role === 'renter' && changeable && !pending ? (
          <Button variant="secondary" onClick={() => setOpen(true)}>
            Change trip
          </Button>
        ) : null}
      </div>
      {pending ? <PendingChange change={pending} role={role} answer={answer} act={act} /> : role === 'renter' && changeable && earlier.length === 0 ? <p className="mt-1 text-sm text-stone-600">Need the car longer, or for less? Ask the host to change the dates or times; you see the price first.</p> : null}
      {earlier.length > 0 ? (
        <ul className="mt-2 space-y-1 text-sm text-stone-700">
          {earlier.map((c) => (
            <li key={c.id} data-testid="trip-change">
              <span className="font-medium">{TRIP_CHANGE_STATUS_LABELS[c.status]}</span> · {describeTripTimes(c.to)}
              {c.status === 'accepted' ? ` · ${role === 'owner' && c.host_difference !== null ? `your earnings ${signed(c.host_difference)}` : c.net === 0 ? 'same price' : c.net > 0 ? `${formatRand(c.net)} charged` : `${formatRand(-c.net)} refunded`}` : ''}
              {c.failure ? <span className="block text-xs text-stone-500">{c.failure}</span> : null}
              {c.note ? <span className="block text-xs text-stone-500">Host: “{c.note}”</span> : null}
            </li>
          ))}
        </ul>
      ) : null}
      {open ? <ChangeDialog booking={booking} onClose={() => setOpen(false)} /> : null}
    </section>
  );
}

type Answer = ReturnType<typeof useAnswerChange>;

/**
 * The answer's outcome, told by the panel (which stays on screen): the waiting request itself goes
 * once the bookings refresh, and a mutate callback of an unmounted component never runs.
 */
function useAnswer(): { answer: Answer; act: (changeId: string, verb: 'accept' | 'decline' | 'withdraw', note?: string) => void } {
  const notify = useNotification();
  const answer = useAnswerChange();
  const act = (changeId: string, verb: 'accept' | 'decline' | 'withdraw', note?: string) =>
    answer.mutate(
      { changeId, verb, ...(note ? { note } : {}) },
      {
        onSuccess: (res) => {
          const status = res.data.status;
          if (status === 'failed') notify.error('Change Not Made', res.data.failure ?? 'The change could not be made.');
          else notify.success(status === 'accepted' ? 'Trip Changed' : status === 'declined' ? 'Change Declined' : 'Request Withdrawn', res.message ?? '');
        },
        onError: (error) => notify.error('Not Answered', messageOf(error, 'Your answer could not be sent. Please try again.')),
      },
    );
  return { answer, act: (id, verb, note) => act(id, verb, note?.trim() || undefined) };
}

function PendingChange({ change, role, answer, act }: { change: TripChangeView; role: Role; answer: Answer; act: ReturnType<typeof useAnswer>['act'] }) {
  const [note, setNote] = useState('');
  return (
    <div className="mt-2 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-stone-800" data-testid="pending-trip-change">
      <p className="font-medium">
        {role === 'owner' ? 'The renter asks to change the trip to' : 'You asked to change the trip to'} {describeTripTimes(change.to)}
      </p>
      <p className="mt-1">
        New trip total {formatRand(change.new_total)}
        {role === 'owner' && change.host_difference !== null ? ` · your earnings ${signed(change.host_difference)}` : ` · ${change.summary}`}
      </p>
      {change.message ? <p className="mt-1">Message: “{change.message}”</p> : null}
      <p className="mt-1 text-xs text-stone-600">
        {role === 'owner' ? 'Answer by' : 'The host answers by'} {formatDateTime(change.answer_by)}; unanswered, it lapses and the trip stays as it is.
      </p>
      {role === 'owner' ? (
        <>
          <Input label="Note to the renter (optional)" value={note} maxLength={500} onChange={(e) => setNote(e.target.value)} containerClassName="mt-2" />
          <div className="mt-2 flex flex-wrap gap-2">
            <Button variant="success" onClick={() => act(change.id, 'accept', note)} loading={answer.isPending && answer.variables?.verb === 'accept'} disabled={answer.isPending}>
              Accept change
            </Button>
            <Button variant="danger-outline" onClick={() => act(change.id, 'decline', note)} loading={answer.isPending && answer.variables?.verb === 'decline'} disabled={answer.isPending}>
              Decline
            </Button>
          </div>
        </>
      ) : (
        <div className="mt-2">
          <Button variant="secondary" onClick={() => act(change.id, 'withdraw')} loading={answer.isPending}>
            Withdraw request
          </Button>
        </div>
      )}
    </div>
  );
}

function ChangeDialog({ booking, onClose }: { booking: Booking; onClose: () => void }) {
  const notify = useNotification();
  const started = momentOf(booking.start_date, booking.start_time) <= Date.now();
  const [times, setTimes] = useState<TripTimesOf>(timesOf(booking));
  const [message, setMessage] = useState('');
  const unchanged = JSON.stringify(times) === JSON.stringify(timesOf(booking));
  const quote = useChangeQuote(booking.id, unchanged ? null : times);
  const request = useRequestChange();
  const q = unchanged ? undefined : quote.data;
  const refusal = quote.error ? messageOf(quote.error, 'These times cannot be priced.') : q && !q.can_request ? q.refusal : null;
  const set = (field: keyof TripTimesOf) => (e: { target: { value: string } }) => setTimes((t) => ({ ...t, [field]: e.target.value }));

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!q || !q.can_request) return;
    request.mutate(
      { bookingId: booking.id, times, expectedNet: q.net, ...(message.trim() ? { message: message.trim() } : {}) },
      {
        onSuccess: (res) => {
          const status = res.data.status;
          if (status === 'failed') notify.error('Change Not Made', res.data.failure ?? 'The change could not be made.');
          else notify.success(status === 'accepted' ? 'Trip Changed' : 'Request Sent', res.message ?? '');
          onClose();
        },
        onError: (error) => notify.error('Not Sent', messageOf(error, 'Your request could not be sent. Please try again.')),
      },
    );
  };

  return (
    <Dialog
      open
      onClose={onClose}
      scrollBody
      title="Change trip"
      description={started ? 'Your trip has started: you can change when you return the car.' : 'Choose the new pickup and return. The host has up to 8 hours to answer (less when the trip is sooner).'}
      footer={
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            Keep trip as it is
          </Button>
          <Button type="submit" form="trip-change-form" loading={request.isPending} disabled={!q || !q.can_request || quote.isFetching}>
            {q?.instant ? (q.net > 0 ? `Pay ${formatRand(q.net)} and change` : 'Change trip now') : 'Send request'}
          </Button>
        </div>
      }
    >
      <form id="trip-change-form" onSubmit={onSubmit} className="space-y-3">
        <div className="grid gap-3 sm:grid-cols-2">
          <Input label="Pickup date" type="date" value={times.start_date} onChange={set('start_date')} disabled={started} required />
          <Input label="Pickup time" type="time" step={1800} value={times.start_time} onChange={set('start_time')} disabled={started} required />
          <Input label="Return date" type="date" value={times.end_date} min={times.start_date} onChange={set('end_date')} required />
          <Input label="Return time" type="time" step={1800} value={times.end_time} onChange={set('end_time')} required />
        </div>
        {unchanged ? <p className="text-sm text-stone-600">Now: {describeTripTimes(timesOf(booking))} · {formatRand(booking.total_price)}</p> : null}
        {refusal ? (
          <p role="alert" className="rounded-lg bg-red-50 p-2 text-sm text-red-800">
            {refusal}
          </p>
        ) : null}
        {q && q.can_request ? (
          <div aria-live="polite" data-testid="trip-change-quote">
            <dl className="rounded-lg border border-stone-200 p-3 text-sm">
              <QuoteRow label="Trip now" value={formatRand(q.before.total)} />
              <QuoteRow label={`New trip (${q.after.hours ? `${q.after.hours} h` : `${q.after.days} ${q.after.days === 1 ? 'day' : 'days'}`})`} value={formatRand(q.after.total)} />
              <QuoteRow label="Rental" value={signed(q.difference.subtotal)} muted />
              {q.difference.service_fee !== 0 ? <QuoteRow label="Service fee" value={signed(q.difference.service_fee)} muted /> : null}
              {q.difference.insurance_fee !== 0 ? <QuoteRow label="Insurance" value={signed(q.difference.insurance_fee)} muted /> : null}
              {q.kept > 0 ? <QuoteRow label="Kept by the cancellation policy" value={formatRand(q.kept)} /> : null}
              <QuoteRow label={q.net >= 0 ? 'You pay now' : 'You get back'} value={formatRand(Math.abs(q.net))} strong />
            </dl>
            <p className="mt-2 text-sm text-stone-700">{q.summary}</p>
            <p className="mt-1 text-xs text-stone-500">
              {q.instant ? 'This car has instant booking: the change is made at once.' : `The host answers by ${formatDateTime(q.answer_by)}.`}
              {q.net > 0 ? ' The difference is charged to the card you paid with.' : q.net < 0 ? ' The refund goes to the card you paid with.' : ''}
            </p>
          </div>
        ) : null}
        <Input label="Message to the host (optional)" value={message} maxLength={500} onChange={(e) => setMessage(e.target.value)} />
      </form>
    </Dialog>
  );
}

function QuoteRow({ label, value, strong, muted }: { label: string; value: string; strong?: boolean; muted?: boolean }) {
  return (
    <div className={`flex justify-between gap-4 py-0.5 ${strong ? 'mt-1 border-t border-stone-200 pt-2 font-semibold text-stone-900' : muted ? 'pl-3 text-stone-500' : 'text-stone-700'}`}>
      <dt>{label}</dt>
      <dd className="tabular-nums">{value}</dd>
    </div>
  );
}
