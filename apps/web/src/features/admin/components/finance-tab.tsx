// The admin panel's Finance tab (document 3, Admin panel "Finance"; decisions.md sections 5 and 7):
// revenue cards with the change from last month, the fee structure, the revenue breakdown, the top
// 5 earning cars, the money in and out, the 10 most recent transactions and the host payouts owed,
// every figure a server sum of the ledger (decision 039), counted on the day the money moved, so a
// closed period keeps its figures. A period (Johannesburg dates) drives everything but the payouts,
// which are what is owed today. Refetched every 30 seconds while this tab is on screen.
import { hostFeesLabel, serviceFeesLabel, shownPayoutStatus, type AdminFinance, type FinanceHostPayout, type FinanceTotals, type PayoutStatus } from '@karoo/shared';
import { Banknote, CalendarDays, CarFront, Download, HandCoins, Percent, Wallet, type LucideIcon } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Alert } from '@/components/ui/alert';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { ScrollRegion } from '@/components/ui/scroll-region';
import { useNotification } from '@/components/ui/toast';
import { messageOf } from '@/lib/api-client';
import { formatDate, formatRand } from '@/lib/format';
import { downloadTransactionsCsv, useAdminFinance, useMarkHostPaid, type FinancePeriod } from '../api/admin-finance';
import { FailedRefunds } from './failed-refunds';
import { FinanceMoneyFlow } from './finance-money-flow';
import { PaidPayouts } from './paid-payouts';
import { PayoutTransfers } from './payout-transfers';

const card = 'rounded-2xl border border-stone-200/80 bg-white shadow-card';
const field = 'h-10 rounded-xl border border-stone-300 bg-white px-3 text-sm';

const STATUS_LABELS: Record<string, string> = { completed: 'Completed', active: 'Active', confirmed: 'Confirmed', pending: 'Pending', cancelled: 'Cancelled', rejected: 'Rejected' };
const STATUS_TONES: Record<string, BadgeTone> = { completed: 'success', active: 'info' };
const PAYOUT_LABELS: Record<PayoutStatus, string> = { pending: 'Payout pending', processing: 'Payout processing', paid: 'Paid out' };
const PAYOUT_TONES: Record<PayoutStatus, BadgeTone> = { pending: 'warning', processing: 'info', paid: 'success' };

/** "+8.3% vs last month", from this month's and last month's figures; never a fixed number. */
export function monthChange(current: number, previous: number): string {
  if (previous === 0) return current === 0 ? 'No change from last month' : 'New this month (nothing last month)';
  const change = ((current - previous) / previous) * 100;
  const rounded = Math.round(change * 10) / 10;
  return `${rounded > 0 ? '+' : ''}${rounded.toLocaleString('en-ZA')}% from last month`;
}

/** The totals that are figures (the rest list the rates the fees were taken at). */
type FinanceFigure = Exclude<keyof FinanceTotals, 'host_fee_rates' | 'service_fee_rates'>;

const CARDS: { key: FinanceFigure; label: string; icon: LucideIcon; tone: string; money: boolean }[] = [
  { key: 'gross', label: 'Gross bookings', icon: Banknote, tone: 'bg-brand-50 text-brand-600', money: true },
  { key: 'platform_revenue', label: 'Platform revenue', icon: Wallet, tone: 'bg-emerald-50 text-emerald-600', money: true },
  { key: 'host_earnings', label: 'Host earnings', icon: HandCoins, tone: 'bg-sky-50 text-sky-600', money: true },
  { key: 'bookings', label: 'Bookings', icon: CalendarDays, tone: 'bg-amber-50 text-amber-600', money: false },
];

export function FinanceTab() {
  const [period, setPeriod] = useState<FinancePeriod>({});
  const finance = useAdminFinance(period);

  return (
    <div className="space-y-6">
      <PeriodPicker period={period} onChange={setPeriod} />
      {/* Money owed to renters that the provider refused: first, whatever the period. */}
      <FailedRefunds />
      {finance.isPending ? (
        <p role="status" className="text-sm text-stone-500">
          Loading finance figures…
        </p>
      ) : !finance.data ? (
        <Alert tone="danger" title="Finance could not be loaded" role="alert">
          {messageOf(finance.error, 'Please try again.')}
          <div className="mt-3">
            <Button size="sm" variant="secondary" onClick={() => void finance.refetch()} loading={finance.isFetching}>
              Try again
            </Button>
          </div>
        </Alert>
      ) : (
        <FinanceFigures data={finance.data} />
      )}
    </div>
  );
}

