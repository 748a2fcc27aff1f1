// Open disputes in the admin's Bookings tab (issue 21): each with its booking, who flagged what, the
// description and the photos; Resolve asks for a note, which the audit log keeps.
import { MAX_TRIP_NOTE, type Dispute } from '@karoo/shared';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { useNotification } from '@/components/ui/toast';
import { TripPhoto } from '@/components/trip-photo';
import { formatDateTime } from '@/lib/format';
import { useOpenDisputes, useResolveDispute } from '../api/admin-disputes';
import { AdminQueue } from './admin-queue';
import { NoteDialog } from './note-dialog';

function ResolveDialog({ dispute, onClose }: { dispute: Dispute; onClose: () => void }) {
  const resolve = useResolveDispute();
  const notify = useNotification();
  return (
    <NoteDialog
      title={`Resolve the dispute on ${dispute.booking_number}`}
      description={dispute.description}
      formLabel="Resolve dispute"
      noteLabel="Resolution note"
      maxLength={MAX_TRIP_NOTE}
      tooShort="Say how it was resolved"
      submitLabel="Resolve"
      pending={resolve.isPending}
      onSubmit={async (note) => {
        await resolve.mutateAsync({ id: dispute.id, note });
        notify.success('Dispute resolved', `Booking ${dispute.booking_number}: the note is in the audit log.`);
      }}
      failure="The dispute could not be resolved. Please try again."
      onClose={onClose}
    />
  );
}

export function OpenDisputes() {
  const { data, isPending, isError } = useOpenDisputes();
  const [resolving, setResolving] = useState<Dispute | null>(null);
  return (
    <AdminQueue
      id="open-disputes-title"
      title="Open disputes"
      isPending={isPending}
      isError={isError}
      isEmpty={data?.length === 0}
      loading="Loading disputes…"
      failed="Disputes could not be loaded."
      empty="No open disputes."
    >
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
    </AdminQueue>
  );
}
