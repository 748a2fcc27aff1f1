// Receipts and invoices (decision 040): who may download which document of a booking, and the
// document itself, built from the booking's ledger rows when it is asked for. Each document keeps
// one number for life (decision 056): the same content asked for again is the same document, under
// its number and date of issue; a changed content (a refund, a payout) is a new document with the
// next number of its kind, naming the one it replaces. The numbers live in issued_documents.
import { createHash } from 'node:crypto';
import { isAdmin } from '@karoo/shared';
import type { AppContext } from '../../context';
import type { UserRow } from '../../db/schema';
import type { Env } from '../../env';
import { inTransaction } from '../../events/domain-events';
import { conflict, forbidden } from '../../lib/app-error';
import { findVisibleBooking, type BookingRecord } from '../bookings';
import { entriesOfBookings } from '../ledger';
import { renderStatementPdf } from './receipt-pdf';
import { hostInvoice, renterReceipt, type Company, type Statement } from './receipt-statement';
import * as repo from './receipts.repository';
import type { DocumentKind } from './receipts.repository';

export type { DocumentKind } from './receipts.repository';

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
    prefix: 'RC',
    filename: (b: BookingRecord) => `karoo-receipt-${b.booking_number}.pdf`,
  },
  invoice: {
    /** The car owner's, and an administrator's. */
    mayRead: (viewer: UserRow, b: BookingRecord) => viewer.id === b.owner_id || isAdmin(viewer),
    refusal: "The invoice is the host's. As the renter, download your receipt: GET /api/booking/{id}/receipt.pdf.",
    build: hostInvoice,
    prefix: 'HI',
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
  const company = companyOf(ctx.env);
  // What the document says, its number aside: the same as the current one's, or a new document.
  const draft = document.build({ booking, entries, company, number: '', replaces: null, issuedAt: ctx.clock.now() });
  const issued = await numberDocument(ctx, kind, booking.id, contentHashOf(draft));
  const statement = document.build({ booking, entries, company, number: issued.number, replaces: issued.replaces_number, issuedAt: issued.issued_at });
  return { filename: document.filename(booking), pdf: await renderStatementPdf(statement, issued.issued_at) };
}

/** A document's number: its kind's prefix and its serial, six digits at least ("RC-000042"). */
export function documentNumberOf(kind: DocumentKind, serial: number): string {
  return `${DOCUMENTS[kind].prefix}-${String(serial).padStart(6, '0')}`;
}

/** A fingerprint of what a document says, its number and date of issue aside. */
function contentHashOf(statement: Statement): string {
  return createHash('sha256').update(JSON.stringify({ ...statement, number: '', replaces: null, issuedAt: '' })).digest('hex');
}

/**
 * The number of the booking's document of this kind with this content: its current one when the
 * content is the same, or a new one (the kind's next serial, naming the one it replaces). The kind's
 * counter is locked while a number is taken, so two first downloads at once issue one document
 * (and the database refuses a second first document, or a document replaced twice, in any case).
 */
async function numberDocument(ctx: AppContext, kind: DocumentKind, bookingId: string, contentHash: string): Promise<repo.IssuedRecord> {
  const current = await repo.findCurrentDocument(ctx.db, kind, bookingId);
  if (current?.content_hash === contentHash) return current;
  return inTransaction(ctx, async (tx) => {
    await repo.lockSerials(tx.db, kind);
    const latest = await repo.findCurrentDocument(tx.db, kind, bookingId);
    if (latest?.content_hash === contentHash) return latest;
    const serial = await repo.takeNextSerial(tx.db, kind);
    const number = documentNumberOf(kind, serial);
    const id = await repo.insertDocument(tx.db, { kind, serial, number, booking_id: bookingId, content_hash: contentHash, replaces_id: latest?.id ?? null, issued_at: tx.now });
    return { id, number, content_hash: contentHash, issued_at: tx.now, replaces_number: latest?.number ?? null };
  });
}
