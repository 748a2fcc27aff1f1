// Check in / Check out from the booking card, made for the phone: four labelled photo slots (front,
// back, both sides) that open the camera or the gallery, extra photos, the odometer, the fuel or
// charge level in eighths, and a note. The server takes one record per person and stage, within
// the windows of decision 042.
import { FUEL_EIGHTHS_MAX, formatFuelEighths, MAX_TRIP_NOTE, MAX_TRIP_PHOTOS, PHOTO_SLOT_LABELS, REQUIRED_PHOTO_SLOTS, type Booking, type TripStage } from '@karoo/shared';
import { Camera, Check } from 'lucide-react';
import { useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { useNotification } from '@/components/ui/toast';
import { messageOf } from '@/lib/api-client';
import { useAddTripRecord, type ChosenPhoto } from '../api/trip-records';

type Slot = (typeof REQUIRED_PHOTO_SLOTS)[number];
const STAGE_TITLE: Record<TripStage, string> = { check_in: 'Check in', check_out: 'Check out' };

/** Why the form cannot be sent yet, by field; empty when it can. */
export function tripFormProblems(input: { sides: Partial<Record<Slot, File>>; odometer: string; fuel: string }): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const slot of REQUIRED_PHOTO_SLOTS) if (!input.sides[slot]) problems[`photo_${slot}`] = `Add a photo of the ${PHOTO_SLOT_LABELS[slot].toLowerCase()}`;
  if (!/^\d{1,7}$/.test(input.odometer.trim())) problems.odometer_km = 'Enter the odometer in whole kilometres';
  if (input.fuel === '') problems.fuel_eighths = 'Choose the fuel or charge level';
  return problems;
}

function PhotoSlotInput({ slot, file, error, onChoose }: { slot: Slot; file: File | undefined; error: string | undefined; onChoose: (file: File | undefined) => void }) {
  const id = useId();
  const preview = useMemo(() => (file ? URL.createObjectURL(file) : null), [file]);
  useEffect(() => () => (preview ? URL.revokeObjectURL(preview) : undefined), [preview]);
  const label = PHOTO_SLOT_LABELS[slot];
  return (
    <div>
      <label
        htmlFor={id}
        className={`flex aspect-[4/3] cursor-pointer flex-col items-center justify-center gap-1 overflow-hidden rounded-xl border-2 border-dashed text-sm font-medium focus-within:ring-2 focus-within:ring-brand-500 ${error ? 'border-red-400 text-red-700' : 'border-stone-300 text-stone-700'} ${file ? 'border-solid border-brand-500' : ''}`}
      >
        {preview ? <img src={preview} alt="" className="h-full w-full object-cover" /> : <Camera className="size-6" aria-hidden="true" />}
        <span className={preview ? 'sr-only' : ''}>{label}</span>
        <input
          id={id}
          type="file"
          accept="image/*"
          capture="environment"
          className="sr-only"
          aria-label={`${label} photo${file ? ` (chosen: ${file.name})` : ''}`}
          aria-invalid={!!error}
          onChange={(e) => onChoose(e.target.files?.[0])}
        />
      </label>
      <p className="mt-1 flex items-center gap-1 text-xs text-stone-600">
        {file ? <Check className="size-3 text-brand-700" aria-hidden="true" /> : null}
        {file ? `${label}: added` : error ? <span className="font-medium text-red-700">{error}</span> : `${label}: required`}
      </p>
    </div>
  );
}

