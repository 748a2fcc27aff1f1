// SQL for a user's own notifications: the newest first, marking one read, clearing them all.
import type { Db } from '../../db/connection';
import type { NotificationRow } from '../../db/schema';
import type { BookingMention } from './notice-words';

/** Notifications that share an instant keep the order they were written in (seq). */
export function listUserNotifications(db: Db, userId: string, limit: number): Promise<NotificationRow[]> {
  return db
    .selectFrom('notifications')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('seq', 'desc')
    .limit(limit)
    .execute();
}

/** Marks one of the user's notifications read; undefined when the user has no such notification. */
export function markUserNotificationRead(db: Db, userId: string, id: string): Promise<NotificationRow | undefined> {
  return db
    .updateTable('notifications')
    .set({ read: true })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteUserNotifications(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('notifications').where('user_id', '=', userId).execute();
}

export async function insertNotification(
  db: Db,
  notification: { user_id: string; type: string; title: string; message: string; link: string | null; booking_id: string | null },
  now: Date,
): Promise<void> {
  await db.insertInto('notifications').values({ ...notification, reach_recorded: true, created_at: now }).execute();
}

/** What a booking email names of its booking (read only: the bookings and cars modules own the rows). */
export function findBookingMention(db: Db, bookingId: string): Promise<BookingMention | undefined> {
  return db
    .selectFrom('bookings as b')
    .innerJoin('cars as c', 'c.id', 'b.car_id')
    .select(['b.id', 'b.booking_number', 'b.start_date', 'b.end_date', 'b.start_time', 'b.end_time', 'c.car_make', 'c.car_model', 'c.car_year'])
    .where('b.id', '=', bookingId)
    .executeTakeFirst();
}
