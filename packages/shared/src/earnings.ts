// Host earnings, invoices and the platform's fee (document 3 sections 7 and 9; decisions.md
// sections 5 and 12): every money figure is a sum of ledger rows (docs/decisions/039-one-ledger.md),
// in rand; a period counts the money that moved in it, so a closed period never changes.
import { z } from './zod';
import { dateRangeQuerySchema } from './calendar-date';
import { safeText } from './text';

export const PAYOUT_STATUSES = ['pending', 'processing', 'paid'] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

/**
 * The payout state a booking's badge shows, from the ledger (decision 056): its payout workflow's
 * state while the booking holds a share for its host (`hostShare`, rand, the sum of its host_earning
 * rows) or once something was paid out; none when nothing is owed (a trip refunded in full, a host's
 * own cancellation), so no screen says "Payout pending" for money nobody owes.
 */
export function shownPayoutStatus(payoutStatus: PayoutStatus, hostShare: number): PayoutStatus | null {
  if (payoutStatus === 'paid' || payoutStatus === 'processing') return payoutStatus;
  return hostShare > 0 ? payoutStatus : null;
}

export const earningSchema = z.object({
  id: z.string(),
  booking_id: z.string(),
  car_username: z.string(),
  car_name: z.string(),
  status: z.string(),
  start_date: z.string(),
  end_date: z.string(),
  /** What the renter paid and kept paid: the host's and the platform's shares (a cancelled trip keeps only its fee). */
  gross: z.number(),
  /** The booking's price as booked (total_price, subtotal and pickup fee): what the shares were taken from. */
  total_price: z.number(),
  subtotal: z.number(),
  pickup_fee: z.number(),
  /** The host's share: of the rental, or of the cancellation fee of a cancelled trip. */
  car_owner_earnings: z.number(),
  app_fee: z.number(),
  /** Refunded to the renter (refunds the provider accepted). */
  refunded: z.number(),
  /** The cancellation fee the renter paid (host's and platform's parts), when the trip was cancelled late. */
  cancellation_fee: z.number(),
  /** The host's penalty for cancelling this trip, deducted from their payouts. */
  penalty: z.number(),
  commission_rate: z.number(),
  payout_status: z.enum(PAYOUT_STATUSES),
  payout_reference: z.string().nullable(),
  payout_at: z.string().nullable(),
  paid_at: z.string().nullable(),
  completed_at: z.string().nullable(),
});
export type Earning = z.infer<typeof earningSchema>;

export const profitPerCarSchema = z.object({
  car_username: z.string(),
  car_name: z.string(),
  /** What tells two cars of one make and model apart (two Polos of one host). */
  car_year: z.number().int(),
  car_color: z.string(),
  car_plate_number: z.string(),
  gross: z.number(),
  car_owner_earnings: z.number(),
  app_fee: z.number(),
  bookings: z.number().int(),
});
export type ProfitPerCar = z.infer<typeof profitPerCarSchema>;

export const invoiceLineSchema = z.object({ description: z.string(), amount: z.number() });
const invoicePartySchema = z.object({ username: z.string(), full_name: z.string() });
export const invoiceSchema = z.object({
  id: z.string(),
  invoice_number: z.string(),
  invoice_car_username: z.string(),
  car_username: z.string(),
  /** The car as a person names it: "2021 Volkswagen Polo", with its colour and plate below. */
  car_name: z.string(),
  car: z.object({ make: z.string(), model: z.string(), year: z.number().int(), color: z.string(), plate_number: z.string() }),
  renter: invoicePartySchema,
  host: invoicePartySchema,
  booking_id: z.string(),
  booking_number: z.string(),
  start_date: z.string(),
  end_date: z.string(),
  /** What the renter paid: rental, service fee, insurance and pickup (the line items add up to it). */
  total_amount: z.number(),
  /** The host's part: rental and pickup fee (pickup_fee of it), before the host fee. */
  rental_income: z.number(),
  pickup_fee: z.number(),
  /** The host fee kept from the rental income, at host_fee_rate: the rate stored on the booking when it was made. */
  host_fee: z.number(),
  host_fee_rate: z.number(),
  car_owner_earnings: z.number(),
  /** Everything Karoo keeps of the total: the host fee, the renter's service fee and insurance. */
  app_fee: z.number(),
  line_items: z.array(invoiceLineSchema),
  issued_at: z.string(),
});
export type Invoice = z.infer<typeof invoiceSchema>;

