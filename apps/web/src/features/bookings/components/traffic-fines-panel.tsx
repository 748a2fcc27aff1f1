// Traffic fines on a trip's card (issue 34; decision 066). The host enters a fine from its AARTO 03
// notice and sees at once whether the trip had the car then (or, if not, the nearest trips); for a
// fine inside the trip they download the AARTO 07 nomination, pre-filled, to sign and submit by the
// 32-day deadline shown, and record what became of it. The renter sees the fines of their trip and
// may say they paid it or dispute it.
import { FINE_STATUS_LABELS, type Booking, type FineStatus, type TrafficFine } from '@karoo/shared';
import { FileDown, Siren } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { useNotification } from '@/components/ui/toast';
import { messageOf } from '@/lib/api-client';
import { formatDate, formatDateTime, formatRand } from '@/lib/format';
import { downloadNomination, openNotice, useBookingFines, useCreateFine, useUpdateFineStatus } from '../api/traffic-fines';

const HOST_MOVES: { status: FineStatus; label: string }[] = [
  { status: 'nominated', label: 'I nominated the driver' },
  { status: 'paid_by_host', label: 'I paid it' },
  { status: 'withdrawn', label: 'It was withdrawn' },
];

/** "12 days left to nominate (by Sat 26 Apr)", or that the time has passed. */
export function deadlineWords(fine: Pick<TrafficFine, 'days_left' | 'nominate_by'>): string {
  const by = formatDate(fine.nominate_by);
  if (fine.days_left < 0) return `The 32 days to nominate ended on ${by}.`;
  if (fine.days_left === 0) return `Today (${by}) is the last day to nominate the driver.`;
  return `${fine.days_left} day${fine.days_left === 1 ? '' : 's'} left to nominate the driver (by ${by}).`;
}

export function TrafficFinesPanel({ booking, role }: { booking: Booking; role: 'host' | 'renter' }) {
  const shown = booking.payment_status === 'paid' && (booking.status === 'completed' || booking.status === 'active');
  const query = useBookingFines(booking.id, shown);
  const [entering, setEntering] = useState(false);
  if (!shown || !query.data) return null;
  const fines = query.data;
  if (role === 'renter' && fines.length === 0) return null;
  return (
    <section className="border-t border-stone-100 p-4 sm:px-5" aria-label="Traffic fines" data-testid="traffic-fines">
      <h3 className="flex items-center gap-2 text-sm font-semibold text-stone-900">
        <Siren className="size-4 text-stone-500" aria-hidden="true" /> Traffic fines
      </h3>
      {fines.length === 0 ? <p className="mt-1 text-sm text-stone-600">No traffic fine has been entered for this trip.</p> : null}
      <ul className="mt-2 space-y-3">
        {fines.map((fine) => (
          <FineItem key={fine.id} fine={fine} role={role} />
        ))}
      </ul>
      {role === 'host' ? (
        entering ? (
          <FineForm booking={booking} onDone={() => setEntering(false)} />
        ) : (
          <div className="mt-3">
            <Button variant="secondary" onClick={() => setEntering(true)}>
              Enter a traffic fine
            </Button>
          </div>
        )
      ) : null}
    </section>
  );
}

function FineItem({ fine, role }: { fine: TrafficFine; role: 'host' | 'renter' }) {
  const notify = useNotification();
  const update = useUpdateFineStatus();
  const [disputing, setDisputing] = useState(false);
  const [note, setNote] = useState('');
  const move = (status: FineStatus, words?: string) =>
    update.mutate(
      { id: fine.id, status, ...(words ? { note: words } : {}) },
      {
        onSuccess: () => {
          notify.success('Fine Updated', FINE_STATUS_LABELS[status]);
          setDisputing(false);
        },
        onError: (error) => notify.error('Not Updated', messageOf(error, 'The fine could not be updated. Please try again.')),
      },
    );
  const open = fine.status === 'open' || fine.status === 'disputed' || fine.status === 'nominated';
  return (
    <li className="rounded-lg border border-stone-200 p-3" data-testid="traffic-fine">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p className="text-sm font-semibold text-stone-900">
          Notice {fine.notice_number} · {formatRand(fine.amount)}
        </p>
        <p className="text-xs font-medium text-stone-600" data-testid="fine-status">
          {fine.status_label}
        </p>
      </div>
      <p className="mt-1 text-sm text-stone-700">
        {formatDateTime(fine.occurred_at)} at {fine.place}
      </p>
      {fine.status === 'open' || fine.status === 'disputed' ? (
        <p className={`mt-1 text-sm ${fine.days_left <= 7 ? 'font-medium text-amber-800' : 'text-stone-600'}`} data-testid="fine-deadline">
          {deadlineWords(fine)}
        </p>
      ) : null}
      {fine.status_note ? <p className="mt-1 text-sm text-stone-700">“{fine.status_note}”</p> : null}
      <div className="mt-2 flex flex-wrap gap-2">
        {fine.nomination_url ? (
          <Button
            variant="secondary"
            className="h-auto min-h-10 max-w-full py-2 text-left whitespace-normal"
            onClick={() => void downloadNomination(fine).catch((error: unknown) => notify.error('Download Failed', messageOf(error, 'The nomination could not be made. Please try again.')))}
          >
            <FileDown className="size-4" aria-hidden="true" /> Download AARTO 07 nomination
          </Button>
        ) : null}
        <Button variant="ghost" onClick={() => void openNotice(fine).catch((error: unknown) => notify.error('Not Opened', messageOf(error, 'The notice could not be opened.')))}>
          View the notice
        </Button>
      </div>
      {role === 'host' && open ? (
        <div className="mt-2 flex flex-wrap gap-2" aria-label="What became of the fine">
          {HOST_MOVES.filter((m) => m.status !== fine.status && !(m.status === 'nominated' && !fine.trip)).map((m) => (
            <Button key={m.status} variant="ghost" size="sm" loading={update.isPending} onClick={() => move(m.status)}>
              {m.label}
            </Button>
          ))}
        </div>
      ) : null}
      {role === 'renter' && open && fine.status !== 'disputed' ? (
        disputing ? (
          <form
            className="mt-2 space-y-2"
            onSubmit={(e: FormEvent) => {
              e.preventDefault();
              move('disputed', note);
            }}
          >
            <label className="block text-sm font-medium text-stone-700" htmlFor={`fine-dispute-${fine.id}`}>
              Why you dispute the fine
            </label>
            <textarea id={`fine-dispute-${fine.id}`} className="w-full rounded-lg border border-stone-300 p-2 text-sm" rows={2} value={note} onChange={(e) => setNote(e.target.value)} />
            <div className="flex flex-wrap gap-2">
              <Button type="submit" variant="secondary" loading={update.isPending}>
                Send dispute
              </Button>
              <Button type="button" variant="ghost" onClick={() => setDisputing(false)}>
                Back
              </Button>
            </div>
          </form>
        ) : (
          <div className="mt-2 flex flex-wrap gap-2">
            <Button size="sm" loading={update.isPending} onClick={() => move('paid_by_renter')}>
              I paid it
            </Button>
            <Button size="sm" variant="secondary" onClick={() => setDisputing(true)}>
              Dispute
            </Button>
          </div>
        )
      ) : null}
    </li>
  );
}

