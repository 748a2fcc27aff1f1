// Earnings (host): every figure is the API's sum of the ledger (never recomputed here).
import { formatRand, isListedCar, type Earning, type Invoice } from '@karoo/shared';
import { Car, FileDown, FileText, Percent, TrendingUp, Wallet } from 'lucide-react';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button, ButtonLink } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { useNotification } from '@/components/ui/toast';
import { messageOf } from '@/lib/api-client';
import { useAuth } from '@/lib/auth';
import { downloadBookingDocument } from '@/lib/booking-documents';
import { formatDate } from '@/lib/booking-format';
import { useOwnerFleet as useFleet } from '@/lib/queries/owner-cars';
import { useEarningsSummary } from '@/lib/queries/earnings';
import { useCreateInvoice, useOwnerEarnings } from '../api/earnings';
import { CancelledTrips } from './cancelled-trips';
import { InvoiceDialog } from './invoice-dialog';
import { PayoutBadge } from './payout-badge';
import { PayoutsCard } from './payouts-card';

const EarningsChart = lazy(() => import('./earnings-chart'));
export const RECENT_LIMIT = 10;

function Stat({ label, value, hint, icon }: { label: string; value: ReactNode; hint?: string; icon: ReactNode }) {
  return (
    <div className="rounded-2xl border border-stone-200 bg-white p-5 shadow-sm">
      <div className="flex items-center justify-between">
        <p className="text-sm font-medium text-stone-600">{label}</p>
        <span className="flex size-9 items-center justify-center rounded-xl bg-brand-50 text-brand-600">{icon}</span>
      </div>
      <p className="mt-2 text-2xl font-bold tabular-nums text-stone-900">{value}</p>
      {hint ? <p className="mt-1 text-xs text-stone-500">{hint}</p> : null}
    </div>
  );
}

function Shell({ children }: { children: ReactNode }) {
  return (
    <div className="mx-auto w-full min-w-0 max-w-6xl px-4 py-8 sm:px-6">
      <h1 className="text-3xl font-bold text-stone-900">Earnings</h1>
      <p className="mt-1 text-stone-600">What your cars earned on Karoo, after the host fee.</p>
      {children}
    </div>
  );
}


