// Platform settings (document 3 sections 3, 5 and 9; decisions.md section 8). One record exposes
// both shapes the seed's screens read: shape A (camelCase) and shape B (snake_case). Keys that
// name the same value in both shapes always agree.
import { z } from './zod';
import { SUPPORT_EMAIL } from './constants';
import { atMostRand, MAX_CAR_VALUE, MAX_RENTAL_DAYS_LIMIT } from './limits';
import { safeText } from './text';

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
});
export type PlatformSettings = z.infer<typeof settingsSchema>;

export const DEFAULT_SETTINGS: PlatformSettings = {
  platformCommission: 10,
  minCarValue: 50000,
  maxRentalDays: 30,
  autoApproveHosts: true,
  emailNotifications: true,
  smsNotifications: false,
  maintenanceMode: false,
  platform_fee: 25,
  currency: 'ZAR',
  commission_rate: 10,
  maximum_rental_duration_days: 30,
  maintenance_mode: false,
  business_rules: {
    require_host_approval: true,
    instant_booking_enabled: false,
    automatic_pricing_adjustment: false,
    surge_pricing_enabled: false,
  },
  host_cancellation_penalty_early: 250,
  host_cancellation_penalty_late: 500,
  document_retention_days: 90,
  unsubmitted_document_days: 30,
  information_officer_name: '',
  information_officer_email: SUPPORT_EMAIL,
  information_officer_phone: '',
};

/** The host penalties of the cancellation policy, in cents, from the settings. */
export function hostPenaltiesOf(settings: Pick<PlatformSettings, 'host_cancellation_penalty_early' | 'host_cancellation_penalty_late'>) {
  return {
    hostPenaltyEarlyCents: Math.round(settings.host_cancellation_penalty_early * 100),
    hostPenaltyLateCents: Math.round(settings.host_cancellation_penalty_late * 100),
  };
}

/** The largest host penalty an administrator may set, in rand. */
export const MAX_HOST_PENALTY = 10_000;

/** Pairs of keys (shape A, shape B) that hold one value. */
export const SETTINGS_KEY_PAIRS = [
  ['platformCommission', 'commission_rate'],
  ['maxRentalDays', 'maximum_rental_duration_days'],
  ['maintenanceMode', 'maintenance_mode'],
] as const;

export const MAINTENANCE_MESSAGE = 'Karoo is under maintenance. Please try again later.';

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
});
export type UpdateSettingsBody = z.infer<typeof updateSettingsBodySchema>;

export type SettingsMergeResult = { settings: PlatformSettings } | { error: string; field: string };

/**
 * Applies an update to the current settings and keeps the paired keys equal. A client that sends
 * the whole object after editing one shape sends the other shape's old value too: the value that
 * differs from the current one is the edit. Two different new values for one setting are refused.
 */
export function mergeSettings(current: PlatformSettings, update: UpdateSettingsBody): SettingsMergeResult {
  const next: PlatformSettings = {
    ...current,
    business_rules: { ...current.business_rules, ...stripUndefined(update.business_rules ?? {}) },
  };
  for (const key of [
    'minCarValue',
    'autoApproveHosts',
    'emailNotifications',
    'smsNotifications',
    'platform_fee',
    'currency',
    'host_cancellation_penalty_early',
    'host_cancellation_penalty_late',
    'document_retention_days',
    'unsubmitted_document_days',
    'information_officer_name',
    'information_officer_email',
    'information_officer_phone',
  ] as const) {
    if (update[key] !== undefined) (next as Record<string, unknown>)[key] = update[key];
  }
  for (const [a, b] of SETTINGS_KEY_PAIRS) {
    const va = update[a];
    const vb = update[b];
    const changedA = va !== undefined && va !== current[a];
    const changedB = vb !== undefined && vb !== current[b];
    let value: PlatformSettings[typeof a] = current[a];
    if (changedA && changedB && va !== vb) {
      return { error: `${a} and ${b} are the same setting; send one value for both`, field: b };
    }
    if (changedA) value = va as typeof value;
    else if (changedB) value = vb as typeof value;
    (next as Record<string, unknown>)[a] = value;
    (next as Record<string, unknown>)[b] = value;
  }
  return { settings: next };
}

/** Stored data merged over the defaults, with the pairs made to agree (shape A wins on disagreement). */
export function normaliseSettings(stored: Partial<PlatformSettings> | null | undefined): PlatformSettings {
  const merged: PlatformSettings = {
    ...DEFAULT_SETTINGS,
    ...stripUndefined(stored ?? {}),
    business_rules: { ...DEFAULT_SETTINGS.business_rules, ...stripUndefined(stored?.business_rules ?? {}) },
  };
  for (const [a, b] of SETTINGS_KEY_PAIRS) (merged as Record<string, unknown>)[b] = merged[a];
  return merged;
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

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
});
export type SettingsForm = z.infer<typeof settingsFormSchema>;
