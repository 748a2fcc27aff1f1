// Server-kept notifications (decisions.md section 3), mailed as well when the settings'
// emailNotifications is on. Without SMTP_URL the mailer only records the message in the outbox
// (nothing leaves the server), so "mail is configured" is the mailer's own concern.
import type { Notification } from '@karoo/shared';
import type { AppContext } from '../../context';
import type { NotificationRow } from '../../db/schema';
import { notFound } from '../../lib/app-error';
import { renderMail } from '../../lib/mail';
import { getSettings } from '../settings/settings.service';

export interface NewNotification {
  type: string;
  title: string;
  message: string;
  link?: string | null;
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

/** Records a notification for a user and, when emailNotifications is on, sends the same event by email. */
export async function notify(ctx: AppContext, userId: string, input: NewNotification): Promise<void> {
  const user = await ctx.db
    .insertInto('notifications')
    .values({ user_id: userId, type: input.type, title: input.title, message: input.message, link: input.link ?? null, created_at: ctx.clock.now() })
    .returning('user_id')
    .executeTakeFirstOrThrow()
    .then(() => ctx.db.selectFrom('users').select(['email', 'full_name', 'deleted_at']).where('id', '=', userId).executeTakeFirst());
  if (!user || user.deleted_at) return;
  if (!(await getSettings(ctx)).emailNotifications) return;
  const mail = renderMail({
    greeting: `Hi ${user.full_name},`,
    paragraphs: [input.message],
    ...(input.link ? { action: { label: 'Open Karoo', url: `${ctx.env.APP_URL}${input.link}` } } : {}),
  });
  await ctx.mailer.send({ to: user.email, subject: input.title, ...mail });
}

export async function listNotifications(ctx: AppContext, userId: string): Promise<Notification[]> {
  const rows = await ctx.db
    .selectFrom('notifications')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('seq', 'desc')
    .limit(100)
    .execute();
  return rows.map(toNotification);
}

export async function markNotificationRead(ctx: AppContext, userId: string, id: string): Promise<Notification> {
  const row = await ctx.db
    .updateTable('notifications')
    .set({ read: true })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .returningAll()
    .executeTakeFirst();
  if (!row) throw notFound('Notification not found');
  return toNotification(row);
}

export async function clearNotifications(ctx: AppContext, userId: string): Promise<void> {
  await ctx.db.deleteFrom('notifications').where('user_id', '=', userId).execute();
}
