// HTTP for trip records (issue 21): check-in and check-out records with photos (multipart), a
// booking's records and the check-in/check-out comparison, a private photo, disputes opened by the
// host and resolved by an admin. The rules live in trips.service.ts.
import {
  bookingTripRecordsSchema,
  disputeFieldsSchema,
  disputeSchema,
  envelope,
  MAX_TRIP_PHOTOS,
  PHOTO_SLOTS,
  resolveDisputeBodySchema,
  safeText,
  tripComparisonSchema,
  tripRecordFieldsSchema,
  tripRecordSchema,
  type PhotoSlot,
} from '@karoo/shared';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { badRequest } from '../../lib/app-error';
import { privateFileQuerySchema, sendPrivateFile } from '../../lib/uploads';
import { currentUser, routesFor } from '../../plugins/auth';
import { fileAnswer } from '../../plugins/openapi';
import { tripClaimsRoutes } from './trip-claims.routes';
import { trafficFinesRoutes } from './traffic-fines.routes';
import * as trips from './trips.service';

const tags = ['Trip records'];
const idParams = z.object({ id: safeText('Id').min(1).max(100) });

/** Which slot a multipart file field fills: photo_front ... photo_extra (records), photo (disputes: extra). */
function slotOf(fieldName: string): PhotoSlot | null {
  if (fieldName === 'photo') return 'extra';
  const slot = fieldName.replace(/^photo_/, '');
  return fieldName.startsWith('photo_') && (PHOTO_SLOTS as readonly string[]).includes(slot) ? (slot as PhotoSlot) : null;
}

/**
 * Reads a multipart body of text fields and photos. The app's multipart limits allow one file per
 * request; these routes take up to MAX_TRIP_PHOTOS (each still at most MAX_UPLOAD_BYTES).
 */
async function readPhotoUpload<Fields>(request: FastifyRequest, readFields: (fields: Record<string, string>) => Fields): Promise<{ fields: Fields; photos: trips.UploadedPhoto[] }> {
  if (!request.isMultipart()) throw badRequest('Send the record as multipart/form-data with its photos.');
  const text: Record<string, string> = Object.create(null);
  const photos: trips.UploadedPhoto[] = [];
  for await (const part of request.parts({ limits: { files: MAX_TRIP_PHOTOS + 1, parts: MAX_TRIP_PHOTOS + 12 } })) {
    if (part.type === 'file') {
      const slot = slotOf(part.fieldname);
      if (!slot) {
        part.file.resume();
        continue;
      }
      const buffer = await part.toBuffer();
      if (buffer.length > 0) photos.push({ slot, file: { buffer, filename: part.filename } });
    } else {
      text[part.fieldname] = String(part.value);
    }
  }
  return { fields: readFields(text), photos };
}

/** Text fields checked with a shared schema; failures are a 400 naming each field. */
function parseWith<S extends z.ZodType>(schema: S) {
  return (fields: Record<string, string>): z.output<S> => {
    const parsed = schema.safeParse(fields);
    if (parsed.success) return parsed.data;
    const errors = Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0] ?? 'body'), issue.message]));
    throw badRequest(parsed.error.issues[0]?.message ?? 'The form is not valid.', errors);
  };
}

export function tripsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(tripClaimsRoutes(ctx));
    await app.register(trafficFinesRoutes(ctx));
    await app.register(routesFor('signed-in', async (signedIn) => {
      signedIn.post('/booking/:id/trip-records', {
        schema: {
          tags,
          summary: 'Record the check-in or check-out (host or renter; multipart: stage, odometer_km, fuel_eighths, note, photo_front, photo_back, photo_left, photo_right, photo_extra...)',
          consumes: ['multipart/form-data'],
          params: idParams,
          response: { 201: envelope(tripRecordSchema) },
        },
      }, async (request, reply) => {
        const { fields, photos } = await readPhotoUpload(request, parseWith(tripRecordFieldsSchema));
        const record = await trips.addRecord(ctx, currentUser(request), request.params.id, fields, photos);
        return reply.status(201).send({ success: true as const, message: record.stage === 'check_in' ? 'Check-in recorded' : 'Check-out recorded', data: record });
      });

      signedIn.get('/booking/:id/trip-records', {
        schema: { tags, summary: "A booking's check-in and check-out records and disputes (its host and renter, admins: audited)", params: idParams, response: { 200: envelope(bookingTripRecordsSchema) } },
      }, async (request) => ({ success: true as const, data: await trips.bookingTripRecords(ctx, currentUser(request), request.params.id) }));

      signedIn.get('/booking/:id/trip-comparison', {
        schema: { tags, summary: 'Check-in against check-out: photos, kilometres driven, fuel change (for Process Return)', params: idParams, response: { 200: envelope(tripComparisonSchema) } },
      }, async (request) => ({ success: true as const, data: await trips.tripComparison(ctx, currentUser(request), request.params.id) }));

      signedIn.get('/trip-photos/:id', {
        schema: { tags, summary: "A trip record's or dispute's photo (the booking's host and renter, admins)", params: idParams, querystring: privateFileQuerySchema },
        config: fileAnswer('The photo', ['image/jpeg']),
      }, async (request, reply) => {
        const photo = await trips.readPhoto(ctx, currentUser(request), request.params.id);
        return sendPrivateFile(reply, photo, { filename: `trip-photo-${request.params.id}.jpg`, inline: request.query.inline ?? '1' });
      });

      signedIn.post('/booking/:id/disputes', {
        schema: {
          tags,
          summary: 'Flag damage or a missing item (the host; multipart: kind, description, photo...)',
          consumes: ['multipart/form-data'],
          params: idParams,
          response: { 201: envelope(disputeSchema) },
        },
      }, async (request, reply) => {
        const { fields, photos } = await readPhotoUpload(request, parseWith(disputeFieldsSchema));
        const dispute = await trips.openDispute(ctx, currentUser(request), request.params.id, fields, photos);
        return reply.status(201).send({ success: true as const, message: 'Dispute opened', data: dispute });
      });
    }));

    await app.register(routesFor('admin', async (admins) => {
      admins.get('/admin/disputes', {
        schema: { tags, summary: 'Open disputes, oldest first (admin)', response: { 200: envelope(z.array(disputeSchema)) } },
      }, async () => ({ success: true as const, data: await trips.listOpenDisputes(ctx) }));

      admins.patch('/admin/disputes/:id/resolve', {
        schema: { tags, summary: 'Resolve an open dispute with a note (admin, audited)', params: idParams, body: resolveDisputeBodySchema, response: { 200: envelope(disputeSchema) } },
      }, async (request) => ({ success: true as const, message: 'Dispute resolved', data: await trips.resolveDispute(ctx, currentUser(request), request.params.id, request.body.note) }));
    }));
  };
}
