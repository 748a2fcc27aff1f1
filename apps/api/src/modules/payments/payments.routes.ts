// HTTP for payments: the checkout session and pay call of a booking, Paystack's signed webhook
// (raw body, for the signature) and the sandbox's test-card checkout.
import {
  adminRefundRetrySchema,
  adminRefundSchema,
  adminRefundsQuerySchema,
  bookingSchema,
  cancellationQuoteQuerySchema,
  cancellationQuoteSchema,
  emptyEnvelope,
  envelope,
  PAYMENT_MESSAGES,
  payBookingBodySchema,
  paymentSessionSchema,
  safeText,
  sandboxChargeBodySchema,
  sandboxChargeResultSchema,
} from '@karoo/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { currentUser, routesFor } from '../../plugins/auth';
import { createBookingAnswers } from '../bookings';
import { settleClaimCharge, type ClaimChargeHandler } from './claim-checkouts';
import * as payments from './payments.service';
import { feeWaiversRoutes } from './fee-waivers.routes';
import { quoteCancellation } from './trip-cancellations';

const tags = ['Payments'];
const idParams = z.object({ id: safeText('Id').min(1).max(100) });

/**
 * What the app passes in: Paystack sends transfer events to the one webhook, and the payouts module
 * (above this one) reads them; a charge of a claim's payment link is recorded by the trips module
 * (above this one too), from the webhook and the sandbox checkout.
 */
export interface PaymentsRoutesDeps {
  onTransferEvent?: payments.TransferEventHandler;
  onClaimCharge?: ClaimChargeHandler;
}

export function paymentsRoutes(ctx: AppContext, deps: PaymentsRoutesDeps = {}): FastifyPluginAsyncZod {
  const { toBookingAnswer } = createBookingAnswers(payments.findVisibleLedger);
  const { onClaimCharge } = deps;
  const settleClaim: payments.ClaimChargeSettler | undefined = onClaimCharge ? (c, payment) => settleClaimCharge(c, payment, onClaimCharge) : undefined;
  return async (app) => {
    await app.register(feeWaiversRoutes(ctx));
    // ---- Signed-in: paying one's own booking ----
    await app.register(routesFor('signed-in', async (signedIn) => {
      signedIn.post('/booking/:id/payment-session', {
        schema: { tags, summary: 'Start paying a confirmed, unpaid booking (renter): reference, amount in cents, provider', params: idParams, response: { 200: envelope(paymentSessionSchema) } },
      }, async (request) => ({ success: true as const, data: await payments.createPaymentSession(ctx, currentUser(request), request.params.id) }));

      signedIn.post('/booking/pay/:id', {
        schema: {
          tags,
          summary: 'Verify a payment reference with the provider and activate the booking (idempotent per reference; 402 when not verified)',
          params: idParams,
          body: payBookingBodySchema,
          response: { 200: envelope(bookingSchema) },
        },
      }, async (request) => {
        const viewer = currentUser(request);
        const record = await payments.payBooking(ctx, viewer, request.params.id, request.body.paystack_reference);
        return { success: true as const, message: PAYMENT_MESSAGES.activated, data: await toBookingAnswer(ctx, viewer, record) };
      });

      signedIn.get('/booking/:id/cancellation', {
        schema: {
          tags,
          summary: 'What cancelling this paid trip now would give back and cost, for your part (renter, host, admin), by the published policy; the same function decides PATCH /booking/{id}/cancel',
          params: idParams,
          querystring: cancellationQuoteQuerySchema,
          response: { 200: envelope(cancellationQuoteSchema) },
        },
      }, async (request) => {
        const q = request.query;
        // A quote prices the choice; the reason an amount needs is asked when cancelling.
        const data = await quoteCancellation(ctx, currentUser(request), request.params.id, {
          ...(q.no_show === 'true' ? { noShow: true } : {}),
          ...(q.refund ? { refund: q.refund } : {}),
          ...(q.refund_amount !== undefined ? { refundAmountCents: Math.round(q.refund_amount * 100) } : {}),
        });
        return { success: true as const, data };
      });

      signedIn.post('/payments/sandbox/charge', {
        schema: { tags, summary: 'Sandbox checkout: charge a test card for a reference (404 with Paystack)', body: sandboxChargeBodySchema, response: { 200: envelope(sandboxChargeResultSchema) } },
      }, async (request) => {
        const result = await payments.sandboxCharge(ctx, currentUser(request), request.body, settleClaim);
        return { success: true as const, message: result.message, data: result };
      });
    }));

    // ---- Administrators: refunds that are waiting or failed, and a Retry ----
    await app.register(routesFor('admin', async (admins) => {
      admins.get('/payments/admin/refunds', {
        schema: { tags, summary: 'Refunds not yet accepted by the provider (pending) or given up after repeated refusals (failed), oldest first', querystring: adminRefundsQuerySchema, response: { 200: envelope(z.array(adminRefundSchema)) } },
      }, async (request) => ({ success: true as const, data: await payments.listUnsettledRefunds(ctx, request.query.state) }));

      admins.post('/payments/admin/refunds/:id/retry', {
        schema: { tags, summary: 'Ask the provider again for a failed refund (a new pending refund; the failed one stays on record); audited', params: idParams, response: { 200: envelope(adminRefundRetrySchema) } },
      }, async (request) => {
        const outcome = await payments.retryFailedRefund(ctx, currentUser(request), request.params.id);
        const message =
          outcome === 'refunded'
            ? 'The refund was paid back to the card by the payment provider.'
            : outcome === 'failed'
              ? 'The payment provider refused the refund again.'
              : 'The refund was asked for again; the provider has not paid it out yet, and it is checked again in a minute.';
        return { success: true as const, message, data: { outcome } };
      });
    }));

    // ---- Public: Paystack's webhook (its HMAC signature is the check) ----
    // The signature covers the exact bytes Paystack sent, so this route alone keeps the raw body.
    await app.register(async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
      scope.post('/payments/paystack/webhook', {
        schema: { tags, summary: 'Paystack events, signed with x-paystack-signature (HMAC SHA512 of the raw body)', response: { 200: emptyEnvelope } },
      }, async (request) => {
        const header = request.headers['x-paystack-signature'];
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const result = await payments.handlePaystackWebhook(ctx, raw, typeof header === 'string' ? header : undefined, { onTransferEvent: deps.onTransferEvent, settleClaimCharge: settleClaim });
        return { success: true as const, message: result.message, data: null };
      });
    });
  };
}
