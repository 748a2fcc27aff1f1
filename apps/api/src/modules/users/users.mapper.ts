// Rows to the API's user shape (api.md), never leaking the password hash or private columns.
import {
  DOCUMENT_TYPES,
  type Documents,
  type StoredDocument,
  type User,
  type UserWithDocuments,
} from '@karoo/shared';
import type { UserDocumentRow, UserRow } from '../../db/schema';

const iso = (d: Date | string | null) => (d == null ? null : new Date(d).toISOString());

export function toUser(row: UserRow): User {
  return {
    id: row.id,
    username: row.username,
    full_name: row.full_name,
    email: row.email,
    phone_number: row.phone_number,
    address: row.address,
    id_number: row.id_number,
    driver_licence_number: row.driver_licence_number ?? null,
    driver_licence_issued_on: row.driver_licence_issued_on ?? null,
    bank_account: { account_number: row.bank_account_number, bank_code: row.bank_code },
    role: row.role,
    user_type: row.user_type,
    verification_status: row.verification_status,
    verification_notes: row.verification_notes,
    host_since: iso(row.host_since),
    rating: row.rating == null ? null : Number(row.rating),
    total_trips: row.total_trips,
    created_at: iso(row.created_at)!,
    updated_at: iso(row.updated_at)!,
  };
}

export function documentUrl(username: string, type: string): string {
  return `/api/user/${encodeURIComponent(username)}/documents/${type}`;
}

export function toDocuments(username: string, rows: UserDocumentRow[]): Documents {
  const documents = Object.fromEntries(DOCUMENT_TYPES.map((t) => [t, null])) as Record<string, StoredDocument | null>;
  for (const row of rows) {
    documents[row.type] = {
      url: documentUrl(username, row.type),
      originalName: row.original_name,
      mime_type: row.mime_type,
      size: row.size_bytes,
      uploaded_at: iso(row.uploaded_at)!,
    };
  }
  return documents as Documents;
}

export function toUserWithDocuments(row: UserRow, documents: UserDocumentRow[]): UserWithDocuments {
  return { ...toUser(row), documents: toDocuments(row.username, documents.filter((d) => d.user_id === row.id)) };
}
