// HTTP for /api/car (and the seed's /api/rent price call): schema in, service call, schema out.
import {
  carAvailabilitySchema,
  carListQuerySchema,
  carOwnerProfileSchema,
  carSchema,
  emptyEnvelope,
  envelope,
  forceReturnBodySchema,
  MAX_CAR_PHOTO_BYTES,
  MAX_CAR_PHOTOS,
  newCarBodySchema,
  pagedEnvelope,
  returnCarBodySchema,
  updateCarBodySchema,
  updateInsuranceOptionsBodySchema,
  updatePickupLocationBodySchema,
  updatePickupOptionsBodySchema,
  updateRentPriceBodySchema,
  verifyCarBodySchema,
  verifyRegistrationDocumentBodySchema,
  DATE_PATTERN,
  safeText,
} from '@karoo/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { AppError, badRequest } from '../../lib/app-error';
import { currentUser, requireAdmin, requireUser } from '../../plugins/auth';
import * as cars from './cars.service';

const tags = ['Cars'];
const security = [{ bearerAuth: [] }];
const carListAnswer = pagedEnvelope(carSchema);
type CarListAnswer = z.infer<typeof carListAnswer>;
const idParams = z.object({ id: safeText('Id').min(1).max(120) });
const carUsernameParams = z.object({ car_username: safeText('car_username').min(1).max(120) });
/** Photos come inside the JSON as data URLs: 10 photos of 10 MB, base64 (4/3), plus the rest. */
const PHOTO_BODY_LIMIT = Math.ceil((MAX_CAR_PHOTOS * MAX_CAR_PHOTO_BYTES * 4) / 3) + 2 * 1024 * 1024;

