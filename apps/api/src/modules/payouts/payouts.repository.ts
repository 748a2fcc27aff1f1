// SQL of the payouts module's own tables (migration 0038): hosts' payout accounts and the transfers.
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../../db/connection';
import type { HostPayoutAccountsTable, PayoutTransfersTable, TransferBooking } from './payouts.tables';

export type PayoutAccountRow = Selectable<HostPayoutAccountsTable>;
export type TransferRow = Selectable<PayoutTransfersTable>;

export function findAccount(db: Db, hostId: string): Promise<PayoutAccountRow | undefined> {
  return db.selectFrom('host_payout_accounts').selectAll().where('host_id', '=', hostId).executeTakeFirst();
}

export function findAccounts(db: Db, hostIds?: readonly string[]): Promise<PayoutAccountRow[]> {
  let query = db.selectFrom('host_payout_accounts').selectAll();
  if (hostIds) {
    if (hostIds.length === 0) return Promise.resolve([]);
    query = query.where('host_id', 'in', [...hostIds]);
  }
  return query.execute();
}

export async function saveAccount(db: Db, row: Insertable<HostPayoutAccountsTable>): Promise<void> {
  await db
    .insertInto('host_payout_accounts')
    .values(row)
    .onConflict((oc) =>
      oc.column('host_id').doUpdateSet({
        bank_code: row.bank_code,
        bank_name: row.bank_name,
        account_number: row.account_number,
        account_name: row.account_name,
        recipient_code: row.recipient_code,
        confirmed_at: row.confirmed_at,
        hold_until: row.hold_until ?? null,
        updated_at: row.updated_at,
      }),
    )
    .execute();
}

export async function updateAccount(db: Db, hostId: string, set: Updateable<HostPayoutAccountsTable>): Promise<boolean> {
  const row = await db.updateTable('host_payout_accounts').set(set).where('host_id', '=', hostId).returning('host_id').executeTakeFirst();
  return row !== undefined;
}

/** A new transfer of a run; undefined when the run already made one (its run key is taken). */
export function insertTransfer(
  db: Db,
  row: Omit<Insertable<PayoutTransfersTable>, 'bookings' | 'state'> & { bookings: TransferBooking[] },
): Promise<TransferRow | undefined> {
  return db
    .insertInto('payout_transfers')
    .values({ ...row, state: 'queued', bookings: JSON.stringify(row.bookings) })
    .onConflict((oc) => oc.doNothing())
    .returningAll()
    .executeTakeFirst();
}

export function findTransfer(db: Db, id: string): Promise<TransferRow | undefined> {
  return db.selectFrom('payout_transfers').selectAll().where('id', '=', id).executeTakeFirst();
}

export function lockTransferByReference(db: Db, reference: string): Promise<TransferRow | undefined> {
  return db.selectFrom('payout_transfers').selectAll().where('reference', '=', reference).forUpdate().executeTakeFirst();
}

export async function setTransfer(db: Db, id: string, set: Updateable<PayoutTransfersTable>): Promise<void> {
  await db.updateTable('payout_transfers').set(set).where('id', '=', id).execute();
}

export function transfersOfHost(db: Db, hostId: string, limit = 100): Promise<TransferRow[]> {
  return db.selectFrom('payout_transfers').selectAll().where('host_id', '=', hostId).orderBy('created_at', 'desc').limit(limit).execute();
}

export function latestTransfers(db: Db, limit = 100): Promise<TransferRow[]> {
  return db.selectFrom('payout_transfers').selectAll().orderBy('created_at', 'desc').limit(limit).execute();
}

/** Transfers whose outcome is still to be read: queued (to send again), waiting, sent, or paid within the days a bank may still return it. */
export function openTransfers(db: Db, paidSince: Date): Promise<TransferRow[]> {
  return db
    .selectFrom('payout_transfers')
    .selectAll()
    .where((eb) => eb.or([eb('state', 'in', ['queued', 'pending']), eb.and([eb('state', '=', 'success'), eb('settled_at', '>=', paidSince)])]))
    .orderBy('created_at')
    .limit(500)
    .execute();
}

/** The ids of failed or reversed transfers already sent again (a later transfer names them). */
export async function retriedIds(db: Db, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('payout_transfers').select('retry_of').where('retry_of', 'in', [...ids]).execute();
  return new Set(rows.map((r) => r.retry_of!));
}

/** A failed or reversed transfer of this host not sent again yet: the job waits for an administrator's Retry (or a new account). */
export function unresolvedReturn(db: Db, hostId: string): Promise<TransferRow | undefined> {
  return db
    .selectFrom('payout_transfers as t')
    .selectAll('t')
    .where('t.host_id', '=', hostId)
    .where('t.state', 'in', ['failed', 'reversed'])
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('payout_transfers as r').select('r.id').whereRef('r.retry_of', '=', 't.id'))))
    .orderBy('t.created_at', 'desc')
    .executeTakeFirst();
}

export function usernames(db: Db, ids: readonly string[]): Promise<{ id: string; username: string; full_name: string; email: string }[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('users').select(['id', 'username', 'full_name', 'email']).where('id', 'in', [...new Set(ids)]).execute();
}
