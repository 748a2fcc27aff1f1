// SQL of the issued documents (migration 0033): the receipts module's own tables, issued_documents
// and document_serials. Rows are never changed: a document keeps its number for life.
import type { Db } from '../../db/connection';
import type { IssuedDocumentsTable } from '../../db/schema';

export type DocumentKind = IssuedDocumentsTable['kind'];

export interface IssuedRecord {
  id: string;
  number: string;
  content_hash: string;
  issued_at: Date;
  /** The number of the document this one replaces, or null for a booking's first. */
  replaces_number: string | null;
}

function selectIssued(db: Db) {
  return db
    .selectFrom('issued_documents as d')
    .leftJoin('issued_documents as r', 'r.id', 'd.replaces_id')
    .select(['d.id', 'd.number', 'd.content_hash', 'd.issued_at', 'r.number as replaces_number']);
}

/** The booking's current document of this kind (the last issued), or undefined before the first. */
export async function findCurrentDocument(db: Db, kind: DocumentKind, bookingId: string): Promise<IssuedRecord | undefined> {
  const row = await selectIssued(db).where('d.kind', '=', kind).where('d.booking_id', '=', bookingId).orderBy('d.serial', 'desc').limit(1).executeTakeFirst();
  return row ? { ...row, issued_at: new Date(row.issued_at) } : undefined;
}

/** Locks the kind's counter for the caller's transaction: documents of one kind are numbered one at a time. */
export async function lockSerials(db: Db, kind: DocumentKind): Promise<void> {
  await db.selectFrom('document_serials').select('last_serial').where('kind', '=', kind).forUpdate().executeTakeFirstOrThrow();
}

/** The kind's next serial number, taken (under lockSerials). */
export async function takeNextSerial(db: Db, kind: DocumentKind): Promise<number> {
  const row = await db
    .updateTable('document_serials')
    .set((eb) => ({ last_serial: eb('last_serial', '+', 1) }))
    .where('kind', '=', kind)
    .returning('last_serial')
    .executeTakeFirstOrThrow();
  return Number(row.last_serial);
}

export async function insertDocument(
  db: Db,
  row: { kind: DocumentKind; serial: number; number: string; booking_id: string; content_hash: string; replaces_id: string | null; issued_at: Date },
): Promise<string> {
  const inserted = await db.insertInto('issued_documents').values(row).returning('id').executeTakeFirstOrThrow();
  return inserted.id;
}