export const appFeeSchema = z.object({ platform_fee: z.number(), platformCommission: z.number(), total_app_fee: z.number() });

export const earningsSummarySchema = z.object({
  /** What renters paid and kept paid for these bookings (rental, pickup, service fee, insurance; a cancellation's fee). */
  total_revenue: z.number(),
  /** The host's part of that: rental and pickup fees (and cancellation fees), before the host fee. */
  rental_income: z.number(),
  /** The host fee kept from the rental income (rental_income - total_earnings). */
  host_fee: z.number(),
  total_earnings: z.number(),
  /** Everything Karoo keeps: the host fee plus the renters' service fees and insurance (total_revenue - total_earnings). */
  app_fee: z.number(),
  /** Paid trips (a trip cancelled after payment is one, with what it kept). */
  bookings: z.number().int(),
  /** Penalties charged to the host for cancelling, deducted from their payouts. */
  penalties: z.number(),
  by_car: z.array(profitPerCarSchema),
  /** By Johannesburg month of when the money moved: a trip is counted in the month it was paid, a cancellation in its own. */
  by_month: z.array(
    z.object({ month: z.string(), revenue: z.number(), earnings: z.number(), app_fee: z.number(), bookings: z.number().int() }),
  ),
});
export type EarningsSummary = z.infer<typeof earningsSummarySchema>;

export const updatePayoutBodySchema = z.object({
  payout_status: z.enum(PAYOUT_STATUSES, { error: `payout_status must be one of ${PAYOUT_STATUSES.join(', ')}` }),
  payout_reference: safeText('payout_reference').max(200).nullable().optional(),
});

/** How long the reason of a payout reversal may be (it is kept with the reversal and in the audit log). */
export const PAYOUT_REVERSAL_REASON_MAX = 500;

/** POST /earnings/admin/payouts/{id}/reverse: why a paid payout is taken back (required). */
export const reversePayoutBodySchema = z.object({
  reason: safeText('reason', { multiline: true, error: 'Please give the reason for the reversal.' })
    .min(1, 'Please give the reason for the reversal.')
    .max(PAYOUT_REVERSAL_REASON_MAX, `The reason must be at most ${PAYOUT_REVERSAL_REASON_MAX} characters.`),
});
export type ReversePayoutBody = z.infer<typeof reversePayoutBodySchema>;

// ---- Admin Finance (document 3, Admin panel "Finance"; decisions.md sections 5 and 7) ----

/** `?from=YYYY-MM-DD&to=YYYY-MM-DD`, Johannesburg dates, both optional (all time without them). */
export const adminFinanceQuerySchema = dateRangeQuerySchema;
export type AdminFinanceQuery = z.infer<typeof adminFinanceQuerySchema>;

/** The money that moved in a period (ledger rows by when they moved; a closed period never changes). */
export const financeTotalsSchema = z.object({
  /** What renters paid and kept paid: host earnings + platform revenue (a cancellation takes its part back on its day). */
  gross: z.number(),
  host_earnings: z.number(),
  /** Everything the platform kept: service fees + insurance + host fees. */
  platform_revenue: z.number(),
  service_fees: z.number(),
  insurance: z.number(),
  /** The host fee kept from rentals and pickups, and from cancellation fees. */
  host_fees: z.number(),
  /** The host fee and service fee rates these bookings were taken at (each booking keeps its own), ascending. */
  host_fee_rates: z.array(z.number()),
  service_fee_rates: z.array(z.number()),
  /** Trips paid in the period. */
  bookings: z.number().int(),
  /** Taken from renters' cards (every charge, also one refunded since). */
  charged: z.number(),
  /** Paid back to renters (refunds the provider accepted; one pending or failed has not moved). */
  refunds: z.number(),
  /** Cancellation fees kept from renters (the host's and the platform's parts; in gross). */
  cancellation_fees: z.number(),
  /** Penalties charged to hosts for cancelling (deducted from their payouts). */
  penalties: z.number(),
  /** Paid out to hosts, less reversals. */
  paid_out: z.number(),
});
export type FinanceTotals = z.infer<typeof financeTotalsSchema>;

