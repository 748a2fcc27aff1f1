// Open disputes in the admin's Bookings tab (issue 21): each with its booking, who flagged what, the
// description and the photos; Resolve asks for a note, which the audit log keeps.
import { MAX_TRIP_NOTE, type Dispute } from '@karoo/shared';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { useNotification } from '@/components/ui/toast';
import { TripPhoto } from '@/components/trip-photo';
import { messageOf } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { useOpenDisputes, useResolveDispute } from '../api/admin-disputes';

function ResolveDialog({ dispute, onClose }: { dispute: Dispute; onClose: () => void }) {
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | undefined>();
  const resolve = useResolveDispute();
  const notify = useNotification();
  const noteId = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (note.trim().length < 3) {
      setError('Say how it was resolved');
      return;
    }
    try {
      await resolve.mutateAsync({ id: dispute.id, note: note.trim() });
      notify.success('Dispute resolved', `Booking ${dispute.booking_number}: the note is in the audit log.`);
      onClose();
    } catch (err) {
      setError(messageOf(err, 'The dispute could not be resolved. Please try again.'));
    }
  }

  return (
    <Dialog open onClose={onClose} title={`Resolve the dispute on ${dispute.booking_number}`} description={dispute.description}>
      <form onSubmit={submit} noValidate className="space-y-4" aria-label="Resolve dispute">
        <div>
          <label htmlFor={noteId} className="mb-1.5 block text-sm font-medium text-stone-700">
            Resolution note
          </label>
          <textarea
            id={noteId}
            rows={3}
            maxLength={MAX_TRIP_NOTE}
            value={note}
            onChange={(e) => setNote(e.target.value)}
            aria-invalid={!!error}
            aria-describedby={error ? `${noteId}-error` : undefined}
            className="w-full rounded-lg border border-stone-300 px-3 py-2 text-sm shadow-sm focus:border-brand-500 focus:outline-none focus:ring-4 focus:ring-brand-500/20"
          />
          {error ? (
            <p id={`${noteId}-error`} role="alert" className="mt-1.5 text-sm font-medium text-red-600">
              {error}
            </p>
          ) : null}
        </div>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={resolve.isPending}>
            Resolve
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

export function OpenDisputes() {
  const { data, isPending, isError } = useOpenDisputes();
  const [resolving, setResolving] = useState<Dispute | null>(null);
  return (
    <section aria-labelledby="open-disputes-title" className="rounded-xl border border-stone-200 bg-white p-4">
      <h2 id="open-disputes-title" className="text-base font-semibold text-stone-900">
        Open disputes
      </h2>
      {isPending ? <p className="mt-2 text-sm text-stone-600">Loading disputes…</p> : null}
      {isError ? <p className="mt-2 text-sm text-red-700">Disputes could not be loaded.</p> : null}
      {data && data.length === 0 ? <p className="mt-2 text-sm text-stone-600">No open disputes.</p> : null}
      {data && data.length > 0 ? (
        <ul className="mt-3 space-y-3">
          {data.map((dispute) => (
            <li key={dispute.id} className="rounded-lg border border-amber-300 bg-amber-50 p-3" data-testid="dispute-row">
              <div className="flex flex-wrap items-start justify-between gap-2">
                <div>
                  <p className="text-sm font-semibold text-stone-900">
                    {dispute.booking_number} · {dispute.kind === 'damage' ? 'Damage' : 'Missing item'}
                  </p>
                  <p className="text-xs text-stone-700">
                    Flagged by {dispute.opened_by.username}, {formatDateTime(dispute.created_at)}
                  </p>
                </div>
                <Button size="sm" onClick={() => setResolving(dispute)}>
                  Resolve
                </Button>
              </div>
              <p className="mt-1 text-sm text-stone-800">{dispute.description}</p>
              <div className="mt-2 grid grid-cols-2 gap-2 sm:grid-cols-4">
                {dispute.photos.map((photo) => (
                  <TripPhoto key={photo.id} photo={photo} />
                ))}
              </div>
            </li>
          ))}
        </ul>
      ) : null}
      {resolving ? <ResolveDialog dispute={resolving} onClose={() => setResolving(null)} /> : null}
    </section>
  );
}
