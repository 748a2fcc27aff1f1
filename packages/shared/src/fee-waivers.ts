// Consumer Protection Act s. 17(5) (issue 34; docs/decisions/067-cpa-section-17-waiver.md): no
// cancellation fee when the renter, or a member of their immediate family, died or was admitted to
// hospital. The renter asks with evidence on a cancelled trip that kept a fee; an admin approves or
// declines with a reason; approved, the fee comes back through the refund queue as a ledger row.
import { safeText } from './text';
import { z } from './zod';

export const WAIVER_GROUNDS = ['death', 'hospital'] as const;
export type WaiverGround = (typeof WAIVER_GROUNDS)[number];
export const WAIVER_PERSONS = ['renter', 'family'] as const;
export const WAIVER_STATUSES = ['requested', 'approved', 'declined'] as const;
export type WaiverStatus = (typeof WAIVER_STATUSES)[number];

/** The request's text part (multipart field `waiver` as JSON); the certificate or letter is the file `evidence`. */
export const requestWaiverBodySchema = z.object({
  ground: z.enum(WAIVER_GROUNDS, { error: 'Say whether it was a death or a hospital admission' }),
  person: z.enum(WAIVER_PERSONS, { error: 'Say whether it was you or a member of your immediate family' }),
  statement: safeText('Statement', { multiline: true }).max(2000).optional().default(''),
});
export type RequestWaiverBody = z.output<typeof requestWaiverBodySchema>;

export const decideWaiverBodySchema = z.object({
  decision: z.enum(['approve', 'decline'], { error: 'Decision must be approve or decline' }),
  reason: safeText('Reason', { multiline: true }).min(10, 'Give the reason in at least 10 characters').max(1000),
});
export type DecideWaiverBody = z.output<typeof decideWaiverBodySchema>;

export const feeWaiverSchema = z.object({
  id: z.string(),
  booking_id: z.string(),
  booking_number: z.string(),
  ground: z.enum(WAIVER_GROUNDS),
  person: z.enum(WAIVER_PERSONS),
  statement: z.string(),
  fee: z.number(),
  status: z.enum(WAIVER_STATUSES),
  decision_reason: z.string().nullable(),
  decided_at: z.string().nullable(),
  evidence_url: z.string(),
  created_at: z.string(),
});
export type FeeWaiver = z.infer<typeof feeWaiverSchema>;
