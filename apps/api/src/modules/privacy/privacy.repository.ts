// SQL for the privacy module: its own tables (consents, exports, correction requests), and the
// read-only queries over every personal table the registry lists (the export and the counts).
import { sql, type Selectable } from 'kysely';
import type { ConsentKind, ConsentSource, CorrectionField } from '@karoo/shared';
import type { Db } from '../../db/connection';
import { PERSONAL_TABLES, type PersonalTable } from './privacy.registry';
import type { CorrectionRequestsTable, DataExportsTable, PrivacyConsentsTable } from './privacy.tables';

export type ConsentRow = Selectable<PrivacyConsentsTable>;
export type DataExportRow = Selectable<DataExportsTable>;
export type CorrectionRow = Selectable<CorrectionRequestsTable>;

// ---- Consents ----
export function insertConsent(
  db: Db,
  row: { user_id: string; kind: ConsentKind; version: string; wording: string; granted: boolean; source: ConsentSource; unsubscribe_token?: string | null; recorded_at: Date },
): Promise<ConsentRow> {
  return db.insertInto('privacy_consents').values(row).returningAll().executeTakeFirstOrThrow();
}

/** The person's latest answer of each kind. */
export async function latestConsents(db: Db, userId: string): Promise<Partial<Record<ConsentKind, ConsentRow>>> {
  const rows = await db
    .selectFrom('privacy_consents')
    .selectAll()
    .distinctOn('kind')
    .where('user_id', '=', userId)
    .orderBy('kind')
    .orderBy('recorded_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return Object.fromEntries(rows.map((row) => [row.kind, row]));
}

export function latestMarketingConsent(db: Db, userId: string): Promise<ConsentRow | undefined> {
  return db
    .selectFrom('privacy_consents')
    .selectAll()
    .where('user_id', '=', userId)
    .where('kind', '=', 'marketing')
    .orderBy('recorded_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export function findConsentByUnsubscribeToken(db: Db, token: string): Promise<ConsentRow | undefined> {
  return db.selectFrom('privacy_consents').selectAll().where('unsubscribe_token', '=', token).executeTakeFirst();
}

// ---- Exports ----
export function insertExport(db: Db, userId: string, now: Date): Promise<DataExportRow> {
  return db.insertInto('data_exports').values({ user_id: userId, requested_at: now }).returningAll().executeTakeFirstOrThrow();
}

export function findExport(db: Db, id: string): Promise<DataExportRow | undefined> {
  return db.selectFrom('data_exports').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findPreparingExport(db: Db, userId: string): Promise<DataExportRow | undefined> {
  return db.selectFrom('data_exports').selectAll().where('user_id', '=', userId).where('status', '=', 'preparing').executeTakeFirst();
}

export function listExports(db: Db, userId: string, limit: number): Promise<DataExportRow[]> {
  return db.selectFrom('data_exports').selectAll().where('user_id', '=', userId).orderBy('requested_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

export function markExportReady(db: Db, id: string, file: { storageKey: string; sizeBytes: number; now: Date; expiresAt: Date }): Promise<DataExportRow | undefined> {
  return db
    .updateTable('data_exports')
    .set({ status: 'ready', storage_key: file.storageKey, size_bytes: file.sizeBytes, ready_at: file.now, expires_at: file.expiresAt })
    .where('id', '=', id)
    .where('status', '=', 'preparing')
    .returningAll()
    .executeTakeFirst();
}

export function markExportFailed(db: Db, id: string): Promise<unknown> {
  return db.updateTable('data_exports').set({ status: 'failed' }).where('id', '=', id).where('status', '=', 'preparing').execute();
}

/** Ready exports past their time, whose files are still stored. */
export function listExpiredExports(db: Db, now: Date): Promise<DataExportRow[]> {
  return db.selectFrom('data_exports').selectAll().where('status', '=', 'ready').where('expires_at', '<=', now).limit(200).execute();
}

export function markExportExpired(db: Db, id: string): Promise<unknown> {
  return db.updateTable('data_exports').set({ status: 'expired', storage_key: null }).where('id', '=', id).where('status', '=', 'ready').execute();
}

// ---- Corrections ----
export function insertCorrection(
  db: Db,
  row: { user_id: string; field: CorrectionField; current_value: string | null; proposed_value: string; reason: string; created_at: Date },
): Promise<CorrectionRow> {
  return db.insertInto('correction_requests').values(row).returningAll().executeTakeFirstOrThrow();
}

export function listCorrectionsOf(db: Db, userId: string): Promise<CorrectionRow[]> {
  return db.selectFrom('correction_requests').selectAll().where('user_id', '=', userId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(50).execute();
}

export function listOpenCorrections(db: Db) {
  return db
    .selectFrom('correction_requests as c')
    .innerJoin('users as u', 'u.id', 'c.user_id')
    .selectAll('c')
    .select(['u.username', 'u.full_name', 'u.verification_status'])
    .where('c.status', '=', 'open')
    .orderBy('c.created_at', 'asc')
    .orderBy('c.id', 'asc')
    .limit(200)
    .execute();
}

export function findCorrection(db: Db, id: string): Promise<CorrectionRow | undefined> {
  return db.selectFrom('correction_requests').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The decision, once: only an open request changes. */
export function decideCorrection(db: Db, id: string, decision: { status: 'approved' | 'declined'; by: string; note: string; now: Date }): Promise<CorrectionRow | undefined> {
  return db
    .updateTable('correction_requests')
    .set({ status: decision.status, decided_by: decision.by, decision_note: decision.note, decided_at: decision.now })
    .where('id', '=', id)
    .where('status', '=', 'open')
    .returningAll()
    .executeTakeFirst();
}

// ---- The registry's tables ----
/** Tables of the current schema (a table another change has not created yet is skipped, not an error). */
export async function existingTables(db: Db): Promise<Set<string>> {
  const rows = await sql<{ table_name: string }>`
    SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'
  `.execute(db);
  return new Set(rows.rows.map((row) => row.table_name));
}

/** A person's rows of one registered table, without the omitted columns. */
export async function personalRows(db: Db, entry: PersonalTable, userId: string): Promise<Record<string, unknown>[]> {
  const rows = await sql<Record<string, unknown>>`SELECT t.* FROM ${sql.table(entry.table)} AS t WHERE ${entry.rowsOf(userId)}`.execute(db);
  const omit = new Set(entry.omit ?? []);
  return rows.rows.map((row) => Object.fromEntries(Object.entries(row).filter(([column]) => !omit.has(column))));
}

/** How many rows of each registered table are the person's. */
export async function personalRowCounts(db: Db, userId: string): Promise<Map<string, number>> {
  const tables = await existingTables(db);
  const counts = new Map<string, number>();
  for (const entry of PERSONAL_TABLES) {
    if (!tables.has(entry.table)) continue;
    const row = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(entry.table)} AS t WHERE ${entry.rowsOf(userId)}`.execute(db);
    counts.set(entry.table, row.rows[0]?.n ?? 0);
  }
  return counts;
}

/** The administrators' views of a person's documents, from the audit log: when and which document, never who. */
export function documentViewsOf(db: Db, userId: string) {
  return db
    .selectFrom('audit_log')
    .select(['created_at', 'after'])
    .where('action', '=', 'user.document_viewed')
    .where('target_type', '=', 'user')
    .where('target_id', '=', userId)
    .orderBy('created_at', 'desc')
    .limit(100)
    .execute();
}

/** The files a person uploaded: documents (private), car photos (public) and car registration documents (private). */
export async function uploadedFilesOf(db: Db, userId: string) {
  const documents = await db.selectFrom('user_documents').select(['type', 'storage_key', 'mime_type']).where('user_id', '=', userId).execute();
  const cars = await db
    .selectFrom('cars')
    .select(['car_username', 'images', 'registration_storage_key', 'registration_mime'])
    .where('owner_id', '=', userId)
    .execute();
  return { documents, cars };
}

/** Active accounts whose latest marketing choice is yes. */
export function usersWithMarketingConsent(db: Db) {
  return db
    .selectFrom('users as u')
    .select(['u.id', 'u.email', 'u.full_name'])
    .where('u.deleted_at', 'is', null)
    .where((eb) =>
      eb(
        eb
          .selectFrom('privacy_consents as c')
          .select('c.granted')
          .whereRef('c.user_id', '=', 'u.id')
          .where('c.kind', '=', 'marketing')
          .orderBy('c.recorded_at', 'desc')
          .orderBy('c.id', 'desc')
          .limit(1),
        '=',
        true,
      ),
    )
    .orderBy('u.created_at')
    .execute();
}
