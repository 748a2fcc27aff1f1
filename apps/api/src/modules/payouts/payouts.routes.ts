// HTTP for /api/payouts (the host's bank account, schedule and payouts) and /api/admin/payouts
// (every transfer, the balance the next run needs, pause and Retry). Decision 068.
import {
  adminPayoutsSchema,
  bankSchema,
  envelope,
  finalizeTransferBodySchema,
  hostPayoutsSchema,
  pauseHostPayoutsBodySchema,
  payoutScheduleBodySchema,
  payoutTransferSchema,
  resolveBankAccountBodySchema,
  resolvedBankAccountSchema,
  safeText,
  saveBankAccountBodySchema,
} from '@karoo/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { currentUser, routesFor } from '../../plugins/auth';
import { fileAnswer } from '../../plugins/openapi';
import * as payouts from './payouts.service';
import { statementPdf } from './payouts.statement';

const tags = ['Payouts'];
const idParams = z.object({ id: safeText('Id').min(1).max(100) });
const monthParams = z.object({ month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'The month is YYYY-MM') });

export function payoutsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(routesFor('signed-in', async (signedIn) => {
      signedIn.get('/payouts/banks', {
        schema: { tags, summary: 'The South African banks payouts can be sent to', response: { 200: envelope(z.array(bankSchema)) } },
      }, async () => ({ success: true as const, data: await payouts.listBanks(ctx) }));

      signedIn.post('/payouts/bank-account/resolve', {
        schema: { tags, summary: "The bank's name for an account's holder, for the host to confirm (nothing saved)", body: resolveBankAccountBodySchema, response: { 200: envelope(resolvedBankAccountSchema) } },
      }, async (request) => ({ success: true as const, data: await payouts.resolveAccount(ctx, currentUser(request), request.body) }));

      signedIn.put('/payouts/bank-account', {
        schema: {
          tags,
          summary: 'Saves the confirmed bank account (resolved again, a transfer recipient made); a change holds payouts for the cooling-off hours and is emailed to the host',
          body: saveBankAccountBodySchema,
          response: { 200: envelope(hostPayoutsSchema) },
        },
      }, async (request) => ({ success: true as const, data: await payouts.saveAccount(ctx, currentUser(request), request.body) }));

      signedIn.put('/payouts/schedule', {
        schema: { tags, summary: 'The host chooses when payouts run: each trip, weekly on a weekday, monthly on a day', body: payoutScheduleBodySchema, response: { 200: envelope(hostPayoutsSchema) } },
      }, async (request) => ({ success: true as const, data: await payouts.setSchedule(ctx, currentUser(request), request.body) }));

      signedIn.get('/payouts', {
        schema: { tags, summary: "The host's account, schedule, next payout with its lines, and every transfer", response: { 200: envelope(hostPayoutsSchema) } },
      }, async (request) => ({ success: true as const, data: await payouts.hostPayouts(ctx, currentUser(request)) }));

      signedIn.get('/payouts/statements/:month', {
        schema: { tags, summary: "The host's payout statement of a month (PDF): every transfer of the month with its state, reference and trips", params: monthParams },
        config: fileAnswer('The statement', ['application/pdf']),
      }, async (request, reply) => {
        const pdf = await statementPdf(ctx, currentUser(request), request.params.month);
        return reply
          .header('content-type', 'application/pdf')
          .header('content-disposition', `attachment; filename="karoo-payouts-${request.params.month}.pdf"`)
          .header('cache-control', 'private, no-store')
          .send(pdf);
      });
    }));

    await app.register(routesFor('admin', async (admin) => {
      admin.get('/admin/payouts', {
        schema: { tags, summary: 'Scheduled, sent, failed and reversed transfers, the balance the next run needs, paused hosts', response: { 200: envelope(adminPayoutsSchema) } },
      }, async () => ({ success: true as const, data: await payouts.adminPayouts(ctx) }));

      admin.post('/admin/payouts/transfers/:id/retry', {
        schema: { tags, summary: 'Sends a failed or reversed transfer again: what the host is owed now, as a new transfer (audited)', params: idParams, response: { 200: envelope(payoutTransferSchema) } },
      }, async (request) => ({ success: true as const, data: await payouts.retryTransfer(ctx, currentUser(request), request.params.id) }));

      admin.post('/admin/payouts/transfers/:id/finalize', {
        schema: { tags, summary: "Gives Paystack the OTP of a transfer waiting for it (audited)", params: idParams, body: finalizeTransferBodySchema, response: { 200: envelope(payoutTransferSchema) } },
      }, async (request) => ({ success: true as const, data: await payouts.finalizeTransfer(ctx, currentUser(request), request.params.id, request.body.otp) }));

      admin.put('/admin/payouts/hosts/:id/pause', {
        schema: { tags, summary: "Pauses (with a reason) or resumes one host's payouts (audited)", params: idParams, body: pauseHostPayoutsBodySchema, response: { 200: envelope(adminPayoutsSchema) } },
      }, async (request) => ({ success: true as const, data: await payouts.pauseHost(ctx, currentUser(request), request.params.id, request.body) }));
    }));
  };
}
