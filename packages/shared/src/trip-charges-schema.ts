// The bodies of the trip-charge routes (issue 34; decision 065), apart from trip-charges.ts so the
// pages that show a deposit or a distance allowance load no zod (decision 053).
import { z } from './zod';
import { safeText } from './text';
import { TRIP_CHARGE_KINDS } from './trip-charges';

export const MAX_CLAIM_STATEMENT = 2000;
/** The largest single charge a host may file (R 500 000: a write-off is an insurance matter). */
export const MAX_CLAIM_ITEM_CENTS = 50_000_000;

/** One charge in a claim: computed kinds take no amount (the server computes it); the others need one (rand). */
export const claimItemInputSchema = z.object({
  kind: z.enum(TRIP_CHARGE_KINDS, { error: `Kind must be one of ${TRIP_CHARGE_KINDS.join(', ')}` }),
  amount: z
    .number({ error: 'Amount must be a number of rand' })
    .positive('Amount must be more than R 0')
    .max(MAX_CLAIM_ITEM_CENTS / 100, 'Amount must be at most R 500 000')
    .optional(),
  note: safeText('Note', { multiline: true }).max(500, 'Note must be at most 500 characters').optional().default(''),
});

/** The text part of a claim (multipart field `claim` as JSON, or a JSON body); evidence files are `evidence`. */
export const fileClaimBodySchema = z.object({
  items: z.array(claimItemInputSchema).min(1, 'Add at least one charge').max(TRIP_CHARGE_KINDS.length, 'One line per kind of charge'),
  statement: safeText('Statement', { multiline: true }).max(MAX_CLAIM_STATEMENT).optional().default(''),
});
export type FileClaimBody = z.output<typeof fileClaimBodySchema>;

export const answerClaimBodySchema = z.object({
  answer: z.enum(['accept', 'dispute'], { error: 'Answer must be accept or dispute' }),
  statement: safeText('Statement', { multiline: true }).max(MAX_CLAIM_STATEMENT).optional().default(''),
});

/** The reference of a claim's payment link the renter paid (decision 073): verified with the provider, never trusted. */
export const verifyClaimPaymentBodySchema = z.object({
  reference: safeText('reference', { error: 'reference is required' }).min(1, 'reference is required').max(200),
});
export type VerifyClaimPaymentBody = z.infer<typeof verifyClaimPaymentBodySchema>;

export const decideClaimBodySchema = z.object({
  amount: z.number({ error: 'Amount must be a number of rand' }).min(0, 'Amount cannot be negative').max(MAX_CLAIM_ITEM_CENTS / 100),
  reason: safeText('Reason', { multiline: true }).min(10, 'Give the reason in at least 10 characters').max(MAX_CLAIM_STATEMENT),
});
