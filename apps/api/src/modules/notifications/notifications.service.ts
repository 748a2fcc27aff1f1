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
import { recordLiveEvent } from './live-events';
import * as repo from './notifications.repository';

interface NoticeText {
  type: string;
  title: string;
  message: string;
  link?: string | null;
}

/**
 * A notice says what it is about, because an erasure finds the notices that can name a person by
 * it (migration 0043, decision 082): `booking`, the booking it is about (its email also names the
 * booking number, the car and the dates, bookingLine; the booking's record or its id to read them
 * by), or `aboutRecipientOnly` for a notice that names nobody but the person it goes to (their
 * account, their car, their payout). A notice that names another person is always about a booking
 * of the two; the type makes every caller choose.
 */
export type NewNotification = NoticeText & ({ booking: BookingMention | { id: string }; aboutRecipientOnly?: never } | { booking?: never; aboutRecipientOnly: true });

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
  const bookingId = input.booking?.id ?? null;
  await repo.insertNotification(tx.db, { user_id: userId, type: input.type, title: input.title, message: input.message, link: input.link ?? null, booking_id: bookingId }, tx.now);
  await recordLiveEvent(ctx, tx, [userId], { kind: 'notification', bookingId });
  const user = await findUserIn(tx.db, userId);
  if (!user || user.deleted_at) return;
  if (options.email !== 'always' && !(await getSettings(ctx, tx.db)).emailNotifications) return;
  const booking = input.booking && !('booking_number' in input.booking) ? await repo.findBookingMention(tx.db, input.booking.id) : input.booking;
  const mail = await renderMail({
    greeting: `Hi ${user.full_name},`,
    paragraphs: booking ? [bookingLine(booking), input.message] : [input.message],
    ...(input.link ? { action: { label: 'Open Karoo', url: `${ctx.env.APP_URL}${input.link}` } } : {}),
  });
  await queueMail(ctx, tx, { to: user.email, subject: booking ? bookingSubject(input.title, booking) : input.title, userId, bookingId, ...mail });
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
