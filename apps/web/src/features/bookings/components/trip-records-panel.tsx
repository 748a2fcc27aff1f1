// Check-in and check-out on a paid trip's card: the records made so far (who, when, odometer, fuel,
// photos), once both stages are recorded the comparison (kilometres driven, fuel change; the
// server's compareTripRecords, as in the return dialog), any dispute with its evidence and
// resolution, and the actions the server allows now (Check in, Check out, Flag damage), from
// GET /booking/{id}/trip-records. Both the host and the renter see it.
import { formatFuelEighths, type Booking, type Dispute, type TripRecord } from '@karoo/shared';
import { ClipboardCheck, Flag } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { formatDateTime } from '@/lib/format';
import { useTripRecords } from '../api/trip-records';
import { FlagDamageDialog } from './flag-damage-dialog';
import { ComparisonSummary } from './trip-comparison';
import { TripPhoto } from '@/components/trip-photo';
import { TripRecordDialog } from './trip-record-dialog';

const STAGE = { check_in: 'Check-in', check_out: 'Check-out' } as const;
const PARTY = { host: 'host', renter: 'renter' } as const;

/** Trips whose condition can be recorded or has been: paid, under way or returned. */
export function hasTripRecords(booking: Booking): boolean {
  return booking.payment_status === 'paid' && (booking.status === 'active' || booking.status === 'completed');
}

function RecordItem({ record }: { record: TripRecord }) {
  return (
    <li className="rounded-lg border border-stone-200 p-3">
      <p className="text-sm font-medium text-stone-900">
        {STAGE[record.stage]} by the {PARTY[record.party]} ({record.author.username})
      </p>
      <p className="text-xs text-stone-600">
        {formatDateTime(record.created_at)} · {record.odometer_km.toLocaleString('en-ZA')} km · fuel {formatFuelEighths(record.fuel_eighths)}
      </p>
      {record.note ? <p className="mt-1 text-sm text-stone-700">“{record.note}”</p> : null}
      <details className="mt-2">
        <summary className="min-h-11 cursor-pointer py-2 text-sm font-medium text-brand-700">Photos ({record.photos.length})</summary>
        <div className="grid grid-cols-2 gap-2 sm:grid-cols-4">
          {record.photos.map((photo) => (
            <TripPhoto key={photo.id} photo={photo} />
          ))}
        </div>
      </details>
    </li>
  );
}

export function DisputeItem({ dispute }: { dispute: Dispute }) {
  return (
    <li className="rounded-lg border border-amber-300 bg-amber-50 p-3">
      <p className="text-sm font-medium text-stone-900">
        {dispute.kind === 'damage' ? 'Damage' : 'Missing item'} flagged by {dispute.opened_by.username} · {dispute.status === 'open' ? 'Open' : 'Resolved'}
      </p>
      <p className="text-xs text-stone-700">{formatDateTime(dispute.created_at)}</p>
      <p className="mt-1 text-sm text-stone-800">{dispute.description}</p>
      {dispute.resolution_note ? (
        <p className="mt-1 text-sm text-stone-800">
          <span className="font-medium">Resolution:</span> {dispute.resolution_note}
        </p>
      ) : null}
      <div className="mt-2 grid grid-cols-2 gap-2 sm:grid-cols-4">
        {dispute.photos.map((photo) => (
          <TripPhoto key={photo.id} photo={photo} />
        ))}
      </div>
    </li>
  );
}

export function TripRecordsPanel({ booking }: { booking: Booking }) {
  const { data } = useTripRecords(booking.id, hasTripRecords(booking));
  const [recording, setRecording] = useState<'check_in' | 'check_out' | null>(null);
  const [flagging, setFlagging] = useState(false);
  if (!hasTripRecords(booking) || !data) return null;
  const hasAnything = data.records.length > 0 || data.disputes.length > 0;
  const canAct = data.can_check_in || data.can_check_out || data.can_flag;
  if (!hasAnything && !canAct) return null;

  return (
    <section className="border-t border-stone-100 p-4 sm:px-5" aria-label="Check-in and check-out">
      <h4 className="mb-2 font-semibold text-stone-900">Check-in and check-out</h4>
      {data.records.length > 0 ? (
        <ul className="space-y-2">
          {data.records.map((record) => (
            <RecordItem key={record.id} record={record} />
          ))}
        </ul>
      ) : (
        <p className="text-sm text-stone-600">Record the car&rsquo;s condition at pickup: photos of the four sides, the odometer and the fuel.</p>
      )}
      {data.comparison.km_driven !== null ? (
        <div className="mt-2" role="group" aria-label="Check-in against check-out">
          <ComparisonSummary comparison={data.comparison} />
        </div>
      ) : null}
      {data.disputes.length > 0 ? (
        <ul className="mt-2 space-y-2" aria-label="Disputes">
          {data.disputes.map((dispute) => (
            <DisputeItem key={dispute.id} dispute={dispute} />
          ))}
        </ul>
      ) : null}
      {canAct ? (
        <div className="mt-3 flex flex-wrap gap-2">
          {data.can_check_in ? (
            <Button onClick={() => setRecording('check_in')} icon={<ClipboardCheck className="size-4" aria-hidden="true" />}>
              Check in
            </Button>
          ) : null}
          {data.can_check_out ? (
            <Button onClick={() => setRecording('check_out')} icon={<ClipboardCheck className="size-4" aria-hidden="true" />}>
              Check out
            </Button>
          ) : null}
          {data.can_flag ? (
            <Button variant="danger-outline" onClick={() => setFlagging(true)} icon={<Flag className="size-4" aria-hidden="true" />}>
              Flag damage
            </Button>
          ) : null}
        </div>
      ) : null}
      {recording ? <TripRecordDialog booking={booking} stage={recording} onClose={() => setRecording(null)} /> : null}
      {flagging ? <FlagDamageDialog booking={booking} onClose={() => setFlagging(false)} /> : null}
    </section>
  );
}
