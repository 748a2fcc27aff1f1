// The platform settings' values (document 3 sections 3, 5 and 9; decisions.md section 8): the
// defaults, the paired keys of the two shapes, and how stored and updated settings are merged. The
// schemas are settings.ts's; apart from them, the public pages read settings without loading zod.
import { SUPPORT_EMAIL } from './constants';
import type { PlatformSettings, UpdateSettingsBody } from './settings';
import { DEFAULT_TRIP_CHARGE_SETTINGS } from './trip-charge-settings';

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
  trip_charges: DEFAULT_TRIP_CHARGE_SETTINGS,
  payout_delay_hours: 48,
  payout_account_hold_hours: 48,
  payouts_paused: false,
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

/**
 * Whether hosts' instant booking is in force (decision 078): the admin's kill switch over every
 * car's choice. Off, every request waits for its host and no card says Instant; on, a request for a
 * car whose host turned instant booking on, from a renter who meets its requirements, is confirmed
 * at once (instantBookingUnmet). `require_host_approval` is the same switch said the other way
 * round; the two always disagree (decision 056).
 */
export function isInstantBookingAllowed(settings: Pick<PlatformSettings, 'business_rules'>): boolean {
  return settings.business_rules.instant_booking_enabled;
}

/**
 * The business rules with instant booking and host approval made one switch: they are always
 * opposite, so the one whose value differs from the current one is the edit (as for the paired
 * keys: a client sends the whole object back) and the other becomes its opposite.
 */
function mergeBookingApproval(current: PlatformSettings['business_rules'], next: PlatformSettings['business_rules'], update: UpdateSettingsBody['business_rules']): void {
  const approval = update?.require_host_approval;
  const changedApproval = approval !== undefined && approval !== current.require_host_approval;
  const changedInstant = update?.instant_booking_enabled !== undefined && update.instant_booking_enabled !== current.instant_booking_enabled;
  const instant = changedInstant ? next.instant_booking_enabled : changedApproval ? !approval : current.instant_booking_enabled;
  next.instant_booking_enabled = instant;
  next.require_host_approval = !instant;
}

export const MAINTENANCE_MESSAGE = 'Karoo is under maintenance. Please try again later.';

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
    trip_charges: { ...current.trip_charges, ...stripUndefined(update.trip_charges ?? {}) },
  };
  if (next.trip_charges.deposit_min > next.trip_charges.deposit_max) return { error: 'The smallest deposit cannot be above the largest', field: 'trip_charges.deposit_min' };
  mergeBookingApproval(current.business_rules, next.business_rules, update.business_rules);
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
    'payout_delay_hours',
    'payout_account_hold_hours',
    'payouts_paused',
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
    trip_charges: { ...DEFAULT_SETTINGS.trip_charges, ...stripUndefined(stored?.trip_charges ?? {}) },
  };
  for (const [a, b] of SETTINGS_KEY_PAIRS) (merged as Record<string, unknown>)[b] = merged[a];
  // Instant booking is what requests have always followed, so it wins over a stored host approval that disagrees.
  merged.business_rules.require_host_approval = !merged.business_rules.instant_booking_enabled;
  return merged;
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
