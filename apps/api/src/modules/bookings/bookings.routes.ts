// HTTP for /api/booking: creating, reading and listing bookings, and every status change of the
// machine (decisions.md section 5). Payment lives in modules/payments.
import {
  BOOKING_STATUSES,
  bookingListMetaSchema,
  bookingListQuerySchema,
  bookingSchema,
  bookingScopeQuerySchema,
  bookingStatsSchema,
  bookingStatusBodySchema,
  cancelBookingBodySchema,
  createBookingBodySchema,
  type CancelBookingBody,
  envelope,
  hostResponseBodySchema,
  instantEligibilitySchema,
  safeText,
} from '@karoo/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { currentUser, routesFor } from '../../plugins/auth';
import type { UserRow } from '../../db/schema';
import { createBookingAnswers, type LedgerOf } from './booking-answers';
import type { BookingRecord } from './bookings.repository';
import { toBooking } from './bookings.mapper';
import { returnsRoutes } from './returns.routes';
import * as bookings from './bookings.service';
import { instantEligibility } from './instant-booking';

const tags = ['Bookings'];
const idParams = z.object({ id: safeText('Id').min(1).max(100) });
const bookingList = envelope(z.array(bookingSchema));
const statusQuery = z.object({ status: z.string().trim().toLowerCase().pipe(z.enum(BOOKING_STATUSES)).optional() });

const STATUS_MESSAGES: Record<string, string> = {
  confirmed: 'Booking Confirmed',
  rejected: 'Booking Rejected',
  cancelled: 'Booking Cancelled',
  completed: 'Booking Completed',
};

/** What the bookings routes need from modules above them, passed in by app.ts. */
export interface BookingsRoutesDeps {
  /** The payments module's refunds and ledger sums of each booking, for the answers. */
  ledgerOf: LedgerOf;
  /** The payments module's cancellation of a paid trip by the policy (its refund, fee and penalty). */
  cancelPaidTrip: (ctx: AppContext, viewer: UserRow, idOrNumber: string, body: CancelBookingBody | null | undefined) => Promise<BookingRecord>;
}

