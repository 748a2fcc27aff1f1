// An issued invoice with its stored line items, printable.
import { formatRand, type Invoice } from '@karoo/shared';
import { Printer } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { formatDate } from '@/lib/booking-format';

export function InvoiceDialog({ invoice, onClose }: { invoice: Invoice; onClose: () => void }) {
  return (
    <Dialog
      open
      onClose={onClose}
      title={`Invoice ${invoice.invoice_number}`}
      description={`Booking ${invoice.booking_number} · ${invoice.car_username} · issued ${formatDate(invoice.issued_at)}`}
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
      <table className="w-full text-sm">
        <caption className="sr-only">Invoice lines</caption>
        <tbody>
          {invoice.line_items.map((line, i) => (
            <tr key={i} className="border-b border-stone-100">
              <th scope="row" className="py-2 text-left font-normal text-stone-600">
                {line.description}
              </th>
              <td className="py-2 text-right tabular-nums">{formatRand(line.amount)}</td>
            </tr>
          ))}
          <tr>
            <th scope="row" className="pt-3 text-left font-semibold">
              Total
            </th>
            <td className="pt-3 text-right font-semibold tabular-nums">{formatRand(invoice.total_amount)}</td>
          </tr>
          <tr>
            <th scope="row" className="py-1 text-left font-normal text-stone-600">
              Platform fee
            </th>
            <td className="py-1 text-right tabular-nums">-{formatRand(invoice.app_fee)}</td>
          </tr>
          <tr>
            <th scope="row" className="py-1 text-left font-semibold text-emerald-700">
              Your earnings
            </th>
            <td className="py-1 text-right font-semibold tabular-nums text-emerald-700">{formatRand(invoice.car_owner_earnings)}</td>
          </tr>
        </tbody>
      </table>
    </Dialog>
  );
}
