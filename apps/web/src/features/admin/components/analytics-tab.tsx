// The admin panel's Analytics tab (issue 10): bookings and platform revenue per week (recharts,
// loaded lazily), average trip length, average rating, request-to-paid conversion, cancellation and
// rejection rates, utilisation of listed cars and the busiest cities, every figure a server
// aggregate of the stored rows for the chosen period (Johannesburg dates; default the last 12
// weeks ending today). Refetched every 30 seconds while this tab is on screen.
import { type AdminAnalytics } from '@karoo/shared';
import { Ban, CalendarRange, Gauge, MapPin, Star, ThumbsDown, TrendingUp, type LucideIcon } from 'lucide-react';
import { lazy, Suspense, useState, type FormEvent } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { messageOf } from '@/lib/api-client';
import { formatDate, formatRand } from '@/lib/format';
import { useAdminAnalytics, type AnalyticsPeriod } from '../api/admin-analytics';

const AnalyticsChart = lazy(() => import('./analytics-chart'));

const card = 'rounded-2xl border border-stone-200/80 bg-white shadow-card';
const field = 'h-10 rounded-xl border border-stone-300 bg-white px-3 text-sm';

/** A share 0..1 as "12.5%" (en-ZA, one decimal at most). */
export function formatShare(share: number): string {
  return `${(Math.round(share * 1000) / 10).toLocaleString('en-ZA')}%`;
}

/** Days with one decimal at most: "3.5 days", "1 day". */
function formatDays(days: number): string {
  const rounded = Math.round(days * 10) / 10;
  return `${rounded.toLocaleString('en-ZA')} ${rounded === 1 ? 'day' : 'days'}`;
}

interface Stat {
  key: string;
  label: string;
  icon: LucideIcon;
  tone: string;
  value: (data: AdminAnalytics) => string;
  hint: string;
}

const STATS: Stat[] = [
  { key: 'trip', label: 'Average trip length', icon: CalendarRange, tone: 'bg-brand-50 text-brand-600', value: (d) => (d.average_trip_days === null ? 'No trips' : formatDays(d.average_trip_days)), hint: 'Daily bookings completed in the period' },
  { key: 'rating', label: 'Average rating', icon: Star, tone: 'bg-amber-50 text-amber-600', value: (d) => (d.average_rating === null ? 'New' : `${(Math.round(d.average_rating * 10) / 10).toLocaleString('en-ZA')} / 5`), hint: 'Satisfaction: reviews written in the period' },
  { key: 'conversion', label: 'Conversion', icon: TrendingUp, tone: 'bg-emerald-50 text-emerald-600', value: (d) => formatShare(d.conversion), hint: 'Requests in the period that were paid' },
  { key: 'cancellation', label: 'Cancellation rate', icon: Ban, tone: 'bg-red-50 text-red-600', value: (d) => formatShare(d.cancellation_rate), hint: 'Requests in the period later cancelled' },
  { key: 'rejection', label: 'Rejection rate', icon: ThumbsDown, tone: 'bg-stone-100 text-stone-600', value: (d) => formatShare(d.rejection_rate), hint: 'Requests in the period the host rejected' },
  { key: 'utilisation', label: 'Utilisation', icon: Gauge, tone: 'bg-sky-50 text-sky-600', value: (d) => formatShare(d.utilisation), hint: 'Booked days of listed, verified cars' },
];

export function AnalyticsTab() {
  const [period, setPeriod] = useState<AnalyticsPeriod>({});
  const analytics = useAdminAnalytics(period);

  return (
    <div className="space-y-6">
      <PeriodPicker period={period} shown={analytics.data?.period} onChange={setPeriod} />
      {analytics.isPending ? (
        <p role="status" className="text-sm text-stone-500">
          Loading analytics…
        </p>
      ) : !analytics.data ? (
        <Alert tone="danger" title="Analytics could not be loaded" role="alert">
          {messageOf(analytics.error, 'Please try again.')}
          <div className="mt-3">
            <Button size="sm" variant="secondary" onClick={() => void analytics.refetch()} loading={analytics.isFetching}>
              Try again
            </Button>
          </div>
        </Alert>
      ) : (
        <AnalyticsFigures data={analytics.data} />
      )}
    </div>
  );
}

