// Paying for a booking (decisions.md section 6): the server issues a reference tied to one
// booking, asks the provider for the verdict, checks status, amount and currency itself, and
// activates the booking in one conditional UPDATE. The unique payment_reference column makes it
// idempotent under concurrency: the same reference activates once, never two bookings.
import { randomBytes } from 'node:crypto';
import { PAYMENT_MESSAGES, SANDBOX_DECLINED_CARD, SANDBOX_SUCCESS_CARD, type PaymentSession, type sandboxChargeBodySchema } from '@karoo/shared';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import { inTransaction } from '../../events/domain-events';
import type { UserRow } from '../../db/schema';
import { AppError, conflict, forbidden, notFound } from '../../lib/app-error';
import { paymentProvider, PaymentProviderError } from '../../lib/payments';
import { transition } from '../bookings/booking-status';
import type { BookingRecord } from '../bookings/bookings.service';
import { expireOverdueBookings, findBookingById, findVisibleBooking } from '../bookings/bookings.service';
import * as repo from './payments.repository';

const NOT_PAYABLE = 'Payment is offered only for confirmed bookings not yet paid.';
const OTHER_BOOKING = 'Could not activate booking. This payment reference belongs to another booking.';

/** 502: the provider gave no verdict (unreachable or failing); nothing was recorded. */
const PROVIDER_UNAVAILABLE = 502;

/** 402: the payment was not verified; the booking stays confirmed and unpaid. */
const paymentRefused = (reason: string) => new AppError(402, `${PAYMENT_MESSAGES.couldNotActivate} ${reason}`);

function requireRenter(viewer: UserRow, booking: BookingRecord) {
  if (booking.renter_id !== viewer.id) throw forbidden('Only the renter can pay for this booking.');
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: string }).code === '23505';
}

/** POST /booking/{id}/payment-session: a fresh reference for this booking and what checkout needs. */
export async function createPaymentSession(ctx: AppContext, viewer: UserRow, idOrNumber: string): Promise<PaymentSession> {
  await expireOverdueBookings(ctx);
  const booking = await findVisibleBooking(ctx, viewer, idOrNumber);
  requireRenter(viewer, booking);
  if (booking.status !== 'confirmed' || booking.payment_status !== 'unpaid') throw conflict(NOT_PAYABLE);
  const provider = paymentProvider(ctx);
  const reference = `KAROO-${booking.booking_number}-${randomBytes(6).toString('hex').toUpperCase()}`;
  const amount = booking.total_price_cents;
  await repo.insertPayment(ctx.db, { reference, booking_id: booking.id, provider: provider.name, amount_cents: amount }, ctx.clock.now());
  let accessCode: string | undefined;
  try {
    accessCode = (await provider.initialize({ reference, amountCents: amount, currency: 'ZAR', email: viewer.email })).accessCode;
  } catch (error) {
    if (error instanceof PaymentProviderError) throw new AppError(PROVIDER_UNAVAILABLE, error.message);
    throw error;
  }
  return {
    provider: provider.name,
    ...(provider.publicKey ? { public_key: provider.publicKey } : {}),
    reference,
    amount,
    currency: 'ZAR',
    email: viewer.email,
    ...(accessCode ? { access_code: accessCode } : {}),
  };
}

/** POST /booking/pay/{id}: the renter reports a reference; it is verified, then the booking is activated. */
export async function payBooking(ctx: AppContext, viewer: UserRow, idOrNumber: string, reference: string): Promise<BookingRecord> {
  await expireOverdueBookings(ctx);
  const booking = await findVisibleBooking(ctx, viewer, idOrNumber);
  requireRenter(viewer, booking);
  return settlePayment(ctx, booking, reference);
}

