// Mark as Returned: the host records the odometer and condition notes; the trip completes and the
// car is available again.
import type { Booking } from '@karoo/shared';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { useNotification } from '@/components/ui/toast';
import { messageOf } from '@/lib/api-client';
import { useReturnCar } from '../api/bookings';
import { useTripRecords } from '../api/trip-records';
import { FlagDamageDialog } from './flag-damage-dialog';
import { TripComparison } from './trip-comparison';

export const COMPLETE_FAILED = 'Failed to complete the booking or update car status. Please try again.';

export function ReturnDialog({ booking, onClose }: { booking: Booking; onClose: () => void }) {
  const [odometer, setOdometer] = useState('');
  const [notes, setNotes] = useState('');
  const [error, setError] = useState<string | undefined>();
  const returnCar = useReturnCar();
  const notify = useNotification();
  const notesId = useId();
  const [flagging, setFlagging] = useState(false);
  // Flag damage only when the server would take it (the trip has started; decision 059).
  const canFlag = useTripRecords(booking.id).data?.can_flag ?? false;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const value = odometer.trim() === '' ? undefined : Number(odometer);
    if (value !== undefined && (!Number.isInteger(value) || value < 0)) {
      setError('Enter the odometer reading in whole kilometres');
      return;
    }
    setError(undefined);
    try {
      await returnCar.mutateAsync({ carId: booking.car_id, odometer: value, notes: notes.trim() || undefined });
      notify.success('Booking Completed', `The ${booking.car_name} is marked as returned and available again.`);
      onClose();
    } catch (err) {
      const fieldError = (err as { errors?: Record<string, string> }).errors?.odometer_reading;
      if (fieldError) setError((err as Error).message);
      notify.error('Complete Failed', messageOf(err, COMPLETE_FAILED));
    }
  }

  return (
    <Dialog open onClose={onClose} scrollBody title="Mark as Returned" description={`Confirm that ${booking.renter.full_name || booking.user_username} returned the ${booking.car_name}.`}>
      {/* Check-in beside check-out (issue 21): what the car looked like when it left and came back. */}
      <div className="mb-4 space-y-2">
        <TripComparison bookingId={booking.id} />
        {canFlag ? (
          <Button variant="danger-outline" size="sm" onClick={() => setFlagging(true)}>
            Flag damage
          </Button>
        ) : null}
      </div>
      {flagging ? <FlagDamageDialog booking={booking} onClose={() => setFlagging(false)} /> : null}
      <form onSubmit={submit} noValidate className="space-y-4">
        <Input label="Odometer reading (km)" inputMode="numeric" value={odometer} error={error} onChange={(e) => setOdometer(e.target.value.replace(/[^\d]/g, ''))} hint="Optional" />
        <div>
          <label htmlFor={notesId} className="mb-1.5 block text-sm font-medium text-stone-700">
            Condition notes
          </label>
          <textarea
            id={notesId}
            rows={3}
            maxLength={2000}
            value={notes}
            onChange={(e) => setNotes(e.target.value)}
            placeholder="Fuel level, cleanliness, any damage"
            className="w-full rounded-lg border border-stone-300 px-3 py-2 text-sm shadow-sm focus:border-brand-500 focus:outline-none focus:ring-4 focus:ring-brand-500/20"
          />
        </div>
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={returnCar.isPending}>
            Confirm Return
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