function PeriodPicker({ period, onChange }: { period: FinancePeriod; onChange: (period: FinancePeriod) => void }) {
  const notify = useNotification();
  const [from, setFrom] = useState(period.from ?? '');
  const [to, setTo] = useState(period.to ?? '');
  const [exporting, setExporting] = useState(false);
  const invalid = from !== '' && to !== '' && from > to;

  const apply = (event: FormEvent) => {
    event.preventDefault();
    if (invalid) return;
    onChange({ ...(from ? { from } : {}), ...(to ? { to } : {}) });
  };
  const exportCsv = async () => {
    setExporting(true);
    try {
      await downloadTransactionsCsv(period);
    } catch (failure) {
      notify.error('Export failed', messageOf(failure, 'The transactions could not be exported.'));
    } finally {
      setExporting(false);
    }
  };

  return (
    <section aria-label="Period" className={`flex flex-col gap-4 p-4 sm:p-5 lg:flex-row lg:items-end lg:justify-between ${card}`}>
      <div>
        <h2 className="text-lg font-semibold text-stone-900">Finance</h2>
        <p className="text-sm text-stone-600">
          {period.from || period.to ? `Money that moved ${period.from ? `from ${formatDate(period.from)}` : ''} ${period.to ? `to ${formatDate(period.to)}` : ''}`.trim() : 'All time'}: charges, refunds, fees, penalties and payouts, on the day each moved.
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
          All time
        </Button>
        <Button type="button" icon={<Download className="size-4" aria-hidden="true" />} onClick={() => void exportCsv()} loading={exporting}>
          Export CSV
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

function FinanceFigures({ data }: { data: AdminFinance }) {
  const { totals, month_over_month: mom } = data;
  const breakdown = [
    // Each booking keeps the rates it was made at: the labels name those, never today's setting.
    { label: serviceFeesLabel(totals.service_fee_rates), value: totals.service_fees },
    { label: hostFeesLabel(totals.host_fee_rates), value: totals.host_fees },
    { label: 'Insurance', value: totals.insurance },
  ];
  const largest = Math.max(...breakdown.map((b) => b.value), 0.01);
  return (
    <>
      <dl aria-label="Revenue" className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4">
        {CARDS.map(({ key, label, icon: Icon, tone, money }) => (
          <div key={key} className={`flex min-h-[8rem] flex-col justify-between gap-2 p-4 ${card}`} data-testid={`finance-card-${key}`}>
            <dt className="flex items-start justify-between gap-2 text-sm font-medium text-stone-600">
              <span>{label}</span>
              <span className={`flex size-9 shrink-0 items-center justify-center rounded-xl ${tone}`}>
                <Icon className="size-5" aria-hidden="true" />
              </span>
            </dt>
            <dd>
              <span className="block text-2xl font-bold tracking-tight tabular-nums text-stone-900 sm:text-3xl" data-testid="finance-card-value">
                {money ? formatRand(totals[key]) : totals[key].toLocaleString('en-ZA')}
              </span>
              <span className="mt-1 block text-xs text-stone-500">{monthChange(mom.current[key], mom.previous[key])}</span>
            </dd>
          </div>
        ))}
      </dl>

      <FinanceMoneyFlow totals={totals} />

      <div className="grid gap-6 lg:grid-cols-2">
        <section aria-labelledby="finance-fees" className={`p-4 sm:p-5 ${card}`}>
          <h2 id="finance-fees" className="flex items-center gap-2 text-lg font-semibold text-stone-900">
            <Percent className="size-5 text-brand-600" aria-hidden="true" /> Fee structure
          </h2>
          <p className="mt-1 text-sm text-stone-500">Today&rsquo;s rates, for new bookings. Each booking keeps the rates it was made at.</p>
          <dl className="mt-3 divide-y divide-stone-100 text-sm">
            <div className="flex justify-between gap-4 py-2">
              <dt className="text-stone-600">Host fee (platform_fee), kept from rental and pickup</dt>
              <dd className="font-semibold text-stone-900">{data.fee_structure.platform_fee}%</dd>
            </div>
            <div className="flex justify-between gap-4 py-2">
              <dt className="text-stone-600">Renter service fee (platformCommission)</dt>
              <dd className="font-semibold text-stone-900">{data.fee_structure.platformCommission}%</dd>
            </div>
            <div className="flex justify-between gap-4 py-2">
              <dt className="text-stone-600">Insurance</dt>
              <dd className="font-semibold text-stone-900">Kept by the platform</dd>
            </div>
          </dl>
        </section>

        <section aria-labelledby="finance-breakdown" className={`p-4 sm:p-5 ${card}`}>
          <h2 id="finance-breakdown" className="text-lg font-semibold text-stone-900">
            Revenue breakdown
          </h2>
          <ul className="mt-3 space-y-3 text-sm">
            {breakdown.map((item) => (
              <li key={item.label}>
                <div className="flex justify-between gap-4">
                  <span className="text-stone-600">{item.label}</span>
                  <span className="font-semibold tabular-nums text-stone-900">{formatRand(item.value)}</span>
                </div>
                <div className="mt-1 h-2 rounded-full bg-stone-100" aria-hidden="true">
                  <div className="h-2 rounded-full bg-brand-500" style={{ width: `${Math.round((item.value / largest) * 100)}%` }} />
                </div>
              </li>
            ))}
            <li className="flex justify-between gap-4 border-t border-stone-100 pt-2 font-semibold text-stone-900">
              <span>Platform revenue</span>
              <span className="tabular-nums">{formatRand(totals.platform_revenue)}</span>
            </li>
          </ul>
        </section>
      </div>

      <section aria-labelledby="finance-top-cars" className={`p-4 sm:p-5 ${card}`}>
        <h2 id="finance-top-cars" className="flex items-center gap-2 text-lg font-semibold text-stone-900">
          <CarFront className="size-5 text-brand-600" aria-hidden="true" /> Top earning cars
        </h2>
        {data.top_cars.length === 0 ? (
          <p className="mt-3 text-sm text-stone-500">No earning bookings in this period.</p>
        ) : (
          <ol className="mt-3 divide-y divide-stone-100">
            {data.top_cars.map((c, i) => (
              <li key={c.car_username} className="flex flex-wrap items-center justify-between gap-2 py-2.5 text-sm" data-testid="finance-top-car">
                <span className="min-w-0">
                  <span className="mr-2 font-semibold text-stone-500">{i + 1}.</span>
                  <span className="font-medium text-stone-900">
                    {c.car_year} {c.car_name}
                  </span>
                  {/* The plate and colour tell two cars of one model apart. */}
                  <span className="block text-xs text-stone-500 sm:ml-6">
                    {c.car_plate_number} · {c.car_color} · {c.bookings} booking{c.bookings === 1 ? '' : 's'}
                  </span>
                </span>
                <span className="tabular-nums text-stone-600">
                  Gross {formatRand(c.gross)} · <span className="font-semibold text-stone-900">Revenue {formatRand(c.app_fee)}</span>
                </span>
              </li>
            ))}
          </ol>
        )}
      </section>

      <section aria-labelledby="finance-transactions" className={`p-4 sm:p-5 ${card}`}>
        <h2 id="finance-transactions" className="text-lg font-semibold text-stone-900">
          Recent transactions
        </h2>
        <p className="text-sm text-stone-500">The 10 most recent days on which a booking&rsquo;s money moved in the period (a payment, a cancellation, a refund, a payout). The status is the booking&rsquo;s today.</p>
        {data.recent_transactions.length === 0 ? (
          <p className="mt-3 text-sm text-stone-500">No transactions in this period.</p>
        ) : (
          <ScrollRegion label="Recent transactions" className="mt-3">
            <table className="w-full min-w-[68rem] text-left text-sm">
              <thead className="text-xs text-stone-500 uppercase">
                <tr>
                  <th className="py-2 pr-3 font-medium">Booking</th>
                  <th className="py-2 pr-3 font-medium">Car</th>
                  <th className="py-2 pr-3 font-medium">Renter</th>
                  <th className="py-2 pr-3 font-medium">Date</th>
                  <th className="py-2 pr-3 text-right font-medium">Charged</th>
                  <th className="py-2 pr-3 text-right font-medium">Refunded</th>
                  <th className="py-2 pr-3 text-right font-medium">Host earnings</th>
                  <th className="py-2 pr-3 text-right font-medium">Platform</th>
                  <th className="py-2 pr-3 text-right font-medium">Penalty</th>
                  <th className="py-2 pr-3 text-right font-medium">Paid out</th>
                  <th className="py-2 font-medium">Status</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-stone-100">
                {data.recent_transactions.map((r) => (
                  <tr key={r.id} data-testid="finance-transaction">
                    <td className="py-2 pr-3 font-mono text-xs">{r.booking_number}</td>
                    <td className="py-2 pr-3">{r.car_name}</td>
                    <td className="py-2 pr-3">@{r.renter_username}</td>
                    <td className="py-2 pr-3 whitespace-nowrap">{formatDate(r.day)}</td>
                    <td className="py-2 pr-3 text-right tabular-nums">{formatRand(r.charged)}</td>
                    <td className="py-2 pr-3 text-right tabular-nums">{formatRand(r.refunded)}</td>
                    <td className="py-2 pr-3 text-right tabular-nums">{formatRand(r.host_earnings)}</td>
                    <td className="py-2 pr-3 text-right tabular-nums">{formatRand(r.app_fee)}</td>
                    <td className="py-2 pr-3 text-right tabular-nums">{formatRand(r.penalty)}</td>
                    <td className="py-2 pr-3 text-right tabular-nums">{formatRand(r.paid_out)}</td>
                    <td className="py-2">
                      <span className="flex flex-wrap gap-1">
                        <Badge tone={STATUS_TONES[r.status] ?? 'neutral'}>{STATUS_LABELS[r.status] ?? r.status}</Badge>
                        <PayoutBadge status={shownPayoutStatus(r.payout_status, r.host_share)} />
                      </span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
        )}
      </section>

      <HostPayouts payouts={data.payouts} />
      <PayoutTransfers />
      <PaidPayouts paid={data.paid_payouts} reversals={data.payout_reversals} />
    </>
  );
}

/** The payout's state while the booking holds a share for its host (shownPayoutStatus); nothing owed, no badge. */
function PayoutBadge({ status }: { status: PayoutStatus | null }) {
  return status ? <Badge tone={PAYOUT_TONES[status]}>{PAYOUT_LABELS[status]}</Badge> : null;
}

function HostPayouts({ payouts }: { payouts: FinanceHostPayout[] }) {
  const [paying, setPaying] = useState<FinanceHostPayout | null>(null);
  return (
    <section aria-labelledby="finance-payouts" className={`p-4 sm:p-5 ${card}`}>
      <h2 id="finance-payouts" className="text-lg font-semibold text-stone-900">
        Host payouts
      </h2>
      <p className="text-sm text-stone-500">
        What each host is owed today: their earnings from finished trips (completed, or cancelled with a fee kept), less any penalty, less what was paid out. A trip under way is paid out once it is completed.
      </p>
      {payouts.length === 0 ? (
        <p className="mt-3 text-sm text-stone-500">Every host has been paid.</p>
      ) : (
        <ul className="mt-3 divide-y divide-stone-100">
          {payouts.map((p) => (
            <li key={p.host_id} className="flex flex-wrap items-center justify-between gap-3 py-3" data-testid="finance-payout">
              <div className="min-w-0">
                <p className="font-medium text-stone-900">
                  {p.host_name} <span className="font-normal text-stone-500">@{p.host_username}</span>
                </p>
                <p className="text-sm text-stone-500">
                  {p.bookings} finished trip{p.bookings === 1 ? '' : 's'} not yet paid out
                </p>
              </div>
              <div className="flex items-center gap-3">
                <span className="text-lg font-semibold tabular-nums text-stone-900">{formatRand(p.amount_owed)}</span>
                <Button size="sm" onClick={() => setPaying(p)}>
                  Mark paid
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <MarkPaidDialog payout={paying} onClose={() => setPaying(null)} />
    </section>
  );
}

function MarkPaidDialog({ payout, onClose }: { payout: FinanceHostPayout | null; onClose: () => void }) {
  const notify = useNotification();
  const mutation = useMarkHostPaid();
  const [reference, setReference] = useState('');
  const [error, setError] = useState<string | undefined>();
  const close = () => {
    setReference('');
    setError(undefined);
    onClose();
  };
  const submit = async () => {
    if (!payout) return;
    const value = reference.trim();
    if (!value) {
      setError('Please enter the payout reference (for example the EFT reference).');
      return;
    }
    try {
      await mutation.mutateAsync({ bookingIds: payout.booking_ids, reference: value });
      notify.success('Payout recorded', `${formatRand(payout.amount_owed)} to @${payout.host_username} marked paid.`);
      close();
    } catch (failure) {
      notify.error('Payout failed', messageOf(failure, 'The payout could not be recorded.'));
    }
  };
  return (
    <Dialog
      open={payout !== null}
      onClose={close}
      title="Mark payout paid"
      description={payout ? `${formatRand(payout.amount_owed)} to ${payout.host_name} (@${payout.host_username}) for ${payout.bookings} booking${payout.bookings === 1 ? '' : 's'}.` : undefined}
      footer={
        <>
          <Button variant="secondary" onClick={close} disabled={mutation.isPending}>
            Cancel
          </Button>
          <Button onClick={() => void submit()} loading={mutation.isPending}>
            Mark paid
          </Button>
        </>
      }
    >
      <label className="block text-sm">
        <span className="mb-1.5 block font-medium text-stone-700">Payout reference</span>
        <input
          className="h-11 w-full rounded-xl border border-stone-300 px-3.5 text-[15px]"
          value={reference}
          maxLength={200}
          aria-invalid={error ? true : undefined}
          onChange={(e) => {
            setReference(e.target.value);
            setError(undefined);
          }}
          placeholder="e.g. EFT-2026-0042"
        />
      </label>
      {error ? (
        <p className="mt-1.5 text-sm text-red-600" role="alert">
          {error}
        </p>
      ) : null}
    </Dialog>
  );
}
