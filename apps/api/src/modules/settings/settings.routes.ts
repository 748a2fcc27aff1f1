// HTTP for /api/settings: public read (it feeds the price breakdown), admin write.
import { envelope, settingsSchema, updateSettingsBodySchema } from '@karoo/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context';
import { currentUser, requireAdmin } from '../../plugins/auth';
import * as settings from './settings.service';

const tags = ['Settings'];

export function settingsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/settings', {
      schema: { tags, summary: 'Platform settings (both shapes)', response: { 200: envelope(settingsSchema) } },
    }, async () => ({ success: true as const, data: await settings.getSettings(ctx) }));

    app.put('/settings', {
      preHandler: requireAdmin,
      schema: {
        tags,
        summary: 'Change platform settings (admin); paired keys of the two shapes stay equal',
        security: [{ bearerAuth: [] }],
        body: updateSettingsBodySchema,
        response: { 200: envelope(settingsSchema) },
      },
    }, async (request) => ({
      success: true as const,
      message: 'Settings saved',
      data: await settings.updateSettings(ctx, currentUser(request), request.body),
    }));
  };
}