export function bookingsRoutes(ctx: AppContext, { ledgerOf, cancelPaidTrip }: BookingsRoutesDeps): FastifyPluginAsyncZod {
  const { toBookingAnswer, toBookingAnswers } = createBookingAnswers(ledgerOf);
  // ---- Signed-in: renters, car owners and admins; the service decides which booking is whose ----
  const signedIn = routesFor('signed-in', async (app) => {
    app.post('/booking/create', {
      schema: {
        tags,
        summary: 'Request a booking (verified users, not on their own car); the server computes the price',
        description: 'Refused with 409 and `errors.policies` while the renter, acting for themselves, has not accepted the terms and privacy notice in force (GET /api/privacy/policies); an administrator acting for them is not refused.',
        body: createBookingBodySchema,
        response: { 201: envelope(bookingSchema) },
      },
    }, async (request, reply) => {
      const viewer = currentUser(request);
      // A booking created this instant has no refunds: it is answered from the record its own
      // transaction read, with no second trip to the database after the commit (under a burst that
      // trip could wait past DATABASE_CONNECT_TIMEOUT_MS and turn a committed booking into a 503).
      const booking = toBooking(await bookings.createBooking(ctx, viewer, request.body), [], null, viewer);
      const kind = booking.is_hourly_booking ? 'Hourly' : 'Daily';
      return reply.status(201).send({
        success: true,
        message: booking.status === 'confirmed' ? `${kind} booking confirmed!` : `${kind} Booking Request Sent!`,
        data: booking,
      });
    });

    app.get('/booking/instant/:car_username', {
      schema: {
        tags,
        summary: "Whether your request for this car would be confirmed at once (its host's instant booking and your record), and what you lack",
        params: z.object({ car_username: safeText('car_username').min(1).max(120) }),
        response: { 200: envelope(instantEligibilitySchema) },
      },
    }, async (request) => {
      return { success: true as const, data: await instantEligibility(ctx, currentUser(request), request.params.car_username) };
    });

    app.get('/booking/getAll', {
      schema: {
        tags,
        summary: 'Bookings: admins all (or their own with scope=mine), others their own as renter or owner (as=owner|renter narrows)',
        querystring: bookingScopeQuerySchema,
        response: { 200: bookingList },
      },
    }, async (request) => {
      const viewer = currentUser(request);
      return { success: true as const, data: await toBookingAnswers(ctx, viewer, await bookings.listVisibleBookings(ctx, viewer, request.query)) };
    });

    app.get('/booking/getList', {
      schema: {
        tags,
        summary: 'One page of bookings (same visibility as getAll): status, car_username, search (booking number, car, renter), page, limit; meta has the filtered total',
        querystring: bookingListQuerySchema,
        response: { 200: bookingList.extend({ meta: bookingListMetaSchema }) },
      },
    }, async (request) => {
      const { page, limit } = request.query;
      const viewer = currentUser(request);
      const { records, total } = await bookings.listVisibleBookingPage(ctx, viewer, request.query);
      return { success: true as const, data: await toBookingAnswers(ctx, viewer, records), meta: { total, page, limit } };
    });

    app.get('/booking/getStats', {
      schema: {
        tags,
        summary: 'Counts by status and stored totals, scoped like getAll (scope=mine, as=owner|renter)',
        querystring: bookingScopeQuerySchema,
        response: { 200: envelope(bookingStatsSchema) },
      },
    }, async (request) => ({ success: true as const, data: await bookings.bookingStats(ctx, currentUser(request), request.query) }));

    app.get('/user/:id/bookings', {
      schema: { tags, summary: "A user's bookings as renter (self or admin)", params: idParams, querystring: statusQuery, response: { 200: bookingList } },
    }, async (request) => {
      const viewer = currentUser(request);
      const records = await bookings.listUserBookings(ctx, viewer, request.params.id, 'renter', request.query.status);
      return { success: true as const, data: await toBookingAnswers(ctx, viewer, records) };
    });

    app.get('/user/:id/hosted-bookings', {
      schema: { tags, summary: "Bookings of a user's cars (self or admin)", params: idParams, querystring: statusQuery, response: { 200: bookingList } },
    }, async (request) => {
      const viewer = currentUser(request);
      const records = await bookings.listUserBookings(ctx, viewer, request.params.id, 'owner', request.query.status);
      return { success: true as const, data: await toBookingAnswers(ctx, viewer, records) };
    });

    app.patch('/booking/approve/:id', {
      schema: { tags, summary: 'Accept a pending request (car owner or admin)', params: idParams, body: hostResponseBodySchema, response: { 200: envelope(bookingSchema) } },
    }, async (request) => {
      const viewer = currentUser(request);
      const hostResponse = request.body?.host_response;
      const record = await bookings.changeBookingStatus(ctx, viewer, request.params.id, 'confirmed', {
        callers: ['owner', 'admin'],
        ...(hostResponse ? { hostResponse } : {}),
      });
      return { success: true as const, message: STATUS_MESSAGES.confirmed, data: await toBookingAnswer(ctx, viewer, record) };
    });

    app.patch('/booking/reject/:id', {
      schema: { tags, summary: 'Reject a pending request (car owner or admin)', params: idParams, body: hostResponseBodySchema, response: { 200: envelope(bookingSchema) } },
    }, async (request) => {
      const viewer = currentUser(request);
      const hostResponse = request.body?.host_response;
      const record = await bookings.changeBookingStatus(ctx, viewer, request.params.id, 'rejected', {
        callers: ['owner', 'admin'],
        ...(hostResponse ? { hostResponse } : {}),
      });
      return { success: true as const, message: STATUS_MESSAGES.rejected, data: await toBookingAnswer(ctx, viewer, record) };
    });

    app.patch('/booking/:id/cancel', {
      schema: {
        tags,
        summary:
          'Withdraw a pending request or cancel a confirmed, unpaid booking (renter or admin); cancel a paid trip by the cancellation policy (renter or host before the start, host reporting a no-show after it, admin with a refund choice); GET /booking/{id}/cancellation quotes it first',
        params: idParams,
        body: cancelBookingBodySchema,
        response: { 200: envelope(bookingSchema) },
      },
    }, async (request) => {
      const viewer = currentUser(request);
      const booking = await bookings.findVisibleBooking(ctx, viewer, request.params.id);
      const record =
        booking.status === 'active'
          ? await cancelPaidTrip(ctx, viewer, booking.id, request.body)
          : await bookings.changeBookingStatus(ctx, viewer, booking.id, 'cancelled', {
              callers: ['renter', 'admin'],
              ...(request.body?.host_response ? { hostResponse: request.body.host_response } : {}),
            });
      return { success: true as const, message: STATUS_MESSAGES.cancelled, data: await toBookingAnswer(ctx, viewer, record) };
    });

    const statusHandler = async (request: { params: { id: string }; body: z.output<typeof bookingStatusBodySchema> } & Parameters<typeof currentUser>[0]) => {
      const viewer = currentUser(request);
      const { status, host_response: hostResponse } = request.body;
      const record = await bookings.changeBookingStatus(ctx, viewer, request.params.id, status, hostResponse ? { hostResponse } : {});
      return { success: true as const, message: STATUS_MESSAGES[status] ?? 'Booking updated', data: await toBookingAnswer(ctx, viewer, record) };
    };

    app.patch('/booking/:id/status', {
      schema: { tags, summary: 'Change the status as the machine and your part allow (409 otherwise)', params: idParams, body: bookingStatusBodySchema, response: { 200: envelope(bookingSchema) } },
    }, statusHandler);

    app.put('/booking/update/:id', {
      schema: { tags, summary: 'Same as PATCH /booking/{id}/status: { status, host_response? }', params: idParams, body: bookingStatusBodySchema, response: { 200: envelope(bookingSchema) } },
    }, statusHandler);

    app.get('/booking/:id', {
      schema: {
        tags,
        summary: 'One booking (its renter, the car owner or an admin)',
        params: idParams,
        response: { 200: envelope(bookingSchema) },
      },
    }, async (request) => {
      const viewer = currentUser(request);
      return { success: true as const, data: await toBookingAnswer(ctx, viewer, await bookings.findVisibleBooking(ctx, viewer, request.params.id)) };
    });
  });

  return async (api) => {
    await api.register(returnsRoutes(ctx));
    await api.register(signedIn);
  };
}
