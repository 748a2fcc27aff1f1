// An issued invoice, printable: who and what it is for (the car as a person names it, the renter
// and the host), what the renter paid line by line, then the host's part: rental and pickup, the
// host fee at the rate stored on the booking, and the earnings. Karoo's whole share (app_fee) also
// holds the renter's service fee and insurance, so it is never shown as the host's fee.
import { formatDateRange, formatRand, hostFeeLabel, type Invoice } from '@karoo/shared';
import { Printer } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { formatDate } from '@/lib/booking-format';

function Line({ label, value, strong, tone }: { label: ReactNode; value: string; strong?: boolean; tone?: 'earnings' }) {
  return (
    <tr className={strong ? undefined : 'border-b border-stone-100'}>
      <th scope="row" className={`py-2 text-left ${strong ? 'font-semibold' : 'font-normal text-stone-600'} ${tone === 'earnings' ? 'text-emerald-700' : ''}`}>
        {label}
      </th>
      <td className={`py-2 text-right tabular-nums ${strong ? 'font-semibold' : ''} ${tone === 'earnings' ? 'text-emerald-700' : ''}`}>{value}</td>
    </tr>
  );
}

export function InvoiceDialog({ invoice, onClose }: { invoice: Invoice; onClose: () => void }) {
  const { car } = invoice;
  return (
    <Dialog
      open
      onClose={onClose}
      title={`Invoice ${invoice.invoice_number}`}
      description={`Booking ${invoice.booking_number} · issued ${formatDate(invoice.issued_at)}`}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Close
          </Button>
          <Button onClick={() => window.print()} icon={<Printer className="size-4" aria-hidden="true" />}>
            Print
          </Button>
        </>
      }
    >
      <dl className="grid gap-x-4 gap-y-2 rounded-xl bg-stone-50 p-3 text-sm sm:grid-cols-[auto_1fr]" aria-label="Invoice details">
        <dt className="text-stone-500">Car</dt>
        <dd className="font-medium text-stone-900">
          <span className="block">{invoice.car_name}</span>
          <span className="block text-xs font-normal text-stone-600">
            {car.color} · plate {car.plate_number}
          </span>
        </dd>
        <dt className="text-stone-500">Trip</dt>
        <dd className="text-stone-900">{formatDateRange(invoice.start_date, invoice.end_date)}</dd>
        <dt className="text-stone-500">Renter</dt>
        <dd className="text-stone-900">
          {invoice.renter.full_name} <span className="text-stone-500">({invoice.renter.username})</span>
        </dd>
        <dt className="text-stone-500">Host</dt>
        <dd className="text-stone-900">
          {invoice.host.full_name} <span className="text-stone-500">({invoice.host.username})</span>
        </dd>
      </dl>

      <table className="mt-4 w-full text-sm">
        <caption className="pb-1 text-left text-xs font-semibold tracking-wide text-stone-500 uppercase">What the renter paid</caption>
        <tbody>
          {invoice.line_items.map((line, i) => (
            <Line key={i} label={line.description} value={formatRand(line.amount)} />
          ))}
          <Line label="Total paid by the renter" value={formatRand(invoice.total_amount)} strong />
        </tbody>
      </table>

      <table className="mt-4 w-full text-sm">
        <caption className="pb-1 text-left text-xs font-semibold tracking-wide text-stone-500 uppercase">Your earnings</caption>
        <tbody>
          <Line label={invoice.pickup_fee > 0 ? 'Rental and pickup fee' : 'Rental'} value={formatRand(invoice.rental_income)} />
          <Line label={hostFeeLabel(invoice.host_fee_rate, invoice.pickup_fee > 0)} value={`-${formatRand(invoice.host_fee)}`} />
          <Line label="Your earnings" value={formatRand(invoice.car_owner_earnings)} strong tone="earnings" />
        </tbody>
      </table>
      <p className="mt-2 text-xs text-stone-500">The renter&rsquo;s service fee and insurance go to Karoo and are not part of your earnings.</p>
    </Dialog>
  );
}
