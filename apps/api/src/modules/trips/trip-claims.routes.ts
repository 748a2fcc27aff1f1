// HTTP for trip charges (issue 34; decision 065): the host files a claim (JSON, or multipart with
// the claim as the JSON field `claim` and photos as files named `evidence`), the renter answers it
// (JSON, or multipart: `answer` as JSON and `evidence` files), both read a booking's claims and
// deposit, admins list disputed claims and decide one (audited); the renter pays by link what a
// declined card left owed (decision 073). The rules are trip-claims.service.ts's.
import { answerClaimBodySchema, CLAIM_STATUSES, decideClaimBodySchema, envelope, fileClaimBodySchema, paymentSessionSchema, safeText, TRIP_CHARGE_KINDS, verifyClaimPaymentBodySchema } from '@karoo/shared';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { badRequest } from '../../lib/app-error';
import { privateFileQuerySchema, sendPrivateFile, type UploadedFile } from '../../lib/uploads';
import { currentUser, routesFor } from '../../plugins/auth';
import { fileAnswer } from '../../plugins/openapi';
import * as claims from './trip-claims.service';

const tags = ['Trip charges'];
const idParams = z.object({ id: safeText('Id').min(1).max(100) });

const claimSchema = z.object({
  id: z.string(),
  booking_id: z.string(),
  booking_number: z.string(),
  status: z.enum(CLAIM_STATUSES),
  claimed: z.number(),
  host_statement: z.string(),
  answer_due_at: z.string(),
  renter_answer: z.enum(['accepted', 'disputed', 'unanswered']).nullable(),
  renter_statement: z.string().nullable(),
  decided: z.number().nullable(),
  decision_reason: z.string().nullable(),
  settled: z.number().nullable(),
  from_deposit: z.number(),
  from_card: z.number(),
  owed: z.number(),
  payment_state: z.enum(['none', 'paid', 'card_declined']),
  payment_error: z.string().nullable(),
  created_at: z.string(),
  items: z.array(z.object({ kind: z.enum(TRIP_CHARGE_KINDS), label: z.string(), amount: z.number(), detail: z.string(), note: z.string() })),
  evidence: z.array(z.object({ id: z.string(), party: z.enum(['host', 'renter']), url: z.string() })),
});

const bookingClaimsSchema = z.object({
  claims: z.array(claimSchema),
  deposit: z.object({ taken: z.number(), held: z.number(), released: z.number(), applied: z.number() }),
  window: z.object({ closes_at: z.string().nullable(), open: z.boolean(), refusal: z.string().nullable() }),
  computed: z.array(z.object({ kind: z.enum(TRIP_CHARGE_KINDS), label: z.string(), amount: z.number(), detail: z.string() })),
  missing: z.record(z.string(), z.string()),
});

/** A JSON body, or multipart: the JSON in `field` and image files named `evidence`. */
async function readBody<S extends z.ZodType>(request: FastifyRequest, field: string, schema: S): Promise<{ body: z.output<S>; files: UploadedFile[] }> {
  let raw: unknown = request.body;
  const files: UploadedFile[] = [];
  if (request.isMultipart()) {
    raw = undefined;
    for await (const part of request.parts({ limits: { files: claims.MAX_EVIDENCE_FILES + 1, parts: claims.MAX_EVIDENCE_FILES + 4 } })) {
      if (part.type === 'file') {
        if (part.fieldname !== 'evidence') {
          part.file.resume();
          continue;
        }
        const buffer = await part.toBuffer();
        if (buffer.length > 0) files.push({ buffer, filename: part.filename });
      } else if (part.fieldname === field) {
        try {
          raw = JSON.parse(String(part.value));
        } catch {
          throw badRequest(`The field ${field} must be JSON.`);
        }
      }
    }
  }
  const parsed = schema.safeParse(raw ?? {});
  if (!parsed.success) {
    const errors = Object.fromEntries(parsed.error.issues.map((issue) => [issue.path.join('.') || 'body', issue.message]));
    throw badRequest(parsed.error.issues[0]?.message ?? 'The form is not valid.', errors);
  }
  return { body: parsed.data, files };
}

