// Check-in beside check-out (the host's return): the photos of each side, kilometres driven and the
// fuel change, from GET /booking/{id}/trip-comparison.
import { formatFuelEighths, REQUIRED_PHOTO_SLOTS, PHOTO_SLOT_LABELS, type TripComparison as Comparison, type TripRecord } from '@karoo/shared';
import { formatDateTime } from '@/lib/format';
import { useTripComparison } from '../api/trip-records';
import { TripPhoto } from '@/components/trip-photo';

function fuelChange(eighths: number): string {
  if (eighths === 0) return 'Same level';
  return `${eighths > 0 ? '+' : '−'}${Math.abs(eighths)}/8`;
}

function RecordColumn({ title, record }: { title: string; record: TripRecord | null }) {
  return (
    <div className="min-w-0">
      <h4 className="text-sm font-semibold text-stone-900">{title}</h4>
      {record ? (
        <p className="text-xs text-stone-600">
          {record.odometer_km.toLocaleString('en-ZA')} km · fuel {formatFuelEighths(record.fuel_eighths)} · by {record.author.username}, {formatDateTime(record.created_at)}
        </p>
      ) : (
        <p className="text-xs text-stone-600">Not recorded yet.</p>
      )}
      {record?.note ? <p className="mt-1 text-xs text-stone-700">“{record.note}”</p> : null}
    </div>
  );
}

export function ComparisonSummary({ comparison }: { comparison: Comparison }) {
  return (
    <dl className="grid grid-cols-2 gap-2 rounded-lg bg-stone-50 p-3 text-sm">
      <div>
        <dt className="text-stone-600">Kilometres driven</dt>
        <dd className="font-semibold text-stone-900">{comparison.km_driven === null ? '—' : `${comparison.km_driven.toLocaleString('en-ZA')} km`}</dd>
      </div>
      <div>
        <dt className="text-stone-600">Fuel change</dt>
        <dd className="font-semibold text-stone-900">{comparison.fuel_change_eighths === null ? '—' : fuelChange(comparison.fuel_change_eighths)}</dd>
      </div>
    </dl>
  );
}

export function TripComparison({ bookingId }: { bookingId: string }) {
  const { data, isPending, isError } = useTripComparison(bookingId);
  if (isPending) return <p className="text-sm text-stone-600">Loading check-in and check-out…</p>;
  if (isError || !data) return <p className="text-sm text-red-700">Check-in and check-out could not be loaded.</p>;
  const photoOf = (record: TripRecord | null, slot: string) => record?.photos.find((p) => p.slot === slot);
  return (
    <section aria-label="Check-in and check-out" className="space-y-3">
      <ComparisonSummary comparison={data} />
      <div className="grid grid-cols-2 gap-3">
        <RecordColumn title="Check-in" record={data.check_in} />
        <RecordColumn title="Check-out" record={data.check_out} />
      </div>
      {data.check_in || data.check_out ? (
        <ul className="space-y-2" aria-label="Photos side by side">
          {REQUIRED_PHOTO_SLOTS.map((slot) => {
            const before = photoOf(data.check_in, slot);
            const after = photoOf(data.check_out, slot);
            return (
              <li key={slot} className="grid grid-cols-2 gap-3">
                {before ? <TripPhoto photo={before} /> : <p className="text-xs text-stone-500">No {PHOTO_SLOT_LABELS[slot].toLowerCase()} photo</p>}
                {after ? <TripPhoto photo={after} /> : <p className="text-xs text-stone-500">No {PHOTO_SLOT_LABELS[slot].toLowerCase()} photo</p>}
              </li>
            );
          })}
        </ul>
      ) : null}
    </section>
  );
}