/** One booking's money on one Johannesburg day (its payment, a cancellation, a refund, a payout...). */
export const financeTransactionSchema = z.object({
  /** The booking and the day: `${booking_id}:${day}`. */
  id: z.string(),
  booking_id: z.string(),
  booking_number: z.string(),
  car_username: z.string(),
  car_name: z.string(),
  renter_username: z.string(),
  host_username: z.string(),
  /** When the first of that day's money moved. */
  date: z.string(),
  /** That day, YYYY-MM-DD in Johannesburg. */
  day: z.string(),
  charged: z.number(),
  refunded: z.number(),
  /** host_earnings + app_fee: negative on the day a cancellation takes shares back. */
  gross: z.number(),
  service_fee: z.number(),
  insurance: z.number(),
  host_fee: z.number(),
  cancellation_fee: z.number(),
  host_earnings: z.number(),
  app_fee: z.number(),
  penalty: z.number(),
  paid_out: z.number(),
  /** The booking's state now (not money: a later day can change it). */
  status: z.string(),
  payout_status: z.enum(PAYOUT_STATUSES),
  /** The booking's host share to date (all its host_earning rows): what a payout would be for (shownPayoutStatus). */
  host_share: z.number(),
});
export type FinanceTransaction = z.infer<typeof financeTransactionSchema>;

export const financeHostPayoutSchema = z.object({
  host_id: z.string(),
  host_username: z.string(),
  host_name: z.string(),
  /** Final trips (completed, or cancelled with a fee kept) whose payout is not paid yet (a trip under way is not payable). */
  bookings: z.number().int(),
  /** The host's balance: shares of final trips less penalties, less payouts, plus reversals. */
  amount_owed: z.number(),
  booking_ids: z.array(z.string()),
});
export type FinanceHostPayout = z.infer<typeof financeHostPayoutSchema>;

/** One booking's payout marked paid (final: corrected only by a reversal). */
export const financePaidPayoutSchema = z.object({
  booking_id: z.string(),
  booking_number: z.string(),
  host_id: z.string(),
  host_username: z.string(),
  host_name: z.string(),
  car_name: z.string(),
  /** What was transferred (the host's share, less any penalty still owed). */
  amount: z.number(),
  payout_reference: z.string().nullable(),
  /** When it was marked paid (null for payouts recorded before that was kept). */
  paid_at: z.string().nullable(),
});
export type FinancePaidPayout = z.infer<typeof financePaidPayoutSchema>;

/** A paid payout taken back: what had been paid, and why, by whom, when. */
export const financePayoutReversalSchema = z.object({
  id: z.string(),
  booking_id: z.string(),
  booking_number: z.string(),
  host_username: z.string(),
  amount: z.number(),
  payout_reference: z.string().nullable(),
  paid_at: z.string().nullable(),
  reason: z.string(),
  /** The administrator's username. */
  reversed_by: z.string(),
  reversed_at: z.string(),
});
export type FinancePayoutReversal = z.infer<typeof financePayoutReversalSchema>;

export const adminFinanceSchema = z.object({
  period: z.object({ from: z.string().nullable(), to: z.string().nullable() }),
  totals: financeTotalsSchema,
  fee_structure: z.object({ platform_fee: z.number(), platformCommission: z.number() }),
  top_cars: z.array(profitPerCarSchema),
  recent_transactions: z.array(financeTransactionSchema),
  /** Johannesburg months ('YYYY-MM'), whatever the period. */
  month_over_month: z.object({
    this_month: z.string(),
    last_month: z.string(),
    current: financeTotalsSchema,
    previous: financeTotalsSchema,
  }),
  /** Every payout still owed (all time): the hosts whose balance is above zero, largest first. */
  payouts: z.array(financeHostPayoutSchema),
  /** The most recent payouts marked paid (all time), newest first. */
  paid_payouts: z.array(financePaidPayoutSchema),
  /** The most recent payout reversals (all time), newest first. */
  payout_reversals: z.array(financePayoutReversalSchema),
});
export type AdminFinance = z.infer<typeof adminFinanceSchema>;

/**
 * The CSV of a period's money: a line per booking and Johannesburg day on which its money moved.
 * Only what moved that day, never a booking's state today, so a closed period's file never changes.
 */
export const FINANCE_CSV_HEADER = [
  'date',
  'booking number',
  'car',
  'renter',
  'host',
  'charged',
  'refunded',
  'service fee',
  'insurance',
  'host fee',
  'cancellation fee',
  'host earnings',
  'platform revenue',
  'host penalty',
  'paid out',
] as const;
