// Platform settings (document 3 sections 3, 5 and 9; decisions.md section 8). One record exposes
// both shapes the seed's screens read: shape A (camelCase) and shape B (snake_case). Keys that
// name the same value in both shapes always agree.
import { z } from './zod';
import { atMostRand, MAX_CAR_VALUE, MAX_RENTAL_DAYS_LIMIT } from './limits';
import { safeText } from './text';

/** Deposits and trip charges (issue 34; decision 065): the admin's bounds, fuel prices, windows and fee. */
export const tripChargeSettingsSchema = z.object({
  deposit_bands: z.array(z.object({ up_to_value: z.number().int().min(0), deposit: z.number().int().min(0).max(100_000) })).max(6),
  deposit_above: z.number().int().min(0).max(100_000),
  deposit_min: z.number().int().min(0).max(100_000),
  deposit_max: z.number().int().min(0).max(100_000),
  fuel_price_petrol_cents: z.number().int().min(100, 'Fuel price must be at least R 1 a litre').max(20_000),
  fuel_price_diesel_cents: z.number().int().min(100, 'Fuel price must be at least R 1 a litre').max(20_000),
  claim_window_hours: z.number().int().min(24, 'The claim window must be 24 to 336 hours').max(336, 'The claim window must be 24 to 336 hours'),
  answer_hours: z.number().int().min(24, 'The answer time must be 24 to 168 hours').max(168, 'The answer time must be 24 to 168 hours'),
  late_grace_minutes: z.number().int().min(0).max(240),
  late_hour_percent_of_day: z.number().min(0).max(100),
  claim_fee_percent: z.number().min(0).max(100),
});

export const CURRENCIES = ['ZAR', 'USD', 'EUR', 'GBP', 'CAD'] as const;

export const businessRulesSchema = z.object({
  require_host_approval: z.boolean(),
  instant_booking_enabled: z.boolean(),
  automatic_pricing_adjustment: z.boolean(),
  surge_pricing_enabled: z.boolean(),
});
export type BusinessRules = z.infer<typeof businessRulesSchema>;

export const settingsSchema = z.object({
  // Shape A
  platformCommission: z.number(),
  minCarValue: z.number(),
  maxRentalDays: z.number().int(),
  autoApproveHosts: z.boolean(),
  emailNotifications: z.boolean(),
  smsNotifications: z.boolean(),
  maintenanceMode: z.boolean(),
  // Shape B
  platform_fee: z.number(),
  currency: z.enum(CURRENCIES),
  commission_rate: z.number(),
  maximum_rental_duration_days: z.number().int(),
  maintenance_mode: z.boolean(),
  business_rules: businessRulesSchema,
  /** Rand charged to a host who cancels a paid trip more than 24 hours before it starts (decision 037). */
  host_cancellation_penalty_early: z.number(),
  /** Rand charged to a host who cancels a paid trip within 24 hours of its start. */
  host_cancellation_penalty_late: z.number(),
  /** Days an identity document's file is kept after its account was verified (POPIA s. 14; decision 050). */
  document_retention_days: z.number().int(),
  /** Days a rejected account's documents, or documents never completed for review, are kept. */
  unsubmitted_document_days: z.number().int(),
  /** The Information Officer the privacy page names (POPIA s. 55); an empty name shows the office alone. */
  information_officer_name: z.string(),
  information_officer_email: z.string(),
  information_officer_phone: z.string(),
  trip_charges: tripChargeSettingsSchema,
  /** Hours after a trip completes before its host's share is payable (until claims decide it; decision 068). */
  payout_delay_hours: z.number().int(),
  /** Hours payouts wait after a host changes their bank account (decision 068). */
  payout_account_hold_hours: z.number().int(),
  /** No scheduled payout is sent while true (an administrator's switch). */
  payouts_paused: z.boolean(),
});
export type PlatformSettings = z.infer<typeof settingsSchema>;


const percent = (label: string) =>
  z.number({ error: `${label} must be a number` }).min(0, `${label} must be between 0 and 100`).max(100, `${label} must be between 0 and 100`);
const rentalDays = z
  .number({ error: 'Maximum rental duration must be a number' })
  .int('Maximum rental duration must be a whole number of days')
  .min(1, `Maximum rental duration must be between 1 and ${MAX_RENTAL_DAYS_LIMIT} days`)
  .max(MAX_RENTAL_DAYS_LIMIT, `Maximum rental duration must be between 1 and ${MAX_RENTAL_DAYS_LIMIT} days`);

const penaltyRand = (label: string) =>
  z
    .number({ error: `${label} must be a number` })
    .int(`${label} must be a whole number of rand`)
    .min(0, `${label} cannot be negative`)
    .max(10_000, `${label} must be at most R 10 000`);

const retentionDays = (label: string, min: number, max: number) =>
  z
    .number({ error: `${label} must be a number of days` })
    .int(`${label} must be a whole number of days`)
    .min(min, `${label} must be between ${min} and ${max} days`)
    .max(max, `${label} must be between ${min} and ${max} days`);