export function carsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    // ---- Public ----
    app.get('/car/getCarList', {
      schema: {
        tags,
        summary: 'Browse cars: listed cars for the public; all of an owner\'s cars for that owner; everything for admins with includeUnverified=true',
        querystring: carListQuerySchema,
        response: { 200: carListAnswer },
      },
    }, async (request, reply) => {
      // Sent as text: the service serialises (and caches) the page itself.
      const page = await cars.listCarsPage(ctx, request.user, request.query);
      reply.type('application/json; charset=utf-8').header('vary', 'accept-encoding');
      if (page.gzip && /\bgzip\b/.test(request.headers['accept-encoding'] ?? '')) {
        return reply.header('content-encoding', 'gzip').send(page.gzip() as unknown as CarListAnswer);
      }
      return reply.send(page.json as unknown as CarListAnswer);
    });

    app.get('/car/getCarDetails/:id', {
      schema: { tags, summary: 'One car by id or car_username (unlisted cars: owner and admins only)', params: idParams, response: { 200: envelope(carSchema) } },
    }, async (request) => {
      const car = await cars.findVisibleCar(ctx, request.user, request.params.id);
      return { success: true as const, data: cars.viewCar(request.user, car) };
    });

    app.get('/car/:id/availability', {
      schema: {
        tags,
        summary: 'Dates the car is held by pending, confirmed or active bookings (from today unless told)',
        params: idParams,
        querystring: z.object({
          from: safeText('from').regex(DATE_PATTERN, 'from must be a date (YYYY-MM-DD)').optional(),
          to: safeText('to').regex(DATE_PATTERN, 'to must be a date (YYYY-MM-DD)').optional(),
        }),
        response: { 200: envelope(z.array(carAvailabilitySchema)) },
      },
    }, async (request) => ({
      success: true as const,
      data: await cars.availability(ctx, request.user, request.params.id, request.query.from, request.query.to),
    }));

    app.get('/car/owner/:id', {
      schema: { tags, summary: 'Public profile of a car\'s owner ({id}: a car or a host)', params: idParams, response: { 200: envelope(carOwnerProfileSchema) } },
    }, async (request) => ({ success: true as const, data: await cars.ownerProfile(ctx, request.user, request.params.id) }));

    app.post('/car/rentCar/:id', {
      schema: { tags, summary: 'Retired: create a booking with POST /api/booking/create', params: idParams },
    }, async () => {
      throw new AppError(410, 'This call has been retired. Create a booking with POST /api/booking/create.');
    });

    // ---- Owners (and admins) ----
    app.post('/car/newCar/:username', {
      preHandler: requireUser,
      bodyLimit: PHOTO_BODY_LIMIT,
      schema: {
        tags,
        summary: 'List a car (that user or an admin); photos as data URLs; the first car makes its owner a host',
        security,
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

    app.put('/car/updateCar/:id', {
      preHandler: requireUser,
      bodyLimit: PHOTO_BODY_LIMIT,
      schema: { tags, summary: 'Edit a car, or toggle { status } (owner or admin)', security, params: idParams, body: updateCarBodySchema, response: { 200: envelope(carSchema) } },
    }, async (request) => {
      const viewer = currentUser(request);
      const { car, message } = await cars.updateCar(ctx, viewer, request.params.id, request.body);
      return { success: true as const, message, data: cars.viewCar(viewer, car) };
    });

    app.delete('/car/deleteCar/:id', {
      preHandler: requireUser,
      schema: { tags, summary: 'Remove a car (owner or admin); refused during an active rental', security, params: idParams, response: { 200: emptyEnvelope } },
    }, async (request) => {
      const { cancelled } = await cars.deleteCar(ctx, currentUser(request), request.params.id);
      return {
        success: true as const,
        message: cancelled ? `Car deleted. ${cancelled} open ${cancelled === 1 ? 'booking was' : 'bookings were'} cancelled.` : 'Car deleted',
        data: null,
      };
    });

    app.post('/rent/updateCarRentPrice/:id', {
      preHandler: requireUser,
      schema: { tags, summary: 'Set the daily price (owner or admin)', security, params: idParams, body: updateRentPriceBodySchema, response: { 200: envelope(carSchema) } },
    }, async (request) => {
      const viewer = currentUser(request);
      const car = await cars.updateRentPrice(ctx, viewer, request.params.id, request.body.car_rent_price);
      return { success: true as const, message: 'Price Updated', data: cars.viewCar(viewer, car) };
    });

    app.patch('/car/updatePickupLocation/:id', {
      preHandler: requireUser,
      schema: { tags, summary: 'Set the pickup location (owner or admin)', security, params: idParams, body: updatePickupLocationBodySchema, response: { 200: envelope(carSchema) } },
    }, async (request) => {
      const viewer = currentUser(request);
      const car = await cars.updatePickupLocation(ctx, viewer, request.params.id, request.body);
      return { success: true as const, message: 'Pickup location updated', data: cars.viewCar(viewer, car) };
    });

    app.patch('/car/updatePickupOptions/:id', {
      preHandler: requireUser,
      schema: { tags, summary: 'Replace the pickup options (owner or admin)', security, params: idParams, body: updatePickupOptionsBodySchema, response: { 200: envelope(carSchema) } },
    }, async (request) => {
      const viewer = currentUser(request);
      const car = await cars.updatePickupOptions(ctx, viewer, request.params.id, request.body.pickup_options);
      return { success: true as const, message: 'Pickup Options Updated', data: cars.viewCar(viewer, car) };
    });

    app.patch('/car/updateInsuranceOptions/:id', {
      preHandler: requireUser,
      schema: { tags, summary: 'Replace the insurance plans (owner or admin)', security, params: idParams, body: updateInsuranceOptionsBodySchema, response: { 200: envelope(carSchema) } },
    }, async (request) => {
      const viewer = currentUser(request);
      const car = await cars.updateInsuranceOptions(ctx, viewer, request.params.id, request.body.insurance_options);
      return { success: true as const, message: 'Insurance Options Updated', data: cars.viewCar(viewer, car) };
    });

    app.patch('/car/returnCar/:id', {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Mark the current rental returned (owner or admin): the booking completes and the car is available',
        security,
        params: idParams,
        body: returnCarBodySchema.nullish().transform((v) => v ?? {}),
        response: { 200: envelope(carSchema) },
      },
    }, async (request) => {
      const viewer = currentUser(request);
      const car = await cars.returnCar(ctx, viewer, request.params.id, request.body);
      return { success: true as const, message: 'Car Successfully Returned', data: cars.viewCar(viewer, car) };
    });

    app.post('/car/uploadRegistrationDocument/:car_username', {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Upload the registration document (owner; multipart field registrationDocument; PDF, JPEG or PNG up to 10 MB)',
        security,
        consumes: ['multipart/form-data'],
        params: carUsernameParams,
        response: { 200: envelope(carSchema) },
      },
    }, async (request) => {
      const viewer = currentUser(request);
      if (!request.isMultipart()) throw badRequest('Please choose a file to upload.', { registrationDocument: 'Please choose a file to upload.' });
      let file: { buffer: Buffer; filename: string } | undefined;
      for await (const part of request.parts()) {
        if (part.type !== 'file') continue;
        if (part.fieldname !== 'registrationDocument' || file) {
          part.file.resume();
          continue;
        }
        file = { buffer: await part.toBuffer(), filename: part.filename };
      }
      if (!file || file.buffer.length === 0) {
        throw badRequest('Please choose a file to upload.', { registrationDocument: 'Please choose a file to upload.' });
      }
      const car = await cars.uploadRegistrationDocument(ctx, viewer, request.params.car_username, file);
      return { success: true as const, message: 'Document Uploaded', data: cars.viewCar(viewer, car) };
    });

    app.get('/car/:id/registration-document', {
      preHandler: requireUser,
      schema: {
        tags,
        summary: 'Download the registration document (owner or admin)',
        security,
        params: idParams,
        querystring: z.object({ inline: z.enum(['0', '1', 'true', 'false']).optional() }),
      },
    }, async (request, reply) => {
      const { car, data, mime } = await cars.readRegistrationDocument(ctx, currentUser(request), request.params.id);
      const ext = mime === 'application/pdf' ? 'pdf' : mime === 'image/png' ? 'png' : 'jpg';
      const disposition = ['1', 'true'].includes(request.query.inline ?? '') ? 'inline' : 'attachment';
      return reply
        .header('content-type', mime)
        .header('content-disposition', `${disposition}; filename="${car.car_username}_registration_document.${ext}"`)
        .header('cache-control', 'private, no-store')
        .send(data);
    });

    // ---- Admins ----
    app.patch('/car/verifyCar/:id', {
      preHandler: requireAdmin,
      schema: { tags, summary: 'Verify or reject a car (admin; notes required to reject)', security, params: idParams, body: verifyCarBodySchema, response: { 200: envelope(carSchema) } },
    }, async (request) => {
      const viewer = currentUser(request);
      const car = await cars.verifyCar(ctx, request.params.id, request.body);
      const message = car.verification_status === 'verified' ? 'Car verified' : car.verification_status === 'rejected' ? 'Car rejected' : 'Car sent back for verification';
      return { success: true as const, message, data: cars.viewCar(viewer, car) };
    });

    app.patch('/car/verifyRegistrationDocument/:car_username', {
      preHandler: requireAdmin,
      schema: {
        tags,
        summary: 'Verify or reject a registration document (admin; while not yet verified)',
        security,
        params: carUsernameParams,
        body: verifyRegistrationDocumentBodySchema,
        response: { 200: envelope(carSchema) },
      },
    }, async (request) => {
      const viewer = currentUser(request);
      const car = await cars.verifyRegistrationDocument(ctx, request.params.car_username, request.body);
      return { success: true as const, message: request.body.verified ? 'Document Verified' : 'Document Rejected', data: cars.viewCar(viewer, car) };
    });

    app.patch('/car/forceReturn/:car_username', {
      preHandler: requireAdmin,
      schema: {
        tags,
        summary: 'End a rental at once (admin): its started active bookings complete',
        security,
        params: carUsernameParams,
        body: forceReturnBodySchema.nullish().transform((v) => v ?? {}),
        response: { 200: envelope(z.object({ affected_bookings: z.number().int(), car: carSchema })) },
      },
    }, async (request) => {
      const viewer = currentUser(request);
      const { affected_bookings, car } = await cars.forceReturn(ctx, request.params.car_username, request.body.reason);
      return {
        success: true as const,
        message: `Car force returned (${affected_bookings} ${affected_bookings === 1 ? 'booking' : 'bookings'} completed)`,
        data: { affected_bookings, car: cars.viewCar(viewer, car) },
      };
    });
  };
}
