// HTTP for /api/settings: public read (it feeds the price breakdown), admin write.
import { envelope, settingsSchema, updateSettingsBodySchema } from '@karoo/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context';
import { currentUser, routesFor } from '../../plugins/auth';
import * as settings from './settings.service';

const tags = ['Settings'];

export function settingsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    // ---- Public ----
    app.get('/settings', {
      schema: { tags, summary: 'Platform settings (both shapes)', response: { 200: envelope(settingsSchema) } },
    }, async () => ({ success: true as const, data: await settings.getSettings(ctx) }));

    // ---- Admins ----
    await app.register(routesFor('admin', async (admins) => {
      admins.put('/settings', {
        schema: {
          tags,
          summary: 'Change platform settings (admin); paired keys of the two shapes stay equal',
          body: updateSettingsBodySchema,
          response: { 200: envelope(settingsSchema) },
        },
      }, async (request) => ({
        success: true as const,
        message: 'Settings saved',
        data: await settings.updateSettings(ctx, currentUser(request), request.body),
      }));
    }));
  };
}
