// "Download receipt" for the renter, "Download invoice" for the car owner, on a booking money has
// moved for: the PDF is built by the API from the ledger (decision 040).
import type { Booking } from '@karoo/shared';
import { FileDown } from 'lucide-react';
import { useState } from 'react';
import { useNotification } from '@/components/ui/toast';
import { messageOf } from '@/lib/api-client';
import { downloadBookingDocument, hasBookingDocuments } from '@/lib/booking-documents';
import type { BookingRole } from '../utils/booking-actions';

export function BookingDocumentLink({ booking, role }: { booking: Booking; role: BookingRole }) {
  const notify = useNotification();
  const [busy, setBusy] = useState(false);
  if (!hasBookingDocuments(booking)) return null;
  const document = role === 'owner' ? 'invoice' : 'receipt';

  async function download() {
    setBusy(true);
    try {
      await downloadBookingDocument(booking.id, document);
    } catch (error) {
      notify.error('Download Failed', messageOf(error, `Failed to download the ${document}. Please try again.`));
    } finally {
      setBusy(false);
    }
  }

  return (
    <button
      type="button"
      onClick={() => void download()}
      disabled={busy}
      aria-busy={busy}
      className="inline-flex items-center gap-1 whitespace-nowrap rounded-lg px-2 py-1 text-sm font-medium text-brand-700 hover:bg-brand-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 disabled:opacity-60"
    >
      <FileDown className="size-4" aria-hidden="true" />
      {document === 'invoice' ? 'Download invoice' : 'Download receipt'}
    </button>
  );
}
