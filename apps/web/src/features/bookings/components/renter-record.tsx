// The renter's record on a request the host has yet to accept or reject (decision 043): their
// rating from hosts' shown reviews and completed trips ("★ 4.8 · 12 trips", or "New renter"), and
// what hosts wrote, since Karoo has no public profile page to send the host to.
import type { RenterRecord } from '@karoo/shared';
import { formatDate } from '@/lib/format';
import { useRenterRecord } from '../api/booking-reviews';

const trips = (n: number) => `${n} ${n === 1 ? 'trip' : 'trips'}`;

/** The record in a few words: what the host reads before deciding. */
export function renterRecordSummary(record: Pick<RenterRecord, 'rating' | 'completed_trips' | 'review_count'>): string {
  if (record.rating === null && record.completed_trips === 0) return 'New renter';
  if (record.rating === null) return `${trips(record.completed_trips)} · no reviews yet`;
  return `★ ${record.rating.toFixed(1)} · ${trips(record.completed_trips)}`;
}

function spokenSummary(record: RenterRecord): string {
  if (record.rating === null && record.completed_trips === 0) return 'New renter: no completed trips yet';
  const rating = record.rating === null ? 'no reviews yet' : `rated ${record.rating.toFixed(1)} out of 5 by ${record.review_count} ${record.review_count === 1 ? 'host' : 'hosts'}`;
  return `Renter ${rating}, ${trips(record.completed_trips)} completed`;
}

export function RenterRecordLine({ username }: { username: string }) {
  const record = useRenterRecord(username).data;
  if (!record) return null;
  return (
    <div className="mt-1 text-xs" data-testid="renter-record">
      <p className="font-medium text-stone-700">
        <span aria-hidden="true">{renterRecordSummary(record)}</span>
        <span className="sr-only">{spokenSummary(record)}</span>
      </p>
      {record.reviews.length > 0 ? (
        <details className="mt-1">
          <summary className="cursor-pointer text-brand-700">What hosts said ({record.reviews.length})</summary>
          <ul className="mt-1 space-y-1">
            {record.reviews.slice(0, 5).map((review) => (
              <li key={review.id} className="text-stone-600">
                <span className="font-medium text-stone-800">{'★'.repeat(review.rating)}</span>{' '}
                “{review.comment}” <span className="text-stone-500">— {review.reviewer.username}, {formatDate(review.created_at)}</span>
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </div>
  );
}
