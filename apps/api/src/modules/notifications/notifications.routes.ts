import { emptyEnvelope, envelope, notificationSchema } from '@karoo/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { currentUser, requireUser } from '../../plugins/auth';
import * as notifications from './notifications.service';

const tags = ['Notifications'];
const security = [{ bearerAuth: [] }];

export function notificationsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('preHandler', requireUser);

    app.get('/notifications', {
      schema: { tags, summary: 'Own notifications, newest first', security, response: { 200: envelope(z.array(notificationSchema)) } },
    }, async (request) => ({ success: true as const, data: await notifications.listNotifications(ctx, currentUser(request).id) }));

    app.patch('/notifications/:id/read', {
      schema: { tags, summary: 'Mark one notification read', security, params: z.object({ id: z.uuid({ error: 'Notification not found' }) }), response: { 200: envelope(notificationSchema) } },
    }, async (request) => ({
      success: true as const,
      data: await notifications.markNotificationRead(ctx, currentUser(request).id, request.params.id),
    }));

    app.delete('/notifications', {
      schema: { tags, summary: 'Clear own notifications', security, response: { 200: emptyEnvelope } },
    }, async (request) => {
      await notifications.clearNotifications(ctx, currentUser(request).id);
      return { success: true as const, message: 'Notifications cleared', data: null };
    });
  };
}
