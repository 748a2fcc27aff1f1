// SQL for trip records, their photos and disputes. Rows are only ever inserted (the database
// refuses UPDATE and DELETE on records and photos); a dispute is updated once, to resolve it.
import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../db/connection';
import type { TripDisputesTable, TripPhotosTable, TripRecordsTable } from './trips.tables';

export type TripRecordRow = Selectable<TripRecordsTable> & { author_username: string };
export type TripDisputeRow = Selectable<TripDisputesTable> & { opened_by_username: string; booking_number: string };
export type TripPhotoRow = Selectable<TripPhotosTable>;

export function insertRecord(db: Db, row: Insertable<TripRecordsTable>) {
  return db.insertInto('trip_records').values(row).returning('id').executeTakeFirstOrThrow();
}

export function insertDispute(db: Db, row: Insertable<TripDisputesTable>) {
  return db.insertInto('trip_disputes').values(row).returning('id').executeTakeFirstOrThrow();
}

export async function insertPhotos(db: Db, rows: Insertable<TripPhotosTable>[]): Promise<void> {
  if (rows.length > 0) await db.insertInto('trip_photos').values(rows).execute();
}

export function findRecords(db: Db, bookingId: string): Promise<TripRecordRow[]> {
  return db
    .selectFrom('trip_records as r')
    .innerJoin('users as u', 'u.id', 'r.author_id')
    .selectAll('r')
    .select('u.username as author_username')
    .where('r.booking_id', '=', bookingId)
    .orderBy('r.created_at')
    .execute();
}

function disputes(db: Db) {
  return db
    .selectFrom('trip_disputes as d')
    .innerJoin('users as u', 'u.id', 'd.opened_by')
    .innerJoin('bookings as b', 'b.id', 'd.booking_id')
    .selectAll('d')
    .select(['u.username as opened_by_username', 'b.booking_number']);
}

export function findDisputesOfBooking(db: Db, bookingId: string): Promise<TripDisputeRow[]> {
  return disputes(db).where('d.booking_id', '=', bookingId).orderBy('d.created_at').execute();
}

export function findOpenDisputes(db: Db): Promise<TripDisputeRow[]> {
  return disputes(db).where('d.status', '=', 'open').orderBy('d.created_at').limit(200).execute();
}

export function findDispute(db: Db, id: string): Promise<TripDisputeRow | undefined> {
  return disputes(db).where('d.id', '=', id).executeTakeFirst();
}

export function findPhotosOfBooking(db: Db, bookingId: string): Promise<TripPhotoRow[]> {
  return db.selectFrom('trip_photos').selectAll().where('booking_id', '=', bookingId).orderBy('position').execute();
}

export function findPhotosOfDisputes(db: Db, disputeIds: readonly string[]): Promise<TripPhotoRow[]> {
  if (disputeIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('trip_photos').selectAll().where('dispute_id', 'in', [...disputeIds]).orderBy('position').execute();
}

export function findPhoto(db: Db, id: string): Promise<TripPhotoRow | undefined> {
  return db.selectFrom('trip_photos').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Resolves an open dispute; undefined when it was resolved meanwhile (the conditional update decides). */
export function resolveDispute(db: Db, id: string, by: string, note: string, at: Date) {
  return db
    .updateTable('trip_disputes')
    .set({ status: 'resolved', resolved_by: by, resolved_at: at, resolution_note: note })
    .where('id', '=', id)
    .where('status', '=', 'open')
    .returning('id')
    .executeTakeFirst();
}
