// The Settings tab's form: one field per setting. A setting that both shapes of document 3 name
// (SETTINGS_KEY_PAIRS: platformCommission = commission_rate, maxRentalDays =
// maximum_rental_duration_days, maintenanceMode = maintenance_mode) is one field here, written to
// both keys on save, so the two shapes never disagree. Limits and messages are the shared ones.
import { SETTINGS_KEY_PAIRS, settingsFormSchema, type PlatformSettings, type SettingsForm } from '@karoo/shared';

export { settingsFormSchema, type SettingsForm };

/** The form's fields from the stored record (the shape B key of each pair; the shapes agree). */
export function formFromSettings(settings: PlatformSettings): SettingsForm {
  return {
    platform_fee: settings.platform_fee,
    commission_rate: settings.commission_rate,
    currency: settings.currency,
    minCarValue: settings.minCarValue,
    maximum_rental_duration_days: settings.maximum_rental_duration_days,
    autoApproveHosts: settings.autoApproveHosts,
    ...settings.business_rules,
    emailNotifications: settings.emailNotifications,
    smsNotifications: settings.smsNotifications,
    maintenance_mode: settings.maintenance_mode,
    host_cancellation_penalty_early: settings.host_cancellation_penalty_early,
    host_cancellation_penalty_late: settings.host_cancellation_penalty_late,
    document_retention_days: settings.document_retention_days,
    unsubmitted_document_days: settings.unsubmitted_document_days,
    information_officer_name: settings.information_officer_name,
    information_officer_email: settings.information_officer_email,
    information_officer_phone: settings.information_officer_phone,
    trip_charges: settings.trip_charges,
    payout_delay_hours: settings.payout_delay_hours,
    payout_account_hold_hours: settings.payout_account_hold_hours,
    payouts_paused: settings.payouts_paused,
  };
}

/** The full record Save All Settings sends: both shapes, each pair given the one field's value. */
export function settingsFromForm(form: SettingsForm): PlatformSettings {
  const settings: PlatformSettings = {
    platformCommission: form.commission_rate,
    minCarValue: form.minCarValue,
    maxRentalDays: form.maximum_rental_duration_days,
    autoApproveHosts: form.autoApproveHosts,
    emailNotifications: form.emailNotifications,
    smsNotifications: form.smsNotifications,
    maintenanceMode: form.maintenance_mode,
    platform_fee: form.platform_fee,
    currency: form.currency,
    commission_rate: form.commission_rate,
    maximum_rental_duration_days: form.maximum_rental_duration_days,
    maintenance_mode: form.maintenance_mode,
    host_cancellation_penalty_early: form.host_cancellation_penalty_early,
    host_cancellation_penalty_late: form.host_cancellation_penalty_late,
    document_retention_days: form.document_retention_days,
    unsubmitted_document_days: form.unsubmitted_document_days,
    information_officer_name: form.information_officer_name,
    information_officer_email: form.information_officer_email,
    information_officer_phone: form.information_officer_phone,
    trip_charges: form.trip_charges,
    payout_delay_hours: form.payout_delay_hours,
    payout_account_hold_hours: form.payout_account_hold_hours,
    payouts_paused: form.payouts_paused,
    business_rules: {
      // One switch said two ways (decision 056): a request needs the host's answer unless it is confirmed at once.
      require_host_approval: !form.instant_booking_enabled,
      instant_booking_enabled: form.instant_booking_enabled,
      automatic_pricing_adjustment: form.automatic_pricing_adjustment,
      surge_pricing_enabled: form.surge_pricing_enabled,
    },
  };
  // Every pair carries one value (a guard against a key added to the pairs but not here).
  for (const [a, b] of SETTINGS_KEY_PAIRS) (settings as Record<string, unknown>)[a] = settings[b];
  return settings;
}
