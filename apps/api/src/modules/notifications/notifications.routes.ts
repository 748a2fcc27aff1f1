// HTTP for /api/notifications: the signed-in user's own notifications.
import { emptyEnvelope, envelope, notificationSchema } from '@karoo/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { currentUser, routesFor } from '../../plugins/auth';
import * as notifications from './notifications.service';

const tags = ['Notifications'];

export function notificationsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  // ---- Signed-in: one's own notifications ----
  return routesFor('signed-in', async (app) => {
    app.get('/notifications', {
      schema: { tags, summary: 'Own notifications, newest first', response: { 200: envelope(z.array(notificationSchema)) } },
    }, async (request) => ({ success: true as const, data: await notifications.listNotifications(ctx, currentUser(request).id) }));

    app.patch('/notifications/:id/read', {
      schema: { tags, summary: 'Mark one notification read', params: z.object({ id: z.uuid({ error: 'Notification not found' }) }), response: { 200: envelope(notificationSchema) } },
    }, async (request) => ({
      success: true as const,
      data: await notifications.markNotificationRead(ctx, currentUser(request).id, request.params.id),
    }));

    app.delete('/notifications', {
      schema: { tags, summary: 'Clear own notifications', response: { 200: emptyEnvelope } },
    }, async (request) => {
      await notifications.clearNotifications(ctx, currentUser(request).id);
      return { success: true as const, message: 'Notifications cleared', data: null };
    });
  });
}
