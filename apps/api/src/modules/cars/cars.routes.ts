// HTTP for /api/car (and the seed's /api/rent price call): schema in, service call, schema out.
// Returning a car ends its rental, so /car/returnCar and /car/forceReturn are the bookings module's
// (bookings/returns.routes.ts).
import {
  carAvailabilitySchema,
  carCardSchema,
  carMapQuerySchema,
  carMapSchema,
  MAX_MAP_ITEMS,
  carListQuerySchema,
  carOwnerProfileSchema,
  carSchema,
  emptyEnvelope,
  envelope,
  errorResponseSchema,
  MAX_CAR_PHOTO_BYTES,
  MAX_CAR_PHOTOS,
  newCarBodySchema,
  carListMetaSchema,
  pagedEnvelope,
  updateCarBodySchema,
  updateInsuranceOptionsBodySchema,
  updatePickupLocationBodySchema,
  updatePickupOptionsBodySchema,
  updateRentPriceBodySchema,
  updateTripRulesBodySchema,
  updateInstantBookingBodySchema,
  verifyCarBodySchema,
  verifyRegistrationDocumentBodySchema,
  dateRangeQuerySchema,
  safeText,
} from '@karoo/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/app-error';
import { documentExtension } from '../../lib/file-types';
import { privateFileQuerySchema, readSingleUpload, sendPrivateFile } from '../../lib/uploads';
import { currentUser, routesFor } from '../../plugins/auth';
import { fileAnswer } from '../../plugins/openapi';
import * as browse from './car-browse.service';
import { carMap } from './car-map.service';
import * as verification from './car-verification.service';
import * as cars from './cars.service';
import { updateInstantBooking } from './instant-booking.service';
import { updateTripRules } from './trip-rules.service';

const tags = ['Cars'];
const carListAnswer = pagedEnvelope(carSchema).extend({ meta: carListMetaSchema });
/** fields=card: the same envelope and meta, each car as a browse card shows it (decision 046). */
const carCardListAnswer = pagedEnvelope(carCardSchema).extend({ meta: carListMetaSchema });
type CarListAnswer = z.infer<typeof carListAnswer>;
/** Public routes that answer more to the car's owner and to admins: the token is optional. */
const optionalToken: Array<Record<string, string[]>> = [{}, { bearerAuth: [] }];
const idParams = z.object({ id: safeText('Id').min(1).max(120) });
const carUsernameParams = z.object({ car_username: safeText('car_username').min(1).max(120) });
/** Photos come inside the JSON as data URLs: 10 photos of 10 MB, base64 (4/3), plus the rest. */
const PHOTO_BODY_LIMIT = Math.ceil((MAX_CAR_PHOTOS * MAX_CAR_PHOTO_BYTES * 4) / 3) + 2 * 1024 * 1024;

export interface CarsRoutesDeps {
  /** The bookings module's `hostCancellations`, for the host card and the public profile. */
  hostCancellationsOf: browse.HostCancellationsOf;
  /** The bookings module's `paidTripOf`: the renter of a paid trip of a car sees its exact place and plate (decision 055). */
  paidTripOf: cars.PaidTripOf;
}

