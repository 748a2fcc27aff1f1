// Flag damage or a missing item (the host): photos and a description open a dispute on the
// booking that the renter and the admins see with the evidence.
import { DISPUTE_KINDS, MAX_TRIP_NOTE, MAX_TRIP_PHOTOS, type Booking, type DisputeKind } from '@karoo/shared';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { useNotification } from '@/components/ui/toast';
import { messageOf } from '@/lib/api-client';
import { useOpenDispute } from '../api/trip-records';

const KIND_LABELS: Record<DisputeKind, string> = { damage: 'Damage', missing_item: 'A missing item' };

export function FlagDamageDialog({ booking, onClose }: { booking: Booking; onClose: () => void }) {
  const [kind, setKind] = useState<DisputeKind>('damage');
  const [description, setDescription] = useState('');
  const [photos, setPhotos] = useState<File[]>([]);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const open = useOpenDispute();
  const notify = useNotification();
  const descriptionId = useId();
  const photosId = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found: Record<string, string> = {};
    if (description.trim().length < 10) found.description = 'Describe it in at least 10 characters';
    if (photos.length === 0) found.photo = 'Add at least one photo';
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    try {
      await open.mutateAsync({ bookingId: booking.id, kind, description: description.trim(), photos });
      notify.success('Dispute opened', 'The renter and Karoo can see it with your photos.');
      onClose();
    } catch (error) {
      setProblems((error as { errors?: Record<string, string> }).errors ?? {});
      notify.error('Could not flag it', messageOf(error, 'Please try again.'));
    }
  }

  return (
    <Dialog open onClose={onClose} scrollBody title="Flag damage" description={`Tell the renter and Karoo what is wrong with the ${booking.car_name}.`}>
      <form onSubmit={submit} noValidate className="space-y-4" aria-label="Flag damage">
        <fieldset>
          <legend className="mb-2 text-sm font-medium text-stone-700">What happened</legend>
          <div className="flex flex-wrap gap-4">
            {DISPUTE_KINDS.map((value) => (
              <label key={value} className="flex min-h-11 items-center gap-2 text-sm">
                <input type="radio" name="kind" value={value} checked={kind === value} onChange={() => setKind(value)} className="size-4" />
                {KIND_LABELS[value]}
              </label>
            ))}
          </div>
        </fieldset>
        <div>
          <label htmlFor={descriptionId} className="mb-1.5 block text-sm font-medium text-stone-700">
            Description
          </label>
          <textarea
            id={descriptionId}
            rows={3}
            maxLength={MAX_TRIP_NOTE}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
            aria-invalid={!!problems.description}
            aria-describedby={problems.description ? `${descriptionId}-error` : undefined}
            className="w-full rounded-lg border border-stone-300 px-3 py-2 text-sm shadow-sm focus:border-brand-500 focus:outline-none focus:ring-4 focus:ring-brand-500/20"
          />
          {problems.description ? (
            <p id={`${descriptionId}-error`} role="alert" className="mt-1.5 text-sm font-medium text-red-600">
              {problems.description}
            </p>
          ) : null}
        </div>
        <div>
          <label htmlFor={photosId} className="mb-1.5 block text-sm font-medium text-stone-700">
            Photos of it
          </label>
          <input
            id={photosId}
            type="file"
            accept="image/*"
            capture="environment"
            multiple
            aria-invalid={!!problems.photo}
            aria-describedby={problems.photo ? `${photosId}-error` : undefined}
            onChange={(e) => setPhotos(Array.from(e.target.files ?? []).slice(0, MAX_TRIP_PHOTOS))}
            className="block w-full text-sm text-stone-700 file:mr-3 file:min-h-11 file:rounded-lg file:border-0 file:bg-stone-100 file:px-3 file:font-medium"
          />
          {problems.photo ? (
            <p id={`${photosId}-error`} role="alert" className="mt-1.5 text-sm font-medium text-red-600">
              {problems.photo}
            </p>
          ) : photos.length > 0 ? (
            <p className="mt-1 text-xs text-stone-600">{photos.length} photo{photos.length === 1 ? '' : 's'} added</p>
          ) : null}
        </div>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" variant="danger-outline" loading={open.isPending}>
            Flag damage
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