function FineForm({ booking, onDone }: { booking: Booking; onDone: () => void }) {
  const notify = useNotification();
  const create = useCreateFine();
  const [fields, setFields] = useState({ plate: booking.car.car_plate_number ?? '', date: booking.start_date, time: '', place: '', amount: '', notice_number: '', served_on: '' });
  const [notice, setNotice] = useState<File | null>(null);
  const [outcome, setOutcome] = useState<TrafficFine | null>(null);
  const set = (key: keyof typeof fields) => (e: { target: { value: string } }) => setFields((f) => ({ ...f, [key]: e.target.value }));
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!notice) {
      notify.error('Notice Missing', 'Add a photo or PDF of the infringement notice.');
      return;
    }
    create.mutate(
      { ...fields, amount: Number(fields.amount), notice },
      {
        onSuccess: ({ fine, message }) => {
          notify.success('Fine Entered', message);
          if (fine.trip?.booking_id === booking.id) onDone();
          else setOutcome(fine);
        },
        onError: (error) => notify.error('Not Entered', messageOf(error, 'The fine could not be entered. Please try again.')),
      },
    );
  };
  return (
    <form onSubmit={onSubmit} className="mt-3 space-y-3 rounded-lg bg-stone-50 p-3" aria-label="Enter a traffic fine">
      <p className="text-xs text-stone-600">From the infringement notice (AARTO 03). Karoo finds the trip that had the car at that moment and tells its renter.</p>
      <div className="grid gap-2 sm:grid-cols-2">
        <Input label="Plate" value={fields.plate} onChange={set('plate')} required />
        <Input label="Notice number" value={fields.notice_number} onChange={set('notice_number')} required />
        <Input label="Date of the infringement" type="date" value={fields.date} onChange={set('date')} required />
        <Input label="Time" type="time" value={fields.time} onChange={set('time')} required />
        <Input label="Place" value={fields.place} onChange={set('place')} required />
        <Input label="Amount (R)" type="number" inputMode="decimal" min={0} step="any" value={fields.amount} onChange={set('amount')} required />
        <Input label="Date the notice was served" type="date" value={fields.served_on} onChange={set('served_on')} hint="The 32 days to nominate count from it." required />
        <Input label="Photo or PDF of the notice" type="file" accept="image/jpeg,image/png,application/pdf" onChange={(e) => setNotice(e.target.files?.[0] ?? null)} />
      </div>
      {outcome ? (
        <div className="rounded-lg border border-amber-300 bg-amber-50 p-2 text-sm text-amber-900" role="status" data-testid="fine-outcome">
          {outcome.trip ? (
            <p>
              Entered: it fell in another trip, {outcome.trip.booking_number}, whose renter has been told.
            </p>
          ) : (
            <>
              <p className="font-medium">No trip had the car at that moment.</p>
              <p>
                {outcome.nearest.before ? `The trip before: ${outcome.nearest.before.booking_number}, back ${formatDateTime(outcome.nearest.before.to)}. ` : 'No trip before it. '}
                {outcome.nearest.after ? `The trip after: ${outcome.nearest.after.booking_number}, from ${formatDateTime(outcome.nearest.after.from)}.` : 'No trip after it.'}
              </p>
            </>
          )}
        </div>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" loading={create.isPending}>
          Enter fine
        </Button>
        <Button type="button" variant="ghost" onClick={onDone}>
          Close
        </Button>
      </div>
    </form>
  );
}