export function tripClaimsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(routesFor('signed-in', async (signedIn) => {
      signedIn.get('/booking/:id/claims', {
        schema: { tags, summary: "A booking's trip charges, its deposit and the claim window; the host's computed fuel, km and late-return lines (its host, renter, admins)", params: idParams, response: { 200: envelope(bookingClaimsSchema) } },
      }, async (request) => ({ success: true as const, data: await claims.bookingClaims(ctx, currentUser(request), request.params.id) }));

      signedIn.post('/booking/:id/claims', {
        schema: {
          tags,
          summary: 'File trip charges after check-out, within the window (the host; JSON, or multipart: claim = the JSON, evidence = photos)',
          consumes: ['application/json', 'multipart/form-data'],
          params: idParams,
          body: fileClaimBodySchema.optional(),
          response: { 201: envelope(claimSchema) },
        },
        // Multipart bodies are read by readBody; JSON is validated there too (one message shape).
        validatorCompiler: () => (data) => ({ value: data }),
      }, async (request, reply) => {
        const { body, files } = await readBody(request, 'claim', fileClaimBodySchema);
        const viewer = currentUser(request);
        const id = await claims.fileClaim(ctx, viewer, request.params.id, body, files);
        return reply.status(201).send({ success: true as const, message: 'Trip charges filed; the renter has been told', data: await claims.claimView(ctx, viewer, id) });
      });

      signedIn.get('/claims/:id', {
        schema: { tags, summary: 'One claim of trip charges (its host, renter, admins)', params: idParams, response: { 200: envelope(claimSchema) } },
      }, async (request) => ({ success: true as const, data: await claims.claimView(ctx, currentUser(request), request.params.id) }));

      signedIn.post('/claims/:id/answer', {
        schema: {
          tags,
          summary: 'Accept (paid at once: deposit first, then the card) or dispute trip charges with a statement and photos (the renter; JSON, or multipart: answer = the JSON, evidence = photos)',
          consumes: ['application/json', 'multipart/form-data'],
          params: idParams,
          body: answerClaimBodySchema.optional(),
          response: { 200: envelope(claimSchema) },
        },
        validatorCompiler: () => (data) => ({ value: data }),
      }, async (request) => {
        const { body, files } = await readBody(request, 'answer', answerClaimBodySchema);
        const viewer = currentUser(request);
        const outcome = await claims.answerClaim(ctx, viewer, request.params.id, body, files);
        return { success: true as const, message: outcome === 'accepted' ? 'Charges accepted and paid' : 'Charges disputed; Karoo will decide', data: await claims.claimView(ctx, viewer, request.params.id) };
      });

      signedIn.post('/claims/:id/payment', {
        schema: {
          tags,
          summary: 'Start paying what a declined card left owed on settled trip charges (the renter; 409 when nothing is owed by link): the checkout of exactly the amount owed, the open one when asked again',
          params: idParams,
          response: { 200: envelope(paymentSessionSchema) },
        },
      }, async (request) => ({ success: true as const, data: await claims.startClaimPayment(ctx, currentUser(request), request.params.id) }));

      signedIn.post('/claims/:id/payment/verify', {
        schema: {
          tags,
          summary: "Verify the payment link's reference with the provider and record the claim paid (the renter; idempotent per reference; 402 when not paid, 409 and a refund when already paid)",
          params: idParams,
          body: verifyClaimPaymentBodySchema,
          response: { 200: envelope(claimSchema) },
        },
      }, async (request) => {
        const viewer = currentUser(request);
        await claims.confirmClaimPayment(ctx, viewer, request.params.id, request.body.reference);
        return { success: true as const, message: 'Trip charges paid', data: await claims.claimView(ctx, viewer, request.params.id) };
      });

      signedIn.get('/claim-evidence/:id', {
        schema: { tags, summary: "A claim's evidence photo (its host, renter, admins)", params: idParams, querystring: privateFileQuerySchema },
        config: fileAnswer('The photo', ['image/jpeg']),
      }, async (request, reply) => {
        const photo = await claims.readEvidence(ctx, currentUser(request), request.params.id);
        return sendPrivateFile(reply, photo, { filename: `claim-evidence-${request.params.id}.jpg`, inline: request.query.inline ?? '1' });
      });
    }));

    await app.register(routesFor('admin', async (admins) => {
      admins.get('/admin/claims', {
        schema: { tags, summary: 'Claims in a state, oldest first (admin; disputed by default)', querystring: z.object({ status: z.enum(CLAIM_STATUSES).optional() }), response: { 200: envelope(z.array(claimSchema)) } },
      }, async (request) => ({ success: true as const, data: await claims.listClaimsForAdmin(ctx, request.query.status ?? 'disputed') }));

      admins.patch('/admin/claims/:id/decide', {
        schema: { tags, summary: 'Decide a disputed claim: an amount (at most what was claimed) and a reason; paid at once (admin, audited)', params: idParams, body: decideClaimBodySchema, response: { 200: envelope(claimSchema) } },
      }, async (request) => {
        const admin = currentUser(request);
        await claims.decideClaim(ctx, admin, request.params.id, request.body);
        return { success: true as const, message: 'Claim decided and paid', data: await claims.claimView(ctx, admin, request.params.id) };
      });
    }));
  };
}