export function carsRoutes(ctx: AppContext, { hostCancellationsOf, paidTripOf }: CarsRoutesDeps): FastifyPluginAsyncZod {
  return async (app) => {
    // ---- Public ----
    app.get('/car/getCarList', {
      schema: {
        tags,
        summary: 'Browse cars: listed cars for the public; all of an owner\'s cars for that owner; everything for admins with includeUnverified=true',
        description:
          'Each car is the whole car by default. With `fields=card` each is what a browse card shows (id, car_username, title, year, type, price per day, ' +
          'location, rating, reviews, the first photo and its widths, position, badges, status, transmission, fuel, seats, host name): the same filters, ' +
          'sort, paging and meta, about a sixth of the bytes. `bbox=west,south,east,north` keeps the cars positioned inside that view (edges included). ' +
          'The public list answers each car\'s area, not its exact place (decision 055): suburb and city, the centre of its cell of a 0.01° grid, no plate; ' +
          'the view, the distance sort and distance_km use that position too. An owner\'s own list answers the exact place.',
        querystring: carListQuerySchema,
        security: optionalToken,
        response: { 200: z.union([carListAnswer, carCardListAnswer]) },
      },
    }, async (request, reply) => {
      // Sent as text: the service serialises (and caches) the page itself.
      const page = await browse.listCarsPage(ctx, request.user, request.query);
      reply.type('application/json; charset=utf-8').header('vary', 'accept-encoding');
      if (page.gzip && /\bgzip\b/.test(request.headers['accept-encoding'] ?? '')) {
        return reply.header('content-encoding', 'gzip').send(page.gzip() as unknown as CarListAnswer);
      }
      return reply.send(page.json as unknown as CarListAnswer);
    });

    app.get('/car/map', {
      schema: {
        tags,
        summary: 'The browse map: every listed car matching the browse filters in a view, clustered where they crowd at that zoom',
        description:
          'The same filters as GET /car/getCarList (sort and paging do not apply), `bbox=west,south,east,north` and `zoom` (0-22, the map\'s). ' +
          'Cars close together at that zoom come as one cluster (its position, count and the zoom at which it splits); the others one by one with ' +
          `their price. At most ${MAX_MAP_ITEMS} clusters and cars: past that \`capped\` is true (zoom in). \`total\` counts the matching cars in the view. ` +
          'Every position is a car\'s area (the centre of its cell of a 0.01° grid), never its exact place (decision 055).',
        querystring: carMapQuerySchema,
        response: { 200: envelope(carMapSchema) },
      },
    }, async (request) => ({ success: true as const, data: await carMap(ctx, request.query) }));

    app.get('/car/getCarDetails/:id', {
      schema: {
        tags,
        summary: 'One car by id or car_username (unlisted cars: owner and admins only)',
        description:
          'The exact pickup place (pickup_location, the pickup options\' addresses, latitude and longitude) and the plate are answered to the car\'s host, ' +
          'administrators and the renter of a paid trip of the car (exact_place true). Everyone else, signed in or not, gets the area: suburb and city, ' +
          'the centre of the car\'s cell of a 0.01° grid (about 1 km; the same on every request) and car_plate_number null (decision 055).',
        params: idParams,
        security: optionalToken,
        response: { 200: envelope(carSchema) },
      },
    }, async (request) => ({ success: true as const, data: await browse.carDetails(ctx, request.user, request.params.id, hostCancellationsOf, paidTripOf) }));

    app.get('/car/:id/availability', {
      schema: {
        tags,
        summary: 'Dates the car is held by pending, confirmed or active bookings (from today unless told)',
        params: idParams,
        security: optionalToken,
        querystring: dateRangeQuerySchema,
        response: { 200: envelope(z.array(carAvailabilitySchema)) },
      },
    }, async (request) => ({
      success: true as const,
      data: await browse.availability(ctx, request.user, request.params.id, request.query.from, request.query.to),
    }));

    app.get('/car/owner/:id', {
      schema: { tags, summary: 'Public profile of a car\'s owner ({id}: a car or a host)', params: idParams, security: optionalToken, response: { 200: envelope(carOwnerProfileSchema) } },
    }, async (request) => ({ success: true as const, data: await browse.ownerProfile(ctx, request.user, request.params.id, hostCancellationsOf) }));

    app.post('/car/rentCar/:id', {
      schema: { tags, summary: 'Retired: create a booking with POST /api/booking/create', deprecated: true, params: idParams, response: { 410: errorResponseSchema } },
    }, async () => {
      throw new AppError(410, 'This call has been retired. Create a booking with POST /api/booking/create.');
    });

    // ---- Owners (and admins) ----
    await app.register(routesFor('signed-in', async (owners) => {
      owners.post('/car/newCar/:username', {
        bodyLimit: PHOTO_BODY_LIMIT,
        schema: {
          tags,
          summary: 'List a car (that user or an admin); photos as data URLs; the first car makes its owner a host',
          description: 'Refused with 409 and `errors.policies` while the owner, acting for themselves, has not accepted the terms and privacy notice in force (GET /api/privacy/policies); an administrator acting for them is not refused.',
          params: z.object({ username: safeText('Username').min(1).max(100) }),
          body: newCarBodySchema,
          response: { 201: envelope(carSchema) },
        },
      }, async (request, reply) => {
        const viewer = currentUser(request);
        const car = await cars.createCar(ctx, viewer, request.params.username, request.body);
        return reply.status(201).send({
          success: true,
          message: 'Vehicle added successfully. It will be listed once an administrator verifies it.',
          data: cars.viewCar(viewer, car),
        });
      });

      owners.put('/car/updateCar/:id', {
        bodyLimit: PHOTO_BODY_LIMIT,
        schema: { tags, summary: 'Edit a car, or toggle { status } (owner or admin)', params: idParams, body: updateCarBodySchema, response: { 200: envelope(carSchema) } },
      }, async (request) => {
        const viewer = currentUser(request);
        const { car, message } = await cars.updateCar(ctx, viewer, request.params.id, request.body);
        return { success: true as const, message, data: cars.viewCar(viewer, car) };
      });

      owners.delete('/car/deleteCar/:id', {
        schema: { tags, summary: 'Remove a car (owner or admin); refused during an active rental', params: idParams, response: { 200: emptyEnvelope } },
      }, async (request) => {
        const { cancelled } = await cars.deleteCar(ctx, currentUser(request), request.params.id);
        return {
          success: true as const,
          message: cancelled ? `Car deleted. ${cancelled} open ${cancelled === 1 ? 'booking was' : 'bookings were'} cancelled.` : 'Car deleted',
          data: null,
        };
      });

      owners.post('/rent/updateCarRentPrice/:id', {
        schema: { tags, summary: 'Set the daily price (owner or admin)', params: idParams, body: updateRentPriceBodySchema, response: { 200: envelope(carSchema) } },
      }, async (request) => {
        const viewer = currentUser(request);
        const car = await cars.updateRentPrice(ctx, viewer, request.params.id, request.body.car_rent_price);
        return { success: true as const, message: 'Price Updated', data: cars.viewCar(viewer, car) };
      });

      owners.patch('/car/updatePickupLocation/:id', {
        schema: { tags, summary: 'Set the pickup location (owner or admin)', params: idParams, body: updatePickupLocationBodySchema, response: { 200: envelope(carSchema) } },
      }, async (request) => {
        const viewer = currentUser(request);
        const car = await cars.updatePickupLocation(ctx, viewer, request.params.id, request.body);
        return { success: true as const, message: 'Pickup location updated', data: cars.viewCar(viewer, car) };
      });

      owners.patch('/car/updatePickupOptions/:id', {
        schema: { tags, summary: 'Replace the pickup options (owner or admin)', params: idParams, body: updatePickupOptionsBodySchema, response: { 200: envelope(carSchema) } },
      }, async (request) => {
        const viewer = currentUser(request);
        const car = await cars.updatePickupOptions(ctx, viewer, request.params.id, request.body.pickup_options);
        return { success: true as const, message: 'Pickup Options Updated', data: cars.viewCar(viewer, car) };
      });

      owners.patch('/car/updateInsuranceOptions/:id', {
        schema: { tags, summary: 'Replace the insurance plans (owner or admin)', params: idParams, body: updateInsuranceOptionsBodySchema, response: { 200: envelope(carSchema) } },
      }, async (request) => {
        const viewer = currentUser(request);
        const car = await cars.updateInsuranceOptions(ctx, viewer, request.params.id, request.body.insurance_options);
        return { success: true as const, message: 'Insurance Options Updated', data: cars.viewCar(viewer, car) };
      });

      owners.patch('/car/updateTripRules/:id', {
        schema: {
          tags,
          summary: 'Set the trip rules and long-trip discounts (owner or admin; the whole set)',
          params: idParams,
          body: updateTripRulesBodySchema,
          response: { 200: envelope(carSchema) },
        },
      }, async (request) => {
        const viewer = currentUser(request);
        const car = await updateTripRules(ctx, viewer, request.params.id, request.body);
        return { success: true as const, message: 'Trip rules updated', data: cars.viewCar(viewer, car) };
      });

      owners.patch('/car/updateInstantBooking/:id', {
        schema: {
          tags,
          summary: 'Set instant booking and its requirements (owner or admin; the whole set)',
          params: idParams,
          body: updateInstantBookingBodySchema,
          response: { 200: envelope(carSchema) },
        },
      }, async (request) => {
        const viewer = currentUser(request);
        const car = await updateInstantBooking(ctx, viewer, request.params.id, request.body);
        return { success: true as const, message: 'Instant booking updated', data: cars.viewCar(viewer, car) };
      });

      owners.post('/car/uploadRegistrationDocument/:car_username', {
        schema: {
          tags,
          summary: 'Upload the registration document (owner; multipart field registrationDocument; PDF, JPEG or PNG up to 10 MB)',
          consumes: ['multipart/form-data'],
          params: carUsernameParams,
          response: { 200: envelope(carSchema) },
        },
      }, async (request) => {
        const viewer = currentUser(request);
        const { file } = await readSingleUpload(request, 'registrationDocument');
        const car = await verification.uploadRegistrationDocument(ctx, viewer, request.params.car_username, file);
        return { success: true as const, message: 'Document Uploaded', data: cars.viewCar(viewer, car) };
      });

      owners.get('/car/:id/registration-document', {
        schema: {
          tags,
          summary: 'Download the registration document (owner or admin)',
          params: idParams,
          querystring: privateFileQuerySchema,
        },
        config: fileAnswer('The registration document', ['application/pdf', 'image/jpeg', 'image/png']),
      }, async (request, reply) => {
        const { car, data, mime } = await verification.readRegistrationDocument(ctx, currentUser(request), request.params.id);
        return sendPrivateFile(reply, { data, mime }, {
          filename: `${car.car_username}_registration_document.${documentExtension(mime)}`,
          inline: request.query.inline,
        });
      });
    }));

    // ---- Admins ----
    await app.register(routesFor('admin', async (admins) => {
      admins.patch('/car/verifyCar/:id', {
        schema: { tags, summary: 'Verify or reject a car (admin; notes required to reject)', params: idParams, body: verifyCarBodySchema, response: { 200: envelope(carSchema) } },
      }, async (request) => {
        const viewer = currentUser(request);
        const car = await verification.verifyCar(ctx, currentUser(request), request.params.id, request.body);
        const message = car.verification_status === 'verified' ? 'Car verified' : car.verification_status === 'rejected' ? 'Car rejected' : 'Car sent back for verification';
        return { success: true as const, message, data: cars.viewCar(viewer, car) };
      });

      admins.patch('/car/verifyRegistrationDocument/:car_username', {
        schema: {
          tags,
          summary: 'Verify or reject a registration document (admin; while not yet verified)',
          params: carUsernameParams,
          body: verifyRegistrationDocumentBodySchema,
          response: { 200: envelope(carSchema) },
        },
      }, async (request) => {
        const viewer = currentUser(request);
        const car = await verification.verifyRegistrationDocument(ctx, currentUser(request), request.params.car_username, request.body);
        return { success: true as const, message: request.body.verified ? 'Document Verified' : 'Document Rejected', data: cars.viewCar(viewer, car) };
      });

    }));
  };
}
