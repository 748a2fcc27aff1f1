// HTTP for ending a rental: /car/returnCar (owner or admin) and /car/forceReturn (admin). They live
// under /api/car, where api.md puts them, but a return completes a booking: the bookings module's.
import { carSchema, envelope, forceReturnBodySchema, returnCarBodySchema, safeText } from '@karoo/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { currentUser, routesFor } from '../../plugins/auth';
import { viewCar } from '../cars';
import * as returns from './returns.service';

const tags = ['Cars'];
const idParams = z.object({ id: safeText('Id').min(1).max(120) });
const carUsernameParams = z.object({ car_username: safeText('car_username').min(1).max(120) });

export function returnsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(routesFor('signed-in', async (owners) => {
      owners.patch('/car/returnCar/:id', {
        schema: {
          tags,
          summary: 'Mark the current rental returned (owner or admin): the booking completes and the car is available',
          params: idParams,
          body: returnCarBodySchema.nullish().transform((v) => v ?? {}),
          response: { 200: envelope(carSchema) },
        },
      }, async (request) => {
        const viewer = currentUser(request);
        const car = await returns.returnRental(ctx, viewer, request.params.id, request.body);
        return { success: true as const, message: 'Car Successfully Returned', data: viewCar(viewer, car) };
      });
    }));

    await app.register(routesFor('admin', async (admins) => {
      admins.patch('/car/forceReturn/:car_username', {
        schema: {
          tags,
          summary: 'End a rental at once (admin): its started active bookings complete',
          params: carUsernameParams,
          body: forceReturnBodySchema.nullish().transform((v) => v ?? {}),
          response: { 200: envelope(z.object({ affected_bookings: z.number().int(), car: carSchema })) },
        },
      }, async (request) => {
        const viewer = currentUser(request);
        const { affected_bookings, car } = await returns.forceReturn(ctx, viewer, request.params.car_username, request.body.reason);
        return {
          success: true as const,
          message: `Car force returned (${affected_bookings} ${affected_bookings === 1 ? 'booking' : 'bookings'} completed)`,
          data: { affected_bookings, car: viewCar(viewer, car) },
        };
      });
    }));
  };
}
