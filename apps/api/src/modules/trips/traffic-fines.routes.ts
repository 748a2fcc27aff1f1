// HTTP for traffic fines (issue 34; decision 066): the host (or an admin) enters a fine (multipart:
// the JSON field `fine` and the notice as the file `notice`), everyone the fine concerns reads it
// and its notice, the host downloads the AARTO 07 nomination (audited), both sides move its state,
// admins list every fine. The rules are traffic-fines.service.ts's.
import { createFineBodySchema, envelope, FINE_STATUSES, fineSchema, safeText, updateFineStatusBodySchema } from '@karoo/shared';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { badRequest } from '../../lib/app-error';
import { privateFileQuerySchema, sendPrivateFile, type UploadedFile } from '../../lib/uploads';
import { currentUser, routesFor } from '../../plugins/auth';
import { fileAnswer } from '../../plugins/openapi';
import { nominationPdf } from './traffic-fines.pdf';
import * as fines from './traffic-fines.service';

const tags = ['Traffic fines'];
const idParams = z.object({ id: safeText('Id').min(1).max(100) });
const statusQuery = z.object({ status: z.enum(FINE_STATUSES).optional() });

/** The fine's JSON (a JSON body, or the multipart field `fine`) and the notice file `notice`. */
async function readFine(request: FastifyRequest): Promise<{ body: z.output<typeof createFineBodySchema>; notice: UploadedFile | undefined }> {
  let raw: unknown = request.body;
  let notice: UploadedFile | undefined;
  if (request.isMultipart()) {
    raw = undefined;
    for await (const part of request.parts({ limits: { files: 2, parts: 6 } })) {
      if (part.type === 'file') {
        if (part.fieldname !== 'notice' || notice) {
          part.file.resume();
          continue;
        }
        notice = { buffer: await part.toBuffer(), filename: part.filename };
      } else if (part.fieldname === 'fine') {
        try {
          raw = JSON.parse(String(part.value));
        } catch {
          throw badRequest('The field fine must be JSON.');
        }
      }
    }
  }
  const parsed = createFineBodySchema.safeParse(raw ?? {});
  if (!parsed.success) {
    const errors = Object.fromEntries(parsed.error.issues.map((issue) => [issue.path.join('.') || 'body', issue.message]));
    throw badRequest(parsed.error.issues[0]?.message ?? 'The form is not valid.', errors);
  }
  return { body: parsed.data, notice };
}

export function trafficFinesRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(routesFor('signed-in', async (signedIn) => {
      signedIn.post('/fines', {
        schema: {
          tags,
          summary: 'Enter a traffic fine from its notice (the car’s host or an admin; multipart: fine = the JSON, notice = a photo or PDF); matched to the trip that had the car, whose renter is told (audited)',
          consumes: ['multipart/form-data', 'application/json'],
          body: createFineBodySchema.optional(),
          response: { 201: envelope(fineSchema) },
        },
        // Multipart bodies are read by readFine; JSON is validated there too (one message shape).
        validatorCompiler: () => (data) => ({ value: data }),
      }, async (request, reply) => {
        const viewer = currentUser(request);
        const { body, notice } = await readFine(request);
        const id = await fines.createFine(ctx, viewer, body, notice);
        const view = await fines.fineView(ctx, viewer, id);
        return reply.status(201).send({ success: true as const, message: view.trip ? `Fine entered and matched to trip ${view.trip.booking_number}; the renter has been told` : 'Fine entered: no trip had the car at that moment', data: view });
      });

      signedIn.get('/fines', {
        schema: { tags, summary: 'The host’s traffic fines, newest first', querystring: statusQuery, response: { 200: envelope(z.array(fineSchema)) } },
      }, async (request) => ({ success: true as const, data: await fines.listFines(ctx, currentUser(request), { status: request.query.status }) }));

      signedIn.get('/booking/:id/fines', {
        schema: { tags, summary: 'The traffic fines that fell in a trip (its host, renter, admins)', params: idParams, response: { 200: envelope(z.array(fineSchema)) } },
      }, async (request) => ({ success: true as const, data: await fines.bookingFines(ctx, currentUser(request), request.params.id) }));

      signedIn.get('/fines/:id', {
        schema: { tags, summary: 'One traffic fine with its trip or the nearest trips (its host, the renter it was matched to, admins)', params: idParams, response: { 200: envelope(fineSchema) } },
      }, async (request) => ({ success: true as const, data: await fines.fineView(ctx, currentUser(request), request.params.id) }));

      signedIn.patch('/fines/:id/status', {
        schema: { tags, summary: 'Move a fine: nominated, paid by the host, withdrawn (the host, admins); paid by the renter or disputed (the renter)', params: idParams, body: updateFineStatusBodySchema, response: { 200: envelope(fineSchema) } },
      }, async (request) => {
        const viewer = currentUser(request);
        await fines.updateFineStatus(ctx, viewer, request.params.id, request.body);
        return { success: true as const, message: 'Fine updated', data: await fines.fineView(ctx, viewer, request.params.id) };
      });

      signedIn.get('/fines/:id/notice', {
        schema: { tags, summary: 'The infringement notice’s photo or PDF (its host, the renter, admins)', params: idParams, querystring: privateFileQuerySchema },
        config: fileAnswer('The notice', ['application/pdf', 'image/jpeg', 'image/png']),
      }, async (request, reply) => {
        const file = await fines.readNotice(ctx, currentUser(request), request.params.id);
        return sendPrivateFile(reply, file, { filename: `notice-${request.params.id}.${file.ext}`, inline: request.query.inline ?? '1' });
      });

      signedIn.get('/fines/:id/nomination.pdf', {
        schema: { tags, summary: 'The AARTO 07 nomination of the driver, pre-filled, to sign and submit (the host, admins; a fine inside a trip only; audited)', params: idParams },
        config: fileAnswer('The nomination', ['application/pdf']),
      }, async (request, reply) => {
        const facts = await fines.nominationFacts(ctx, currentUser(request), request.params.id);
        const pdf = await nominationPdf(facts, ctx.clock.now());
        return sendPrivateFile(reply, { data: pdf, mime: 'application/pdf' }, { filename: `aarto-07-${facts.fine.notice_number}.pdf`, inline: '0' });
      });
    }));

    await app.register(routesFor('admin', async (admins) => {
      admins.get('/admin/fines', {
        schema: { tags, summary: 'Every traffic fine, newest first (admin; in a state when asked)', querystring: statusQuery, response: { 200: envelope(z.array(fineSchema)) } },
      }, async (request) => ({ success: true as const, data: await fines.listFines(ctx, currentUser(request), { status: request.query.status, all: true }) }));
    }));
  };
}
