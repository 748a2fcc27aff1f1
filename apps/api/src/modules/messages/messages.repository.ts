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

/** The participant's read marker: every message up to the latest is read. */
export async function markRead(db: Db, bookingId: string, userId: string): Promise<void> {
  const latest = db.selectFrom('booking_messages').where('booking_id', '=', bookingId).select((eb) => eb.fn.coalesce(eb.fn.max('seq'), sql<string>`0`).as('seq'));
  await db
    .insertInto('booking_message_reads')
    .values({ booking_id: bookingId, user_id: userId, read_seq: sql<string>`(${latest})` })
    .onConflict((oc) => oc.columns(['booking_id', 'user_id']).doUpdateSet({ read_seq: sql<string>`GREATEST(booking_message_reads.read_seq, excluded.read_seq)` }))
    .execute();
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
