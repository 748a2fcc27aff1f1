// SQL of booking conversations: messages (append only), each participant's read marker and last
// email, and reports of a message. Only this module writes these tables.
import { sql } from 'kysely';
import type { Db } from '../../db/connection';

export interface MessageRecord {
  id: string;
  seq: string;
  booking_id: string;
  sender_id: string;
  sender_username: string;
  sender_full_name: string;
  body: string;
  created_at: Date;
}

export function listMessages(db: Db, bookingId: string): Promise<MessageRecord[]> {
  return db
    .selectFrom('booking_messages as m')
    .innerJoin('users as u', 'u.id', 'm.sender_id')
    .where('m.booking_id', '=', bookingId)
    .orderBy('m.seq')
    .select(['m.id', 'm.seq', 'm.booking_id', 'm.sender_id', 'u.username as sender_username', 'u.full_name as sender_full_name', 'm.body', 'm.created_at'])
    .execute();
}

export async function insertMessage(db: Db, values: { booking_id: string; sender_id: string; body: string }, now: Date): Promise<string> {
  const row = await db.insertInto('booking_messages').values({ ...values, created_at: now }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export function findMessage(db: Db, id: string) {
  return db.selectFrom('booking_messages').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Messages the sender wrote since `since`, in any conversation (the rate limit). */
export async function countSentSince(db: Db, senderId: string, since: Date): Promise<number> {
  const row = await db
    .selectFrom('booking_messages')
    .where('sender_id', '=', senderId)
    .where('created_at', '>', since)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Serialises one sender's posts for the rest of the transaction, so two requests on two instances
 * cannot both read "9 sent" and both write the tenth.
 */
export async function lockSender(db: Db, senderId: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext(${`booking_messages:${senderId}`}))`.execute(db);
}

/** The participant's read marker: every message up to the latest is read. True when the marker moved (or was first set). */
export async function markRead(db: Db, bookingId: string, userId: string): Promise<boolean> {
  const latest = db.selectFrom('booking_messages').where('booking_id', '=', bookingId).select((eb) => eb.fn.coalesce(eb.fn.max('seq'), sql<string>`0`).as('seq'));
  const result = await db
    .insertInto('booking_message_reads')
    .values({ booking_id: bookingId, user_id: userId, read_seq: sql<string>`(${latest})` })
    .onConflict((oc) =>
      oc
        .columns(['booking_id', 'user_id'])
        .doUpdateSet({ read_seq: sql<string>`excluded.read_seq` })
        .where(sql<boolean>`booking_message_reads.read_seq < excluded.read_seq`),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Unread messages per booking for a user: those the other participant wrote after the user's marker. */
export async function unreadByBooking(db: Db, userId: string, bookingId?: string): Promise<{ booking_id: string; unread: number }[]> {
  let query = db
    .selectFrom('booking_messages as m')
    .innerJoin('bookings as b', 'b.id', 'm.booking_id')
    .leftJoin('booking_message_reads as r', (join) => join.onRef('r.booking_id', '=', 'm.booking_id').on('r.user_id', '=', userId))
    .where((eb) => eb.or([eb('b.renter_id', '=', userId), eb('b.owner_id', '=', userId)]))
    .where('m.sender_id', '<>', userId)
    .where((eb) => eb('m.seq', '>', eb.fn.coalesce('r.read_seq', sql<string>`0`)))
    .groupBy('m.booking_id')
    .select((eb) => ['m.booking_id', eb.fn.countAll<string>().as('unread')]);
  if (bookingId) query = query.where('m.booking_id', '=', bookingId);
  const rows = await query.execute();
  return rows.map((r) => ({ booking_id: r.booking_id, unread: Number(r.unread) }));
}

/**
 * Claims the right to email `userId` about this conversation: true (and the moment recorded) when
 * they were never emailed about it or last emailed before `notSince`. One statement, so two
 * instances cannot both claim it.
 */
export async function claimEmail(db: Db, bookingId: string, userId: string, now: Date, notSince: Date): Promise<boolean> {
  const row = await db
    .insertInto('booking_message_reads')
    .values({ booking_id: bookingId, user_id: userId, emailed_at: now })
    .onConflict((oc) =>
      oc
        .columns(['booking_id', 'user_id'])
        .doUpdateSet({ emailed_at: now })
        .where((eb) => eb.or([eb('booking_message_reads.emailed_at', 'is', null), eb('booking_message_reads.emailed_at', '<', notSince)])),
    )
    .returning('booking_id')
    .executeTakeFirst();
  return !!row;
}

export async function insertReport(db: Db, values: { message_id: string; reporter_id: string; reason: string }, now: Date) {
  return db.insertInto('booking_message_reports').values({ ...values, created_at: now }).returningAll().executeTakeFirstOrThrow();
}

export interface ReportFilters {
  /** A booking number, or part of the reporter's or the sender's username. */
  search?: string;
}

/** Open reports with their booking, reporter and message, as a base query to page or count. */
function openReports(db: Db, filters: ReportFilters) {
  let query = db
    .selectFrom('booking_message_reports as r')
    .innerJoin('booking_messages as m', 'm.id', 'r.message_id')
    .innerJoin('bookings as b', 'b.id', 'm.booking_id')
    .innerJoin('users as reporter', 'reporter.id', 'r.reporter_id')
    .innerJoin('users as sender', 'sender.id', 'm.sender_id')
    .where('r.resolved_at', 'is', null);
  if (filters.search) {
    // LIKE wildcards in the search are matched literally.
    const like = `%${filters.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where((eb) =>
      eb.or([eb(sql`lower(b.booking_number)`, 'like', like), eb(sql`lower(reporter.username)`, 'like', like), eb(sql`lower(sender.username)`, 'like', like)]),
    );
  }
  return query;
}

const REPORT_COLUMNS = [
  'r.id',
  'r.reason',
  'r.created_at',
  'r.resolved_at',
  'r.resolution_note',
  'r.reporter_id',
  'reporter.username as reporter_username',
  'm.id as message_id',
  'm.body as message_body',
  'm.created_at as message_created_at',
  'm.sender_id',
  'sender.username as sender_username',
  'sender.full_name as sender_full_name',
  'b.id as booking_id',
  'b.booking_number',
] as const;

function withReportCount(query: ReturnType<typeof openReports>) {
  return query.select(REPORT_COLUMNS).select((eb) =>
    eb.selectFrom('booking_message_reports as all_reports').whereRef('all_reports.message_id', '=', 'm.id').select((inner) => inner.fn.countAll<string>().as('n')).as('report_count'),
  );
}

/** One page of open reports, newest first (the id breaks ties, so pages never overlap). */
export function listOpenReports(db: Db, filters: ReportFilters, page: { limit: number; offset: number }) {
  return withReportCount(openReports(db, filters)).orderBy('r.created_at', 'desc').orderBy('r.id', 'desc').limit(page.limit).offset(page.offset).execute();
}

export async function countOpenReports(db: Db, filters: ReportFilters): Promise<number> {
  const row = await openReports(db, filters).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

export type ReportRecord = Awaited<ReturnType<typeof listOpenReports>>[number];

/** A report, open or handled, with what the list shows of it. */
export function findReport(db: Db, id: string): Promise<ReportRecord | undefined> {
  const query = db
    .selectFrom('booking_message_reports as r')
    .innerJoin('booking_messages as m', 'm.id', 'r.message_id')
    .innerJoin('bookings as b', 'b.id', 'm.booking_id')
    .innerJoin('users as reporter', 'reporter.id', 'r.reporter_id')
    .innerJoin('users as sender', 'sender.id', 'm.sender_id')
    .where('r.id', '=', id);
  return withReportCount(query).executeTakeFirst();
}

/** Marks an open report handled; false when it already was (the conditional update decides who wins). */
export async function resolveReport(db: Db, id: string, adminId: string, note: string, now: Date): Promise<boolean> {
  const row = await db
    .updateTable('booking_message_reports')
    .set({ resolved_by: adminId, resolved_at: now, resolution_note: note })
    .where('id', '=', id)
    .where('resolved_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return !!row;
}

/** Every administrator with an open account: each is told when a message is reported. */
export async function findAdminIds(db: Db): Promise<string[]> {
  const rows = await db.selectFrom('users').where('role', '=', 'admin').where('deleted_at', 'is', null).select('id').execute();
  return rows.map((r) => r.id);
}
