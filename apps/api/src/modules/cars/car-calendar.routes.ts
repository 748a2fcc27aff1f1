// HTTP for the host's calendar (issue 23, decision 047): the month view, blocks and the buffer. The
// car's owner and admins only; anyone else gets 404, as for any car they cannot manage.
import {
  calendarHoldSchema,
  carCalendarQuerySchema,
  carCalendarSchema,
  createBlockBodySchema,
  emptyEnvelope,
  envelope,
  safeText,
  updateBufferBodySchema,
} from '@karoo/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { currentUser, routesFor } from '../../plugins/auth';
import * as calendar from './car-calendar.service';

const tags = ['Cars'];
const idParams = z.object({ id: safeText('Id').min(1).max(120) });

export function carCalendarRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(routesFor('signed-in', async (hosts) => {
      hosts.get('/car/:id/calendar', {
        schema: {
          tags,
          summary: "The host's calendar of a car (owner or admin): its trips and blocks from `from` (today) to `to`, each with the range it holds, and the buffer",
          params: idParams,
          querystring: carCalendarQuerySchema,
          response: { 200: envelope(carCalendarSchema) },
        },
      }, async (request) => ({
        success: true as const,
        data: await calendar.carCalendar(ctx, currentUser(request), request.params.id, request.query.from, request.query.to),
      }));

      hosts.post('/car/:id/blocks', {
        schema: {
          tags,
          summary: 'Block whole days (no times) or some hours of a car, with an optional private note; 409 over a trip or another block',
          params: idParams,
          body: createBlockBodySchema,
          response: { 201: envelope(calendarHoldSchema) },
        },
      }, async (request, reply) => {
        const block = await calendar.createBlock(ctx, currentUser(request), request.params.id, request.body);
        return reply.code(201).send({ success: true as const, message: 'Blocked', data: block });
      });

      hosts.delete('/car/:id/blocks/:blockId', {
        schema: {
          tags,
          summary: 'Unblock: remove one of the car\'s blocks',
          params: idParams.extend({ blockId: safeText('blockId').min(1).max(60) }),
          response: { 200: emptyEnvelope },
        },
      }, async (request) => {
        await calendar.deleteBlock(ctx, currentUser(request), request.params.id, request.params.blockId);
        return { success: true as const, message: 'Unblocked', data: null };
      });

      hosts.patch('/car/:id/buffer', {
        schema: {
          tags,
          summary: 'The minutes kept free after every trip of this car (0 to 1440), for trips booked from now on',
          params: idParams,
          body: updateBufferBodySchema,
          response: { 200: envelope(z.object({ buffer_minutes: z.number().int() })) },
        },
      }, async (request) => ({
        success: true as const,
        message: 'Buffer saved',
        data: await calendar.updateBuffer(ctx, currentUser(request), request.params.id, request.body.buffer_minutes),
      }));
    }));
  };
}
