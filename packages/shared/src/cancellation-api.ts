// The cancel route's body and the quote shown before anyone confirms (issue 20; decision 037). The
// amounts themselves come from cancellation.ts, on both sides.
import { z } from './zod';
import { safeText } from './text';
import { CANCELLATION_ACTORS } from './cancellation';

export const ADMIN_REFUND_CHOICES = ['full', 'policy', 'amount'] as const;
export type AdminRefundChoice = (typeof ADMIN_REFUND_CHOICES)[number];

const reasonText = safeText('The reason', { multiline: true }).max(1000, 'The reason must be at most 1000 characters');

/**
 * PATCH /booking/{id}/cancel. Unpaid bookings: the renter withdraws (host_response optional). Paid
 * trips: the renter, the host (no_show once the start has passed) or an administrator (refund
 * choice; an amount needs a reason), by the published policy.
 */
export const cancelBookingBodySchema = z
  .object({
    host_response: reasonText.optional(),
    reason: reasonText.optional(),
    no_show: z.boolean().optional(),
    refund: z.enum(ADMIN_REFUND_CHOICES, { error: `The refund must be one of ${ADMIN_REFUND_CHOICES.join(', ')}` }).optional(),
    /** Rand, for refund 'amount'. */
    refund_amount: z.number({ error: 'The refund amount must be a number' }).min(0, 'The refund amount cannot be negative').optional(),
    /**
     * Rand: the refund the screen showed before the person confirmed. When the amounts have changed
     * since (the free window ended while the dialog was open), the cancellation is refused with 409
     * and the new amounts, never carried out on figures nobody saw.
     */
    expected_refund: z.number({ error: 'The expected refund must be a number' }).min(0, 'The expected refund cannot be negative').optional(),
  })
  .loose()
  .nullable()
  .optional();
export type CancelBookingBody = NonNullable<z.infer<typeof cancelBookingBodySchema>>;

/** GET /booking/{id}/cancellation?no_show=&refund=&refund_amount=: what cancelling now would do, for the viewer's part. */
export const cancellationQuoteQuerySchema = z.object({
  no_show: z.enum(['true', 'false']).optional(),
  refund: z.enum(ADMIN_REFUND_CHOICES).optional(),
  refund_amount: z.coerce.number().min(0).optional(),
});

export const cancellationQuoteSchema = z.object({
  booking_id: z.string(),
  /** The part the viewer cancels as. */
  actor: z.enum(CANCELLATION_ACTORS),
  /** False with `blocked_reason` when the viewer cannot cancel now (the trip started, it is not paid...). */
  can_cancel: z.boolean(),
  blocked_reason: z.string().nullable(),
  /** A host may report a no-show once the start has passed. */
  no_show_available: z.boolean(),
  rule: z.string(),
  /** Rand. */
  paid: z.number(),
  refund: z.number(),
  fee: z.number(),
  host_share: z.number(),
  platform_share: z.number(),
  host_penalty: z.number(),
  trip_start: z.string(),
  free_until: z.string(),
  /** The policy in plain words with the real dates. */
  policy: z.string(),
  summary: z.string(),
  /** The host penalties now in force, rand (the admin's settings). */
  penalties: z.object({ early: z.number(), late: z.number() }),
});
export type CancellationQuote = z.infer<typeof cancellationQuoteSchema>;

/** GET /payments/admin/refunds?state=: refunds an administrator watches. */
export const adminRefundsQuerySchema = z.object({ state: z.enum(['pending', 'failed']).default('failed') });

export const adminRefundSchema = z.object({
  id: z.string(),
  booking_id: z.string(),
  booking_number: z.string(),
  renter_username: z.string(),
  /** Rand. */
  amount: z.number(),
  state: z.enum(['pending', 'failed']),
  reason: z.string().nullable(),
  last_error: z.string().nullable(),
  attempts: z.number().int(),
  requested_at: z.string(),
  /** For a failed refund: whether it was already asked for again. */
  retried: z.boolean(),
});
export type AdminRefundRow = z.infer<typeof adminRefundSchema>;

export const adminRefundRetrySchema = z.object({ outcome: z.enum(['refunded', 'pending', 'failed', 'busy', 'settled']) });