const payoutHours = (label: string) =>
  z
    .number({ error: `${label} must be a number of hours` })
    .int(`${label} must be a whole number of hours`)
    .min(0, `${label} must be between 0 and 720 hours`)
    .max(720, `${label} must be between 0 and 720 hours`);

/** PUT /settings: the full object or any part of it, in either shape. */
export const updateSettingsBodySchema = z.object({
  platformCommission: percent('Commission').optional(),
  minCarValue: z
    .number({ error: 'Minimum car value must be a number' })
    .min(0, 'Minimum car value cannot be negative')
    .max(MAX_CAR_VALUE, atMostRand('Minimum car value', MAX_CAR_VALUE))
    .optional(),
  maxRentalDays: rentalDays.optional(),
  autoApproveHosts: z.boolean().optional(),
  emailNotifications: z.boolean().optional(),
  smsNotifications: z.boolean().optional(),
  maintenanceMode: z.boolean().optional(),
  platform_fee: percent('Platform fee').optional(),
  currency: z.enum(CURRENCIES, { error: `Currency must be one of ${CURRENCIES.join(', ')}` }).optional(),
  commission_rate: percent('Commission').optional(),
  maximum_rental_duration_days: rentalDays.optional(),
  maintenance_mode: z.boolean().optional(),
  business_rules: businessRulesSchema.partial().optional(),
  host_cancellation_penalty_early: penaltyRand('Early cancellation penalty').optional(),
  host_cancellation_penalty_late: penaltyRand('Late cancellation penalty').optional(),
  document_retention_days: retentionDays('Document retention after verification', 1, 3650).optional(),
  unsubmitted_document_days: retentionDays('Retention of rejected or unsubmitted documents', 1, 365).optional(),
  information_officer_name: safeText('Information Officer name').max(120, 'Information Officer name must be at most 120 characters').optional(),
  information_officer_email: z
    .string()
    .trim()
    .max(254)
    .email({ error: 'Information Officer email must be an email address' })
    .optional(),
  information_officer_phone: safeText('Information Officer phone')
    .max(40, 'Information Officer phone must be at most 40 characters')
    .regex(/^[+\d\s()-]*$/, 'Information Officer phone may only hold digits, spaces, +, ( ) and -')
    .optional(),
  trip_charges: tripChargeSettingsSchema
    .partial()
    .refine((t) => t.deposit_min === undefined || t.deposit_max === undefined || t.deposit_min <= t.deposit_max, { message: 'The smallest deposit cannot be above the largest', path: ['deposit_min'] })
    .optional(),
  payout_delay_hours: payoutHours('Payout delay').optional(),
  payout_account_hold_hours: payoutHours('Hold after a bank account change').optional(),
  payouts_paused: z.boolean().optional(),
});
export type UpdateSettingsBody = z.infer<typeof updateSettingsBodySchema>;

/**
 * The admin Settings tab's form (issue 10): one field per setting; a setting both shapes name is
 * one field (SETTINGS_KEY_PAIRS), written to both keys on save. Limits and messages are the update
 * body's own. Here rather than in the web app so that every schema is built with ./zod.
 */
const settingsBody = updateSettingsBodySchema.shape;

export const settingsFormSchema = z.object({
  platform_fee: settingsBody.platform_fee.unwrap(),
  commission_rate: settingsBody.commission_rate.unwrap(),
  currency: z.enum(CURRENCIES),
  minCarValue: settingsBody.minCarValue.unwrap(),
  maximum_rental_duration_days: settingsBody.maximum_rental_duration_days.unwrap(),
  autoApproveHosts: z.boolean(),
  require_host_approval: z.boolean(),
  instant_booking_enabled: z.boolean(),
  automatic_pricing_adjustment: z.boolean(),
  surge_pricing_enabled: z.boolean(),
  emailNotifications: z.boolean(),
  smsNotifications: z.boolean(),
  maintenance_mode: z.boolean(),
  host_cancellation_penalty_early: settingsBody.host_cancellation_penalty_early.unwrap(),
  host_cancellation_penalty_late: settingsBody.host_cancellation_penalty_late.unwrap(),
  document_retention_days: settingsBody.document_retention_days.unwrap(),
  unsubmitted_document_days: settingsBody.unsubmitted_document_days.unwrap(),
  information_officer_name: settingsBody.information_officer_name.unwrap(),
  information_officer_email: settingsBody.information_officer_email.unwrap(),
  information_officer_phone: settingsBody.information_officer_phone.unwrap(),
  trip_charges: tripChargeSettingsSchema.refine((t) => t.deposit_min <= t.deposit_max, { message: 'The smallest deposit cannot be above the largest', path: ['deposit_min'] }),
  payout_delay_hours: settingsBody.payout_delay_hours.unwrap(),
  payout_account_hold_hours: settingsBody.payout_account_hold_hours.unwrap(),
  payouts_paused: z.boolean(),
});
export type SettingsForm = z.infer<typeof settingsFormSchema>;