function PeriodPicker({ period, shown, onChange }: { period: AnalyticsPeriod; shown?: { from: string; to: string }; onChange: (period: AnalyticsPeriod) => void }) {
  const [from, setFrom] = useState(period.from ?? '');
  const [to, setTo] = useState(period.to ?? '');
  const invalid = from !== '' && to !== '' && from > to;

  const apply = (event: FormEvent) => {
    event.preventDefault();
    if (invalid) return;
    onChange({ ...(from ? { from } : {}), ...(to ? { to } : {}) });
  };

  return (
    <section aria-label="Period" className={`flex flex-col gap-4 p-4 sm:p-5 lg:flex-row lg:items-end lg:justify-between ${card}`}>
      <div>
        <h2 className="text-lg font-semibold text-stone-900">Analytics</h2>
        <p className="text-sm text-stone-600" data-testid="analytics-period">
          {shown ? `${formatDate(shown.from)} to ${formatDate(shown.to)}` : 'The last 12 weeks'}
          {period.from || period.to ? '' : ' (the last 12 weeks)'}
        </p>
      </div>
      <form onSubmit={apply} className="flex flex-wrap items-end gap-3">
        <label className="text-sm">
          <span className="mb-1 block font-medium text-stone-700">From</span>
          <input type="date" className={field} value={from} max={to || undefined} onChange={(e) => setFrom(e.target.value)} aria-invalid={invalid || undefined} />
        </label>
        <label className="text-sm">
          <span className="mb-1 block font-medium text-stone-700">To</span>
          <input type="date" className={field} value={to} min={from || undefined} onChange={(e) => setTo(e.target.value)} aria-invalid={invalid || undefined} />
        </label>
        <Button type="submit" variant="secondary" disabled={invalid}>
          Apply
        </Button>
        <Button
          type="button"
          variant="ghost"
          onClick={() => {
            setFrom('');
            setTo('');
            onChange({});
          }}
        >
          Last 12 weeks
        </Button>
      </form>
      {invalid ? (
        <p role="alert" className="text-sm text-red-600 lg:basis-full">
          The start date must be on or before the end date.
        </p>
      ) : null}
    </section>
  );
}

function AnalyticsFigures({ data }: { data: AdminAnalytics }) {
  const totalRevenue = data.weeks.reduce((sum, w) => sum + w.revenue, 0);
  const totalBookings = data.weeks.reduce((sum, w) => sum + w.bookings, 0);
  const busiest = Math.max(...data.busiest_cities.map((c) => c.bookings), 1);
  return (
    <>
      <dl aria-label="Figures" className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-3 xl:grid-cols-6">
        {STATS.map(({ key, label, icon: Icon, tone, value, hint }) => (
          <div key={key} className={`flex min-h-[8rem] flex-col justify-between gap-2 p-4 ${card}`} data-testid={`analytics-card-${key}`}>
            <dt className="flex items-start justify-between gap-2 text-sm font-medium text-stone-600">
              <span>{label}</span>
              <span className={`flex size-9 shrink-0 items-center justify-center rounded-xl ${tone}`}>
                <Icon className="size-5" aria-hidden="true" />
              </span>
            </dt>
            <dd>
              <span className="block text-2xl font-bold tracking-tight tabular-nums text-stone-900" data-testid="analytics-card-value">
                {value(data)}
              </span>
              <span className="mt-1 block text-xs text-stone-500">{hint}</span>
            </dd>
          </div>
        ))}
      </dl>

      <div className="grid gap-6 lg:grid-cols-3">
        <section aria-labelledby="analytics-weekly" className={`p-4 sm:p-5 lg:col-span-2 ${card}`}>
          <h2 id="analytics-weekly" className="text-lg font-semibold text-stone-900">
            Bookings and revenue per week
          </h2>
          <p className="text-sm text-stone-600" data-testid="analytics-weekly-totals">
            {totalBookings.toLocaleString('en-ZA')} {totalBookings === 1 ? 'booking' : 'bookings'} requested, {formatRand(totalRevenue)} platform revenue
          </p>
          <p className="text-xs text-stone-500" data-testid="analytics-platform-fee">
            Platform fee now: {data.platform_fee}% of rental and pickup (host fee), plus the renter service fee and insurance.
          </p>
          <div className="mt-4 h-[280px]">
            <Suspense fallback={<Spinner label="Loading chart" />}>
              <AnalyticsChart data={data.weeks} />
            </Suspense>
          </div>
        </section>

        <section aria-labelledby="analytics-cities" className={`p-4 sm:p-5 ${card}`}>
          <h2 id="analytics-cities" className="flex items-center gap-2 text-lg font-semibold text-stone-900">
            <MapPin className="size-5 text-brand-600" aria-hidden="true" /> Busiest cities
          </h2>
          {data.busiest_cities.length === 0 ? (
            <p className="mt-3 text-sm text-stone-500">No bookings in this period.</p>
          ) : (
            <ol className="mt-3 space-y-3 text-sm">
              {data.busiest_cities.map((city) => (
                <li key={city.city} data-testid="analytics-city">
                  <div className="flex justify-between gap-4">
                    <span className="text-stone-700">{city.city}</span>
                    <span className="font-semibold tabular-nums text-stone-900">
                      {city.bookings.toLocaleString('en-ZA')} {city.bookings === 1 ? 'booking' : 'bookings'}
                    </span>
                  </div>
                  <div className="mt-1 h-2 rounded-full bg-stone-100" aria-hidden="true">
                    <div className="h-2 rounded-full bg-brand-500" style={{ width: `${Math.round((city.bookings / busiest) * 100)}%` }} />
                  </div>
                </li>
              ))}
            </ol>
          )}
        </section>
      </div>
    </>
  );
}
