// HTTP for the booking documents: GET /api/booking/{id}/receipt.pdf (the renter's receipt) and
// GET /api/booking/{id}/invoice.pdf (the host's invoice), as PDF files; failures are the JSON envelope.
import { safeText } from '@karoo/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { privateFileQuerySchema, sendPrivateFile } from '../../lib/uploads';
import { currentUser, routesFor } from '../../plugins/auth';
import { fileAnswer } from '../../plugins/openapi';
import { issueDocument, type DocumentKind } from './receipts.service';

const tags = ['Receipts'];
const idParams = z.object({ id: safeText('Id').min(1).max(100) });

const ROUTES: { kind: DocumentKind; summary: string; description: string }[] = [
  {
    kind: 'receipt',
    summary: "The renter's receipt of a paid booking as PDF (booking id or number; its renter or an admin)",
    description: 'The receipt: the trip price, every payment and refund with its state, any cancellation fee, and the VAT line. 409 when the booking was never paid.',
  },
  {
    kind: 'invoice',
    summary: "The host's invoice of a paid booking as PDF (booking id or number; the car's owner or an admin)",
    description: "The host invoice: the host's share after Karoo's host fee, any cancellation fee, penalties and payouts. 409 when the booking was never paid.",
  },
];

export function receiptsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return routesFor('signed-in', async (app) => {
    for (const { kind, summary, description } of ROUTES) {
      app.get(`/booking/:id/${kind}.pdf`, {
        schema: { tags, summary, description, params: idParams, querystring: privateFileQuerySchema },
        config: fileAnswer(`The ${kind}`, ['application/pdf']),
      }, async (request, reply) => {
        const { filename, pdf } = await issueDocument(ctx, currentUser(request), kind, request.params.id);
        return sendPrivateFile(reply, { data: pdf, mime: 'application/pdf' }, { filename, inline: request.query.inline });
      });
    }
  });
}
