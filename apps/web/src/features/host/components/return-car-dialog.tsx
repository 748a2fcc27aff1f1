// The confirm-car-return modal: the odometer (defaulting to the car's odometer) and optional
// condition notes (defaulting to 'Returned via host dashboard'). It stays open when the return
// fails, so the host can try again.
import { carName, DEFAULT_RETURN_NOTES, type Car } from '@karoo/shared';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Input, inputClasses } from '@/components/ui/input';
import type { ReturnCarInput } from '../api/return-car';

export interface ReturnCarDialogProps {
  car: Car | null;
  busy: boolean;
  onClose: () => void;
  onConfirm: (car: Car, input: ReturnCarInput) => void;
}

/** The return payload from the form's text: a blank odometer is left out, blank notes get the default. */
export function returnPayload(odometer: string, notes: string, now: Date = new Date()): ReturnCarInput | { error: string } {
  const trimmed = odometer.trim();
  const reading = trimmed === '' ? null : Number(trimmed);
  if (reading !== null && (!Number.isInteger(reading) || reading < 0)) return { error: 'Odometer reading must be a whole number of kilometres, 0 or more' };
  return { odometer_reading: reading, condition_notes: notes.trim() || DEFAULT_RETURN_NOTES, actual_return_date: now.toISOString() };
}

export function ReturnCarDialog({ car, busy, onClose, onConfirm }: ReturnCarDialogProps) {
  return (
    <Dialog
      open={!!car}
      onClose={busy ? () => undefined : onClose}
      title="Confirm Car Return"
      description={car ? `${carName(car)} · ${car.car_plate_number}` : undefined}
    >
      {car ? <ReturnCarForm key={car.id} car={car} busy={busy} onClose={onClose} onConfirm={onConfirm} /> : null}
    </Dialog>
  );
}

function ReturnCarForm({ car, busy, onClose, onConfirm }: { car: Car; busy: boolean; onClose: () => void; onConfirm: ReturnCarDialogProps['onConfirm'] }) {
  const notesId = useId();
  const [odometer, setOdometer] = useState(String(car.car_odometer ?? ''));
  const [notes, setNotes] = useState(DEFAULT_RETURN_NOTES);
  const [error, setError] = useState<string | undefined>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const payload = returnPayload(odometer, notes);
    if ('error' in payload) {
      setError(payload.error);
      return;
    }
    onConfirm(car, payload);
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <p className="text-sm leading-6 text-stone-600">
        The current rental will be marked completed and the car becomes available to renters again. Check the car before you confirm.
      </p>
      <Input
        label="Odometer reading (km)"
        type="number"
        inputMode="numeric"
        min={0}
        step={1}
        value={odometer}
        error={error}
        hint={`Last recorded: ${car.car_odometer.toLocaleString('en-ZA')} km`}
        onChange={(event) => {
          setOdometer(event.target.value);
          setError(undefined);
        }}
      />
      <div>
        <label htmlFor={notesId} className="mb-1.5 block text-sm font-medium text-stone-700">
          Condition notes <span className="font-normal text-stone-500">(optional)</span>
        </label>
        <textarea
          id={notesId}
          rows={3}
          value={notes}
          maxLength={2000}
          onChange={(event) => setNotes(event.target.value)}
          className={`${inputClasses} border-stone-300`}
        />
      </div>
      <div className="-mx-6 -mb-4 flex flex-col-reverse gap-2 border-t border-stone-100 px-6 py-4 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button type="submit" loading={busy}>
          {busy ? 'Returning...' : 'Confirm Return'}
        </Button>
      </div>
    </form>
  );
}