/** The one code path that turns a verified reference into an active booking (pay call and webhook). */
async function settlePayment(ctx: AppContext, booking: BookingRecord, reference: string): Promise<BookingRecord> {
  // Idempotent: the reference that already paid this booking answers the booking again.
  if (booking.payment_status === 'paid' && booking.payment_reference === reference) return booking;
  const payment = await repo.findPayment(ctx.db, reference);
  if (payment && payment.booking_id !== booking.id) throw conflict(OTHER_BOOKING);
  if (booking.status !== 'confirmed' || booking.payment_status !== 'unpaid') throw conflict(NOT_PAYABLE);
  if (!payment) throw paymentRefused('This payment reference was not issued for this booking.');

  const provider = paymentProvider(ctx);
  let verdict;
  try {
    verdict = await provider.verify(reference);
  } catch (error) {
    if (error instanceof PaymentProviderError) throw new AppError(PROVIDER_UNAVAILABLE, error.message);
    throw error;
  }
  let problem: string | null = null;
  if (verdict.status !== 'success') problem = verdict.status === 'failed' ? 'The payment was not successful.' : 'The payment could not be verified.';
  else if (verdict.reference !== reference) problem = 'The payment reference does not match.';
  else if (verdict.amountCents !== booking.total_price_cents) problem = 'The amount paid does not match the booking total.';
  else if (verdict.currency !== 'ZAR') problem = 'The payment was not made in rand (ZAR).';
  if (problem) {
    if (payment.provider !== 'sandbox') {
      await repo.recordOutcome(ctx.db, reference, 'failed', problem, ctx.clock.now());
    }
    throw paymentRefused(problem);
  }

  try {
    return await inTransaction(ctx, async (tx) => {
      const paid = await transition(tx, booking, {
        to: 'active',
        actor: 'payment',
        set: { payment_status: 'paid', paid_at: tx.now, payment_reference: reference, payment_provider: provider.name },
      });
      await repo.recordOutcome(tx.db, reference, 'success', null, tx.now);
      return paid;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(OTHER_BOOKING);
    if (!(error instanceof AppError) || error.status !== 409) throw error;
    // Another request (or the webhook) settled it first: the same reference is a success.
    const current = await findBookingById(ctx, booking.id);
    if (current && current.payment_status === 'paid' && current.payment_reference === reference) return current;
    throw conflict(NOT_PAYABLE);
  }
}

/**
 * POST /payments/paystack/webhook: a signed charge.success activates its booking through the same
 * path as the pay call. A handled or rightly refused event answers 200; when Paystack's verify call
 * cannot be made (network, Paystack's 5xx) it answers 503, so that Paystack sends the event again
 * rather than leave a paid booking unpaid.
 */
export async function handlePaystackWebhook(ctx: AppContext, rawBody: Buffer, signature: string | undefined): Promise<{ handled: boolean; message: string }> {
  const provider = paymentProvider(ctx);
  if (provider.name !== 'paystack') throw notFound('Route not found');
  if (!provider.isSignedWebhook(rawBody, signature)) throw new AppError(401, 'Invalid webhook signature.');
  let event: { event?: string; data?: { reference?: string } };
  try {
    event = JSON.parse(rawBody.toString('utf8')) as typeof event;
  } catch {
    throw new AppError(400, 'The request body is not valid JSON.');
  }
  const reference = event.data?.reference;
  if (event.event !== 'charge.success' || !reference) return { handled: false, message: 'Event ignored' };
  const payment = await repo.findPayment(ctx.db, reference);
  if (!payment) return { handled: false, message: 'Unknown reference' };
  const booking = await findBookingById(ctx, payment.booking_id);
  if (!booking) return { handled: false, message: 'Unknown booking' };
  try {
    await settlePayment(ctx, booking, reference);
    return { handled: true, message: 'Booking activated' };
  } catch (error) {
    if (error instanceof AppError && error.status === PROVIDER_UNAVAILABLE) {
      throw new AppError(503, 'The payment could not be verified with Paystack right now; send the event again later.');
    }
    // A verdict was reached (refused, already paid, not payable): 200, so Paystack stops retrying.
    if (error instanceof AppError) return { handled: false, message: error.message };
    throw error;
  }
}

type SandboxChargeInput = z.output<typeof sandboxChargeBodySchema>;

function isExpired(expiry: string, now: Date): boolean {
  const [mm, yy] = expiry.split('/') as [string, string];
  const year = yy.length === 2 ? 2000 + Number(yy) : Number(yy);
  // A card is valid until the end of its expiry month.
  return Date.UTC(year, Number(mm), 1) <= now.getTime();
}

/** POST /payments/sandbox/charge: the local test-card checkout records the outcome. */
export async function sandboxCharge(ctx: AppContext, viewer: UserRow, body: SandboxChargeInput): Promise<{ status: 'success' | 'failed'; message: string }> {
  if (paymentProvider(ctx).name !== 'sandbox') throw notFound('Route not found');
  const payment = await repo.findPayment(ctx.db, body.reference);
  if (!payment || payment.provider !== 'sandbox') throw notFound('Payment reference not found');
  const booking = await findVisibleBooking(ctx, viewer, payment.booking_id);
  requireRenter(viewer, booking);
  if (isExpired(body.expiry, ctx.clock.now())) throw new AppError(400, 'This card has expired.', { expiry: 'The card has expired' });
  if (payment.status === 'success') return { status: 'success', message: 'Payment approved.' };
  const now = ctx.clock.now();
  const outcome: { status: 'success' | 'failed'; message: string } =
    body.card_number === SANDBOX_SUCCESS_CARD
      ? { status: 'success', message: 'Payment approved.' }
      : body.card_number === SANDBOX_DECLINED_CARD
        ? { status: 'failed', message: PAYMENT_MESSAGES.declined }
        : { status: 'failed', message: `This is not a sandbox test card. Use ${SANDBOX_SUCCESS_CARD} to pay.` };
  await repo.recordOutcome(ctx.db, body.reference, outcome.status, outcome.status === 'failed' ? outcome.message : null, now);
  return outcome;
}
