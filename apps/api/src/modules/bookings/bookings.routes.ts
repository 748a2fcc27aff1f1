// HTTP for /api/booking: creating a booking and reading one. The rest of the booking lifecycle
// (lists, approve/reject, cancel, pay) builds on the same table and mapper.
import { bookingSchema, createBookingBodySchema, envelope } from '@karoo/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { currentUser, requireUser } from '../../plugins/auth';
import { toBooking } from './bookings.mapper';
import * as bookings from './bookings.service';

const tags = ['Bookings'];
const security = [{ bearerAuth: [] }];

export function bookingsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post('/booking/create', {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Request a booking (verified users, not on their own car); the server computes the price',
        security,
        body: createBookingBodySchema,
        response: { 201: envelope(bookingSchema) },
      },
    }, async (request, reply) => {
      const booking = toBooking(await bookings.createBooking(ctx, currentUser(request), request.body));
      const kind = booking.is_hourly_booking ? 'Hourly' : 'Daily';
      return reply.status(201).send({
        success: true,
        message: booking.status === 'confirmed' ? `${kind} booking confirmed!` : `${kind} Booking Request Sent!`,
        data: booking,
      });
    });

    app.get('/booking/:id', {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'One booking (its renter, the car owner or an admin)',
        security,
        params: z.object({ id: z.string().min(1).max(100) }),
        response: { 200: envelope(bookingSchema) },
      },
    }, async (request) => ({
      success: true as const,
      data: toBooking(await bookings.findVisibleBooking(ctx, currentUser(request), request.params.id)),
    }));
  };
}
