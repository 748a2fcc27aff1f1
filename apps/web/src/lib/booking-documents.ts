// GET /api/booking/{id}/receipt.pdf and invoice.pdf (decision 040): the renter's receipt and the
// host's invoice of a paid booking. Private files need the bearer token, so they are fetched by the
// api-client and saved from a blob (a plain link cannot send the token). Used by My Bookings and
// the host's Earnings.
import type { Booking } from '@karoo/shared';
import { downloadFile } from './api-files';

export type BookingDocument = 'receipt' | 'invoice';

/** Saves a booking's receipt or invoice (by booking id or number) as a PDF. */
export function downloadBookingDocument(bookingIdOrNumber: string, document: BookingDocument): Promise<void> {
  return downloadFile(`/booking/${encodeURIComponent(bookingIdOrNumber)}/${document}.pdf`, { mode: 'save' });
}

/**
 * True when money has moved for the booking, so it has a receipt and an invoice: it was paid (and
 * may since be completed or cancelled), or a charge of it was refunded. The server decides (409
 * otherwise); this only keeps the link off bookings that were never paid.
 */
export function hasBookingDocuments(booking: Pick<Booking, 'paid_at' | 'refunds'>): boolean {
  return booking.paid_at !== null || booking.refunds.length > 0;
}
