// Host earnings, invoices and the platform's fee (document 3 sections 7 and 9; decisions.md
// section 5): every figure is a sum of the breakdown stored on each booking, in rand.
import { z } from './zod';
import { safeText } from './text';

export const PAYOUT_STATUSES = ['pending', 'processing', 'paid'] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

export const earningSchema = z.object({
  id: z.string(),
  booking_id: z.string(),
  car_username: z.string(),
  car_name: z.string(),
  status: z.string(),
  start_date: z.string(),
  end_date: z.string(),
  /** The booking's total_price. */
  gross: z.number(),
  total_price: z.number(),
  subtotal: z.number(),
  pickup_fee: z.number(),
  car_owner_earnings: z.number(),
  app_fee: z.number(),
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
  gross: z.number(),
  car_owner_earnings: z.number(),
  app_fee: z.number(),
  bookings: z.number().int(),
});
export type ProfitPerCar = z.infer<typeof profitPerCarSchema>;

export const invoiceLineSchema = z.object({ description: z.string(), amount: z.number() });
export const invoiceSchema = z.object({
  id: z.string(),
  invoice_number: z.string(),
  invoice_car_username: z.string(),
  car_username: z.string(),
  booking_id: z.string(),
  booking_number: z.string(),
  total_amount: z.number(),
  car_owner_earnings: z.number(),
  app_fee: z.number(),
  line_items: z.array(invoiceLineSchema),
  issued_at: z.string(),
});
export type Invoice = z.infer<typeof invoiceSchema>;

export const appFeeSchema = z.object({ platform_fee: z.number(), platformCommission: z.number(), total_app_fee: z.number() });

export const earningsSummarySchema = z.object({
  /** What renters paid in total for these bookings (total_price: rental, pickup, service fee, insurance). */
  total_revenue: z.number(),
  /** The host's part of that: rental and pickup fees (subtotal + pickup_fee), before the host fee. */
  rental_income: z.number(),
  /** The host fee kept from the rental income (rental_income - total_earnings). */
  host_fee: z.number(),
  total_earnings: z.number(),
  /** Everything Karoo keeps: the host fee plus the renters' service fees and insurance (total_revenue - total_earnings). */
  app_fee: z.number(),
  bookings: z.number().int(),
  by_car: z.array(profitPerCarSchema),
  by_month: z.array(
    z.object({ month: z.string(), revenue: z.number(), earnings: z.number(), app_fee: z.number(), bookings: z.number().int() }),
  ),
});
export type EarningsSummary = z.infer<typeof earningsSummarySchema>;

export const updatePayoutBodySchema = z.object({
  payout_status: z.enum(PAYOUT_STATUSES, { error: `payout_status must be one of ${PAYOUT_STATUSES.join(', ')}` }),
  payout_reference: safeText('payout_reference').max(200).nullable().optional(),
});