export function EarningsPage() {
  const { user } = useAuth();
  const summary = useEarningsSummary();
  const earnings = useOwnerEarnings(user?.username);
  const fleet = useFleet(user?.username);
  const invoice = useCreateInvoice();
  const notify = useNotification();
  const [showAll, setShowAll] = useState(false);
  const [openInvoice, setOpenInvoice] = useState<Invoice | null>(null);
  const [downloading, setDownloading] = useState<string | null>(null);

  if (summary.isPending || earnings.isPending || fleet.isPending || summary.isError || earnings.isError || fleet.isError) {
    return (
      <Shell>
        {summary.isError || earnings.isError || fleet.isError ? (
          <div className="mx-auto mt-8 max-w-lg">
            <Alert tone="danger" title="Unable to Load Earnings" role="alert">
              There was an error loading your earnings. Please try again later.
            </Alert>
          </div>
        ) : (
          <div className="flex justify-center py-24">
            <Spinner label="Loading your earnings" />
          </div>
        )}
      </Shell>
    );
  }

  const s = summary.data;
  // A car counts as listed only when renters can find it (verified and switched on).
  const listed = fleet.data.cars.filter(isListedCar).length;
  const notListed = fleet.data.total - listed;
  const completed = earnings.data
    .filter((e) => e.status === 'completed')
    .sort((a, b) => (b.completed_at ?? b.end_date).localeCompare(a.completed_at ?? a.end_date));
  const recent = showAll ? completed : completed.slice(0, RECENT_LIMIT);

  async function downloadInvoice(e: Earning) {
    setDownloading(e.booking_id);
    try {
      await downloadBookingDocument(e.booking_id, 'invoice');
    } catch (error) {
      notify.error('Download Failed', messageOf(error, 'Failed to download the invoice. Please try again.'));
    } finally {
      setDownloading(null);
    }
  }

  async function showInvoice(e: Earning) {
    try {
      setOpenInvoice(await invoice.mutateAsync(e.booking_id));
    } catch (error) {
      notify.error('Invoice Failed', messageOf(error, 'Failed to create the invoice. Please try again.'));
    }
  }

  if (fleet.data.total === 0 && s.bookings === 0) {
    return (
      <Shell>
        <div className="mx-auto mt-8 max-w-lg rounded-2xl border border-dashed border-stone-300 bg-white px-6 py-12 text-center">
          <Car className="mx-auto size-12 text-stone-300" aria-hidden="true" />
          <h2 className="mt-4 text-xl font-semibold text-stone-900">No earnings yet</h2>
          <p className="mt-2 text-stone-600">List a car on Karoo and your earnings will show here.</p>
          <ButtonLink to="/list-car" className="mt-6">
            List Your First Car
          </ButtonLink>
        </div>
      </Shell>
    );
  }

  return (
    <Shell>

      <section aria-label="Earnings summary" className="mt-6 grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <Stat
          label="Total Revenue"
          value={formatRand(s.total_revenue)}
          hint={`Paid by renters for ${s.bookings} paid or completed ${s.bookings === 1 ? 'booking' : 'bookings'}, with service fees and insurance`}
          icon={<TrendingUp className="size-5" aria-hidden="true" />}
        />
        <Stat
          label="Your Earnings"
          value={formatRand(s.total_earnings)}
          hint={s.penalties > 0 ? `Your rental income after the host fee; ${formatRand(s.penalties)} in cancellation penalties comes off your payouts` : 'Your rental income after the host fee'}
          icon={<Wallet className="size-5" aria-hidden="true" />}
        />
        <Stat
          label="Host Fee"
          value={formatRand(s.host_fee)}
          hint={`Kept from your rental income of ${formatRand(s.rental_income)}`}
          icon={<Percent className="size-5" aria-hidden="true" />}
        />
        <Stat
          label="Your Cars"
          value={fleet.data.total}
          hint={`${listed} listed on Karoo${notListed > 0 ? `, ${notListed} not listed (awaiting verification or switched off)` : ''}`}
          icon={<Car className="size-5" aria-hidden="true" />}
        />
      </section>

      <PayoutsCard />

      <div className="mt-6 grid items-start gap-6 lg:grid-cols-5">
        <section className="rounded-2xl border border-stone-200 bg-white p-5 shadow-sm lg:col-span-3" aria-labelledby="by-month">
          <h2 id="by-month" className="text-lg font-semibold text-stone-900">
            Earnings by month
          </h2>
          {s.by_month.length === 0 ? (
            <p className="mt-6 text-sm text-stone-500">No earnings yet. Completed trips will show here.</p>
          ) : (
            <div className="mt-4 h-[260px]">
              <Suspense fallback={<Spinner label="Loading chart" />}>
                <EarningsChart data={s.by_month} />
              </Suspense>
            </div>
          )}
        </section>
        <section className="rounded-2xl border border-stone-200 bg-white p-5 shadow-sm lg:col-span-2" aria-labelledby="by-car">
          <h2 id="by-car" className="text-lg font-semibold text-stone-900">
            Earnings by car
          </h2>
          {s.by_car.length === 0 ? (
            <p className="mt-4 text-sm text-stone-500">No car has earned yet.</p>
          ) : (
            <ul className="mt-3 divide-y divide-stone-100">
              {s.by_car.map((c) => (
                <li key={c.car_username} className="flex items-center justify-between gap-3 py-2.5">
                  <div className="min-w-0">
                    <p className="truncate font-medium text-stone-900">
                      {c.car_year} {c.car_name}
                    </p>
                    {/* The plate and colour tell two cars of one model apart. */}
                    <p className="text-xs text-stone-600">
                      <span className="font-mono">{c.car_plate_number}</span> · {c.car_color}
                    </p>
                    <p className="text-xs text-stone-500">
                      {c.bookings} {c.bookings === 1 ? 'booking' : 'bookings'} · revenue {formatRand(c.gross)}
                    </p>
                  </div>
                  <p className="font-semibold tabular-nums text-emerald-700">{formatRand(c.car_owner_earnings)}</p>
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>

      <section className="mt-6 rounded-2xl border border-stone-200 bg-white shadow-sm" aria-labelledby="recent">
        <div className="flex items-center justify-between p-5 pb-3">
          <h2 id="recent" className="text-lg font-semibold text-stone-900">
            Recent completed bookings
          </h2>
        </div>
        {completed.length === 0 ? (
          <p className="px-5 pb-5 text-sm text-stone-500">No completed bookings yet.</p>
        ) : (
          <ul className="divide-y divide-stone-100">
            {recent.map((e) => (
              <li key={e.id} className="flex flex-col gap-2 px-5 py-3 sm:flex-row sm:items-center sm:justify-between" data-testid="earning-row">
                <div className="min-w-0">
                  <p className="font-medium text-stone-900">{e.car_name}</p>
                  <p className="text-xs text-stone-500">
                    <span className="font-mono">{e.booking_id}</span> · {formatDate(e.start_date)} – {formatDate(e.end_date)}
                  </p>
                </div>
                <div className="flex flex-wrap items-center gap-3">
                  <div className="text-right text-sm">
                    <p className="font-semibold tabular-nums text-stone-900">{formatRand(e.car_owner_earnings)}</p>
                    <p className="text-xs text-stone-500">
                      of {formatRand(e.subtotal + e.pickup_fee)} rental · fee {e.commission_rate}%
                    </p>
                  </div>
                  <PayoutBadge earning={e} />
                  <Button
                    size="sm"
                    variant="secondary"
                    onClick={() => void showInvoice(e)}
                    loading={invoice.isPending && invoice.variables === e.booking_id}
                    icon={<FileText className="size-4" aria-hidden="true" />}
                    aria-label={`Invoice for booking ${e.booking_id}`}
                  >
                    Invoice
                  </Button>
                  {/* The PDF invoice, built from the ledger (decision 040). */}
                  <Button
                    size="sm"
                    variant="secondary"
                    onClick={() => void downloadInvoice(e)}
                    loading={downloading === e.booking_id}
                    icon={<FileDown className="size-4" aria-hidden="true" />}
                    aria-label={`Download invoice for booking ${e.booking_id}`}
                  >
                    Download invoice
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        )}
        {completed.length > RECENT_LIMIT && !showAll ? (
          <div className="border-t border-stone-100 p-4 text-center">
            <Button variant="secondary" onClick={() => setShowAll(true)}>
              View All {completed.length} Bookings
            </Button>
          </div>
        ) : null}
      </section>
      <CancelledTrips earnings={earnings.data} />
      {openInvoice ? <InvoiceDialog invoice={openInvoice} onClose={() => setOpenInvoice(null)} /> : null}
    </Shell>
  );
}
