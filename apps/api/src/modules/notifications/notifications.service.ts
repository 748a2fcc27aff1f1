// Server-kept notifications (decisions.md section 3), mailed as well when the settings'
// emailNotifications is on. Both are written in the transaction of the change that causes them;
// the mail worker sends the email after the commit. Without SMTP_URL the message stays in the
// outbox (nothing leaves the server), so "mail is configured" is the mailer's own concern.
import type { Notification } from '@karoo/shared';
import type { AppContext } from '../../context';
import type { NotificationRow } from '../../db/schema';
import { notFound } from '../../lib/app-error';
import type { EventOf, Tx } from '../../events/domain-events';
import { queueMail, renderMail } from '../../lib/mail';
import { getSettings } from '../settings';
import { findUserIn } from '../users';
import { bookingLine, bookingSubject, type BookingMention } from './notice-words';
import * as repo from './notifications.repository';

export interface NewNotification {
  type: string;
  title: string;
  message: string;
  link?: string | null;
  /**
   * The booking the notice is about: its email names the booking number, the car and the dates
   * (bookingLine) and its subject the number. The booking's record, or its id to read them by.
   */
  booking?: BookingMention | { id: string };
}

export function toNotification(row: NotificationRow): Notification {
  return {
    id: row.id,
    type: row.type,
    title: row.title,
    message: row.message,
    link: row.link,
    read: row.read,
    createdAt: new Date(row.created_at).toISOString(),
  };
}

export interface NotifyOptions {
  /**
   * 'settings' (the default): emailed when emailNotifications is on. 'always': notices the law asks
   * to reach the person whatever the setting (a security compromise, POPIA s. 22; documents deleted).
   */
  email?: 'settings' | 'always';
}

/**
 * Records a notification for a user and, when emailNotifications is on (or `options.email` is
 * 'always'), queues the same event by email, both in the change's transaction `tx`.
 */
export async function notify(ctx: AppContext, tx: Tx, userId: string, input: NewNotification, options: NotifyOptions = {}): Promise<void> {
  await repo.insertNotification(tx.db, { user_id: userId, type: input.type, title: input.title, message: input.message, link: input.link ?? null }, tx.now);
  const user = await findUserIn(tx.db, userId);
  if (!user || user.deleted_at) return;
  if (options.email !== 'always' && !(await getSettings(ctx, tx.db)).emailNotifications) return;
  const booking = input.booking && !('booking_number' in input.booking) ? await repo.findBookingMention(tx.db, input.booking.id) : input.booking;
  const mail = await renderMail({
    greeting: `Hi ${user.full_name},`,
    paragraphs: booking ? [bookingLine(booking), input.message] : [input.message],
    ...(input.link ? { action: { label: 'Open Karoo', url: `${ctx.env.APP_URL}${input.link}` } } : {}),
  });
  await queueMail(ctx, tx, { to: user.email, subject: booking ? bookingSubject(input.title, booking) : input.title, ...mail });
}

/** The list shows the latest notifications only. */
const NOTIFICATION_LIST_LIMIT = 100;

export async function listNotifications(ctx: AppContext, userId: string): Promise<Notification[]> {
  const rows = await repo.listUserNotifications(ctx.db, userId, NOTIFICATION_LIST_LIMIT);
  return rows.map(toNotification);
}

export async function markNotificationRead(ctx: AppContext, userId: string, id: string): Promise<Notification> {
  const row = await repo.markUserNotificationRead(ctx.db, userId, id);
  if (!row) throw notFound('Notification not found');
  return toNotification(row);
}

export async function clearNotifications(ctx: AppContext, userId: string): Promise<void> {
  await repo.deleteUserNotifications(ctx.db, userId);
}

/** An account closed: its notifications go, in the closing transaction (user.deleted's subscriber). */
export async function deleteNotificationsOf(tx: Tx, { user }: EventOf<'user.deleted'>): Promise<void> {
  await repo.deleteUserNotifications(tx.db, user.id);
}