export function TripRecordDialog({ booking, stage, onClose }: { booking: Booking; stage: TripStage; onClose: () => void }) {
  const [sides, setSides] = useState<Partial<Record<Slot, File>>>({});
  const [extras, setExtras] = useState<File[]>([]);
  const [odometer, setOdometer] = useState('');
  const [fuel, setFuel] = useState('');
  const [note, setNote] = useState('');
  const [problems, setProblems] = useState<Record<string, string>>({});
  const add = useAddTripRecord();
  const notify = useNotification();
  const fuelId = useId();
  const noteId = useId();
  const extrasId = useId();
  const title = STAGE_TITLE[stage];

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = tripFormProblems({ sides, odometer, fuel });
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    const photos: ChosenPhoto[] = [...REQUIRED_PHOTO_SLOTS.map((slot) => ({ slot, file: sides[slot]! })), ...extras.map((file) => ({ slot: 'extra' as const, file }))];
    try {
      await add.mutateAsync({ bookingId: booking.id, stage, odometerKm: Number(odometer), fuelEighths: Number(fuel), note: note.trim(), photos });
      notify.success(stage === 'check_in' ? 'Checked in' : 'Checked out', `The ${booking.car_name}'s condition is recorded.`);
      onClose();
    } catch (error) {
      setProblems((error as { errors?: Record<string, string> }).errors ?? {});
      notify.error(`${title} failed`, messageOf(error, 'The record could not be saved. Please try again.'));
    }
  }

  return (
    <Dialog
      open
      onClose={onClose}
      scrollBody
      title={`${title}: ${booking.car_name}`}
      description="Photograph the car from all four sides, then read the odometer and the fuel gauge. Records cannot be changed later."
    >
      <form onSubmit={submit} noValidate className="space-y-4" aria-label={title}>
        <fieldset>
          <legend className="mb-2 text-sm font-semibold text-stone-900">Photos of the four sides</legend>
          <div className="grid grid-cols-2 gap-3">
            {REQUIRED_PHOTO_SLOTS.map((slot) => (
              <PhotoSlotInput key={slot} slot={slot} file={sides[slot]} error={problems[`photo_${slot}`]} onChoose={(file) => setSides((s) => ({ ...s, [slot]: file }))} />
            ))}
          </div>
        </fieldset>
        <div>
          <label htmlFor={extrasId} className="mb-1.5 block text-sm font-medium text-stone-700">
            More photos (optional: dashboard, tyres, marks)
          </label>
          <input
            id={extrasId}
            type="file"
            accept="image/*"
            capture="environment"
            multiple
            onChange={(e) => setExtras(Array.from(e.target.files ?? []).slice(0, MAX_TRIP_PHOTOS - REQUIRED_PHOTO_SLOTS.length))}
            className="block w-full text-sm text-stone-700 file:mr-3 file:min-h-11 file:rounded-lg file:border-0 file:bg-stone-100 file:px-3 file:font-medium"
          />
          {extras.length > 0 ? <p className="mt-1 text-xs text-stone-600">{extras.length} more photo{extras.length === 1 ? '' : 's'} added</p> : null}
        </div>
        <Input label="Odometer (km)" inputMode="numeric" autoComplete="off" value={odometer} error={problems.odometer_km} onChange={(e) => setOdometer(e.target.value.replace(/[^\d]/g, ''))} />
        <div>
          <label htmlFor={fuelId} className="mb-1.5 block text-sm font-medium text-stone-700">
            Fuel or charge level
          </label>
          <select
            id={fuelId}
            value={fuel}
            onChange={(e) => setFuel(e.target.value)}
            aria-invalid={!!problems.fuel_eighths}
            aria-describedby={problems.fuel_eighths ? `${fuelId}-error` : undefined}
            className="block min-h-11 w-full rounded-xl border border-stone-300 bg-white px-3 text-[15px]"
          >
            <option value="">Choose…</option>
            {Array.from({ length: FUEL_EIGHTHS_MAX + 1 }, (_, k) => FUEL_EIGHTHS_MAX - k).map((eighths) => (
              <option key={eighths} value={eighths}>
                {formatFuelEighths(eighths)}
              </option>
            ))}
          </select>
          {problems.fuel_eighths ? (
            <p id={`${fuelId}-error`} role="alert" className="mt-1.5 text-sm font-medium text-red-600">
              {problems.fuel_eighths}
            </p>
          ) : (
            <p className="mt-1.5 text-xs text-stone-500">An electric car: its charge to the nearest eighth (50% is 4/8).</p>
          )}
        </div>
        <div>
          <label htmlFor={noteId} className="mb-1.5 block text-sm font-medium text-stone-700">
            Note (optional)
          </label>
          <textarea
            id={noteId}
            rows={3}
            maxLength={MAX_TRIP_NOTE}
            value={note}
            onChange={(e) => setNote(e.target.value)}
            placeholder="Scratches, dents, cleanliness, items in the car"
            className="w-full rounded-lg border border-stone-300 px-3 py-2 text-sm shadow-sm focus:border-brand-500 focus:outline-none focus:ring-4 focus:ring-brand-500/20"
          />
        </div>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={add.isPending}>
            Save {title.toLowerCase()}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
