// HTTP for trip changes (decision 081): the quote, the renter's request and withdrawal, the host's answer, the list.
import { envelope, safeText, tripChangeAnswerSchema, tripChangeQuoteSchema, tripChangeRequestSchema, tripChangeSchema, tripChangeTimesSchema } from '@karoo/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { currentUser, routesFor } from '../../plugins/auth';
import * as changes from './trip-changes';

const tags = ['Trip changes'];
const idParams = z.object({ id: safeText('Id').min(1).max(100) });

export function tripChangesRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(routesFor('signed-in', async (signedIn) => {
      signedIn.get('/booking/:id/change-quote', {
        schema: {
          tags,
          summary: 'What new dates or times of this paid trip would cost or give back (the renter), part by part, and whether they can be asked for; the same figures bind the request',
          params: idParams,
          querystring: tripChangeTimesSchema,
          response: { 200: envelope(tripChangeQuoteSchema) },
        },
      }, async (request) => ({ success: true as const, data: await changes.quoteChange(ctx, currentUser(request), request.params.id, request.query) }));

      signedIn.get('/booking/:id/changes', {
        schema: { tags, summary: 'The change requests of a booking, newest first (its renter, its host, administrators)', params: idParams, response: { 200: envelope(z.array(tripChangeSchema)) } },
      }, async (request) => ({ success: true as const, data: await changes.listChanges(ctx, currentUser(request), request.params.id) }));

      signedIn.post('/booking/:id/changes', {
        schema: {
          tags,
          summary: 'Ask to change a paid trip (the renter): new dates and times; the host answers within 8 hours or before the start; accepted at once where the car has instant booking for the renter',
          params: idParams,
          body: tripChangeRequestSchema,
          response: { 200: envelope(tripChangeSchema) },
        },
      }, async (request) => {
        const data = await changes.requestChange(ctx, currentUser(request), request.params.id, request.body);
        const message = data.status === 'accepted' ? 'Your trip has been changed.' : data.status === 'failed' ? `The change could not be made. ${data.failure ?? ''}`.trim() : 'Your change request has been sent to the host.';
        return { success: true as const, message, data };
      });

      signedIn.patch('/booking/changes/:id/accept', {
        schema: { tags, summary: 'Accept a change request (the host): the difference is charged or refunded and the trip takes its new times', params: idParams, body: tripChangeAnswerSchema.nullish(), response: { 200: envelope(tripChangeSchema) } },
      }, async (request) => {
        const data = await changes.acceptChange(ctx, currentUser(request), request.params.id, request.body?.note);
        return { success: true as const, message: data.status === 'accepted' ? 'The trip has been changed.' : `The change could not be made. ${data.failure ?? ''}`.trim(), data };
      });

      signedIn.patch('/booking/changes/:id/decline', {
        schema: { tags, summary: 'Decline a change request (the host): the trip stays as it was', params: idParams, body: tripChangeAnswerSchema.nullish(), response: { 200: envelope(tripChangeSchema) } },
      }, async (request) => ({ success: true as const, message: 'The change was declined; the trip stays as it was.', data: await changes.declineChange(ctx, currentUser(request), request.params.id, request.body?.note) }));

      signedIn.patch('/booking/changes/:id/withdraw', {
        schema: { tags, summary: 'Withdraw a change request still waiting (the renter)', params: idParams, response: { 200: envelope(tripChangeSchema) } },
      }, async (request) => ({ success: true as const, message: 'Your change request was withdrawn.', data: await changes.withdrawChange(ctx, currentUser(request), request.params.id) }));
    }));
  };
}

