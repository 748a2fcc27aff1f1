// SQL for the audit log: one row per administrator action, listed newest first with filters.
import type { Insertable } from 'kysely';
import type { Db } from '../../db/connection';
import type { AuditLogTable } from '../../db/schema';

export async function insertAuditRow(db: Db, row: Insertable<AuditLogTable>): Promise<void> {
  await db.insertInto('audit_log').values(row).execute();
}

export interface AuditFilters {
  action?: string;
  adminUsername?: string;
  targetType?: string;
  /** A target's id or label (username, car_username, booking number). */
  target?: string;
  limit: number;
  offset: number;
}

function filtered(db: Db, f: AuditFilters) {
  let query = db.selectFrom('audit_log');
  if (f.action) query = query.where('action', '=', f.action);
  if (f.adminUsername) query = query.where('admin_username', '=', f.adminUsername.toLowerCase());
  if (f.targetType) query = query.where('target_type', '=', f.targetType);
  if (f.target) query = query.where((eb) => eb.or([eb('target_id', '=', f.target!), eb('target_label', '=', f.target!)]));
  return query;
}

export function listAuditRows(db: Db, f: AuditFilters) {
  return filtered(db, f).selectAll().orderBy('created_at', 'desc').orderBy('seq', 'desc').limit(f.limit).offset(f.offset).execute();
}

export async function countAuditRows(db: Db, f: AuditFilters): Promise<number> {
  const row = await filtered(db, f).select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
  return Number(row.count);
}
