// Receipts and invoices (decision 040): who may download which document of a booking, and the
// document itself, built from the booking's ledger rows at the moment it is asked for. Nothing is
// stored: the ledger is append-only, so a document issued again for the same rows says the same
// thing under the same number.
import { isAdmin } from '@karoo/shared';
import type { AppContext } from '../../context';
import type { UserRow } from '../../db/schema';
import type { Env } from '../../env';
import { conflict, forbidden } from '../../lib/app-error';
import { findVisibleBooking, type BookingRecord } from '../bookings';
import { entriesOfBookings } from '../ledger';
import { renderStatementPdf } from './receipt-pdf';
import { hostInvoice, renterReceipt, type Company, type StatementInput } from './receipt-statement';

export type DocumentKind = 'receipt' | 'invoice';

export interface IssuedDocument {
  filename: string;
  pdf: Buffer;
}

/** The company on every document, from the environment (env.ts: COMPANY_*). */
export function companyOf(env: Pick<Env, 'COMPANY_NAME' | 'COMPANY_REGISTRATION' | 'COMPANY_ADDRESS' | 'COMPANY_VAT_NUMBER' | 'APP_URL'>): Company {
  return {
    name: env.COMPANY_NAME,
    registration: env.COMPANY_REGISTRATION,
    address: env.COMPANY_ADDRESS,
    vatNumber: env.COMPANY_VAT_NUMBER ?? null,
    website: new URL(env.APP_URL).host,
  };
}

const DOCUMENTS = {
  receipt: {
    /** The renter's, and an administrator's. */
    mayRead: (viewer: UserRow, b: BookingRecord) => viewer.id === b.renter_id || isAdmin(viewer),
    refusal: "The receipt is the renter's. As the car's owner, download the host invoice: GET /api/booking/{id}/invoice.pdf.",
    build: renterReceipt,
    filename: (b: BookingRecord) => `karoo-receipt-${b.booking_number}.pdf`,
  },
  invoice: {
    /** The car owner's, and an administrator's. */
    mayRead: (viewer: UserRow, b: BookingRecord) => viewer.id === b.owner_id || isAdmin(viewer),
    refusal: "The invoice is the host's. As the renter, download your receipt: GET /api/booking/{id}/receipt.pdf.",
    build: hostInvoice,
    filename: (b: BookingRecord) => `karoo-invoice-${b.booking_number}.pdf`,
  },
} as const;

/**
 * A booking's receipt (its renter or an administrator) or host invoice (its car's owner or an
 * administrator), as a PDF. Someone else's booking is 404; the other party's document is 403; a
 * booking no money has moved for (never paid) is 409.
 */
export async function issueDocument(ctx: AppContext, viewer: UserRow, kind: DocumentKind, idOrNumber: string): Promise<IssuedDocument> {
  const booking = await findVisibleBooking(ctx, viewer, idOrNumber);
  const document = DOCUMENTS[kind];
  if (!document.mayRead(viewer, booking)) throw forbidden(document.refusal);
  const entries = await entriesOfBookings(ctx.db, [booking.id]);
  if (!entries.some((e) => e.kind === 'charge')) {
    throw conflict(`Booking ${booking.booking_number} has not been paid, so it has no ${kind} yet; the ${kind} is issued once the trip is paid.`);
  }
  const issuedAt = ctx.clock.now();
  const input: StatementInput = { booking, entries, company: companyOf(ctx.env), issuedAt };
  return { filename: document.filename(booking), pdf: await renderStatementPdf(document.build(input), issuedAt) };
}
