// HTTP for /api/earnings/earning: host earnings, per-car profit, invoices, the platform's fee,
// the summary of the earnings dashboard and payouts.
import {
  adminAnalyticsQuerySchema,
  adminAnalyticsSchema,
  adminFinanceQuerySchema,
  adminFinanceSchema,
  appFeeSchema,
  earningSchema,
  earningsSummarySchema,
  envelope,
  invoiceSchema,
  profitPerCarSchema,
  reversePayoutBodySchema,
  safeText,
  updatePayoutBodySchema,
} from '@karoo/shared';
import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { currentUser, routesFor } from '../../plugins/auth';
import { fileAnswer } from '../../plugins/openapi';
import * as analytics from './admin-analytics.service';
import * as finance from './admin-finance.service';
import * as payouts from './admin-payouts.service';
import * as earnings from './earnings.service';

const tags = ['Earnings'];
const idParams = z.object({ id: safeText('Id').min(1).max(100) });
const base = '/earnings/earning';

export function earningsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    // ---- Signed-in: hosts see their own, admins everything ----
    await app.register(routesFor('signed-in', async (signedIn) => {
      signedIn.get(`${base}/getCarOwnerProfit/:id`, {
        schema: { tags, summary: "A host's earnings: one entry per completed or paid booking (that host or admin)", params: idParams, response: { 200: envelope(z.array(earningSchema)) } },
      }, async (request) => ({ success: true as const, data: await earnings.carOwnerProfit(ctx, currentUser(request), request.params.id) }));

      signedIn.get(`${base}/getProfitPerCar/:id`, {
        schema: { tags, summary: "A car's gross, host earnings and app fee (owner or admin)", params: idParams, response: { 200: envelope(profitPerCarSchema) } },
      }, async (request) => ({ success: true as const, data: await earnings.profitPerCar(ctx, currentUser(request), request.params.id) }));

      signedIn.post(`${base}/createInvoicePerCar/:id`, {
        schema: {
          tags,
          summary: 'The invoice of a completed booking (id in the path; owner or admin). Idempotent: 201 when made, 200 when it existed',
          params: idParams,
          response: { 200: envelope(invoiceSchema), 201: envelope(invoiceSchema) },
        },
      }, async (request, reply) => {
        const { invoice, created } = await earnings.createInvoice(ctx, currentUser(request), request.params.id);
        return reply.status(created ? 201 : 200).send({ success: true, message: created ? 'Invoice created' : 'Invoice already issued', data: invoice });
      });

      signedIn.get(`${base}/getInvoiceList`, {
        schema: { tags, summary: 'Own invoices; admins all', response: { 200: envelope(z.array(invoiceSchema)) } },
      }, async (request) => ({ success: true as const, data: await earnings.listInvoices(ctx, currentUser(request)) }));

      signedIn.get(`${base}/getSummary`, {
        schema: { tags, summary: 'Revenue, earnings and app fee by car and by month (own cars; admins all)', response: { 200: envelope(earningsSummarySchema) } },
      }, async (request) => ({ success: true as const, data: await earnings.summary(ctx, currentUser(request)) }));
    }));

    // ---- Admins ----
    await app.register(routesFor('admin', async (admins) => {
      admins.get(`${base}/getAppFee`, {
        schema: { tags, summary: "The fee settings and the platform's total app fee (admin)", response: { 200: envelope(appFeeSchema) } },
      }, async () => ({ success: true as const, data: await earnings.appFee(ctx) }));

      admins.patch(`${base}/updatePayout/:id`, {
        schema: {
          tags,
          summary: 'Record the payout of an earning (booking id; admin). Only a completed trip is payable; a paid payout is final (409: reverse it instead)',
          params: idParams,
          body: updatePayoutBodySchema,
          response: { 200: envelope(earningSchema) },
        },
      }, async (request) => ({
        success: true as const,
        message: 'Payout updated',
        data: await payouts.updatePayout(ctx, currentUser(request), request.params.id, request.body),
      }));

      admins.post('/earnings/admin/payouts/:id/reverse', {
        schema: {
          tags,
          summary: 'Reverse a paid payout with a reason (booking id or number; admin): kept as its own record and audited; the payout is owed again',
          params: idParams,
          body: reversePayoutBodySchema,
          response: { 200: envelope(earningSchema) },
        },
      }, async (request) => ({
        success: true as const,
        message: 'Payout reversed',
        data: await payouts.reversePayout(ctx, currentUser(request), request.params.id, request.body.reason),
      }));

      // The admin Finance tab: totals, fee structure, top cars, recent transactions, month over
      // month and the payouts owed, all SQL aggregates over the bookings that earn.
      admins.get('/earnings/admin/finance', {
        schema: { tags, summary: 'Finance figures of a period (Johannesburg dates, default all time) and the payouts owed (admin)', querystring: adminFinanceQuerySchema, response: { 200: envelope(adminFinanceSchema) } },
      }, async (request) => ({ success: true as const, data: await finance.adminFinance(ctx, request.query) }));

      // The admin Analytics tab: weekly bookings and revenue, rates, busiest cities, utilisation.
      admins.get('/admin/analytics', {
        schema: { tags, summary: 'Analytics of a period (Johannesburg dates, default the last 12 weeks ending today) (admin)', querystring: adminAnalyticsQuerySchema, response: { 200: envelope(adminAnalyticsSchema) } },
      }, async (request) => ({ success: true as const, data: await analytics.adminAnalytics(ctx, request.query) }));

      admins.get('/earnings/admin/transactions.csv', {
        schema: { tags, summary: 'The earning bookings of a period as CSV, rand with 2 decimals (admin)', querystring: adminFinanceQuerySchema },
        config: fileAnswer('The bookings as CSV', ['text/csv']),
      }, async (request, reply) => {
        const filename = finance.csvFilename(request.query, ctx.clock.now());
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${filename}"`)
          .header('cache-control', 'no-store')
          .send(Readable.from(finance.transactionsCsv(ctx, request.query)));
      });
    }));
  };
}
