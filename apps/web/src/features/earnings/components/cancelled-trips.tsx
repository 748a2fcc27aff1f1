// Earnings (host): the paid trips that were cancelled and still moved the host's money (issue 20;
// decision 039): a late cancellation leaves the host their share of the renter's fee, and a trip
// the host cancelled costs a penalty, taken from their next payout. The amounts are the server's
// ledger sums for each booking; a free cancellation kept nothing and is not listed.
import { formatRand, type Earning } from '@karoo/shared';
import { formatDate } from '@/lib/booking-format';
import { PayoutBadge } from './payout-badge';

/** A cancelled trip that left the host a share of a fee or a penalty. */
export const keptMoney = (e: Earning) => e.status === 'cancelled' && (e.car_owner_earnings !== 0 || e.penalty !== 0);

export function CancelledTrips({ earnings }: { earnings: Earning[] }) {
  const trips = earnings.filter(keptMoney);
  if (trips.length === 0) return null;
  return (
    <section className="mt-6 rounded-2xl border border-stone-200 bg-white shadow-sm" aria-labelledby="cancelled-trips">
      <div className="p-5 pb-3">
        <h2 id="cancelled-trips" className="text-lg font-semibold text-stone-900">
          Cancelled trips
        </h2>
        <p className="text-sm text-stone-500">Paid trips that were cancelled: your share of a late cancellation&rsquo;s fee, or the penalty for a trip you cancelled.</p>
      </div>
      <ul className="divide-y divide-stone-100">
        {trips.map((e) => (
          <li key={e.id} className="flex flex-col gap-2 px-5 py-3 sm:flex-row sm:items-center sm:justify-between" data-testid="cancelled-trip">
            <div className="min-w-0">
              <p className="font-medium text-stone-900">{e.car_name}</p>
              <p className="text-xs text-stone-500">
                <span className="font-mono">{e.booking_id}</span> · {formatDate(e.start_date)} – {formatDate(e.end_date)}
              </p>
            </div>
            <div className="text-right text-sm">
              {e.penalty > 0 ? (
                <>
                  <p className="font-semibold tabular-nums text-red-700">−{formatRand(e.penalty)}</p>
                  <p className="text-xs text-stone-500">Penalty for cancelling, taken from your next payout</p>
                </>
              ) : (
                <>
                  <p className="font-semibold tabular-nums text-stone-900">{formatRand(e.car_owner_earnings)}</p>
                  <p className="text-xs text-stone-500">
                    Your share of the {formatRand(e.cancellation_fee)} cancellation fee · fee {e.commission_rate}%
                  </p>
                </>
              )}
            </div>
            <PayoutBadge earning={e} />
          </li>
        ))}
      </ul>
    </section>
  );
}
