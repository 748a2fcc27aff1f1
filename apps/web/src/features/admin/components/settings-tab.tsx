// The admin panel's Settings tab (document 3 sections 3, 4, 5, 8 and 9; decisions.md section 8):
// every platform setting of both shapes, in sections, edited locally until Save All Settings sends
// the whole record; a "You have unsaved changes" note and Discard. A setting named in both shapes
// is one field (settings-form.ts). The host cancellation penalties of the cancellation policy
// (decision 037) are two whole-rand fields. The Security section: Change Admin Password and Clear
// System Cache.
import { zodResolver } from '@hookform/resolvers/zod';
import { CURRENCIES, MAX_HOST_PENALTY, type PlatformSettings } from '@karoo/shared';
import { clsx } from 'clsx';
import { Ban, Bell, CalendarClock, Percent, Save, ShieldCheck, Undo2, Workflow, Wrench } from 'lucide-react';
import { useEffect, type ReactNode } from 'react';
import { useForm, type Path } from 'react-hook-form';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardBody, CardHeader } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { Input, inputClasses } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { useNotification } from '@/components/ui/toast';
import { isApiError, messageOf } from '@/lib/api-client';
import { useSettings } from '@/lib/queries/settings';
import { useUpdateSettings } from '../api/update-settings';
import { formFromSettings, settingsFormSchema, settingsFromForm, type SettingsForm } from './settings-form';
import { BreachesSection } from './breaches-section';
import { SecuritySection } from './settings-security';

export const SAVE_FAILED_MESSAGE = 'Failed to save settings. Please try again.';

export function SettingsTab() {
  const settings = useSettings();
  if (settings.isPending) {
    return (
      <div className="flex justify-center py-16">
        <Spinner label="Loading settings" />
      </div>
    );
  }
  if (settings.isError) {
    return <Alert tone="danger" title="Could not load the settings">{messageOf(settings.error, 'Please try again with Refresh.')}</Alert>;
  }
  return (
    <div className="space-y-6">
      <PlatformSettingsForm settings={settings.data} />
      <SecuritySection />
      <BreachesSection />
    </div>
  );
}

/** What the tab says of a switch nothing reads yet (issue 32): never one that silently does nothing. */
export const NOT_READ_YET = 'Stored for a later release; nothing reads it yet.';

/**
 * A stored setting that no code acts on yet, shown as it is stored and not editable, with what is
 * true today. Not a form field: the form keeps the stored value and saves it unchanged.
 */
function StoredForLater({ label, checked, today }: { label: string; checked: boolean; today: string }) {
  return <Checkbox label={label} checked={checked} disabled readOnly description={`${NOT_READ_YET} ${today}`} />;
}

/** Which shape B key a form field's server error may arrive under, for each form field. */
const SERVER_FIELDS: Record<string, Path<SettingsForm>> = {
  platformCommission: 'commission_rate',
  maxRentalDays: 'maximum_rental_duration_days',
  maintenanceMode: 'maintenance_mode',
};

function PlatformSettingsForm({ settings }: { settings: PlatformSettings }) {
  const notify = useNotification();
  const save = useUpdateSettings();
  const form = useForm<SettingsForm>({ resolver: zodResolver(settingsFormSchema), defaultValues: formFromSettings(settings) });
  const { register, formState, reset, handleSubmit, setError } = form;
  const errors = formState.errors;
  const isDirty = formState.isDirty;

  // A refresh of the settings (Refresh, another tab's save) shows the new values, unless the admin
  // is in the middle of an edit: local changes are never overwritten.
  useEffect(() => {
    if (!form.formState.isDirty) reset(formFromSettings(settings));
  }, [settings, reset, form]);

  const onSave = handleSubmit(async (values) => {
    try {
      const saved = await save.mutateAsync(settingsFromForm(values));
      reset(formFromSettings(saved));
      notify.success('Settings saved', 'The new settings apply from the next booking on.');
    } catch (error) {
      if (isApiError(error)) {
        for (const [field, message] of Object.entries(error.errors)) {
          const target = SERVER_FIELDS[field] ?? field;
          if (target in settingsFormSchema.shape) setError(target as Path<SettingsForm>, { type: 'server', message });
        }
      }
      notify.error('Save Failed', messageOf(error, SAVE_FAILED_MESSAGE));
    }
  });

  const number = (name: Path<SettingsForm>) => register(name, { valueAsNumber: true });

  return (
    <form onSubmit={onSave} noValidate aria-label="Platform settings" className="space-y-6">
      <div className="grid gap-6 lg:grid-cols-2">
        <Section title="Fees" description="Percentages of a booking, from 0 to 100." icon={<Percent className="size-5" aria-hidden="true" />}>
          <Input
            label="Platform fee (%)"
            type="number"
            inputMode="decimal"
            step="0.1"
            min={0}
            max={100}
            hint="Kept from the host's earnings on each booking."
            error={errors.platform_fee?.message}
            {...number('platform_fee')}
          />
          <Input
            label="Service fee / commission (%)"
            type="number"
            inputMode="decimal"
            step="0.1"
            min={0}
            max={100}
            hint="Added to the renter's price (platform commission)."
            error={errors.commission_rate?.message}
            {...number('commission_rate')}
          />
          <div>
            <label htmlFor="settings-currency" className="mb-1.5 block text-sm font-medium text-stone-700">
              Currency
            </label>
            <select id="settings-currency" className={clsx(inputClasses, 'border-stone-300')} {...register('currency')}>
              {CURRENCIES.map((currency) => (
                <option key={currency} value={currency}>
                  {currency}
                </option>
              ))}
            </select>
          </div>
        </Section>

        <Section title="Rentals" description="Limits on cars and bookings." icon={<CalendarClock className="size-5" aria-hidden="true" />}>
          <Input
            label="Maximum rental duration (days)"
            type="number"
            inputMode="numeric"
            step="1"
            min={1}
            max={365}
            hint="From 1 to 365 days; longer booking requests are refused."
            error={errors.maximum_rental_duration_days?.message}
            {...number('maximum_rental_duration_days')}
          />
          <Input
            label="Minimum car value (R)"
            type="number"
            inputMode="numeric"
            step="1"
            min={0}
            hint="Cars worth less cannot be listed."
            error={errors.minCarValue?.message}
            {...number('minCarValue')}
          />
        </Section>

        <Section
          title="Host cancellations"
          description="What a host pays for cancelling a paid trip, deducted from their next payout. The renter always gets everything back."
          icon={<Ban className="size-5" aria-hidden="true" />}
        >
          <Input
            label="Penalty more than 24 hours before the start (R)"
            type="number"
            inputMode="numeric"
            step="1"
            min={0}
            max={MAX_HOST_PENALTY}
            hint={`Whole rand, from 0 to ${MAX_HOST_PENALTY.toLocaleString('en-ZA')}.`}
            error={errors.host_cancellation_penalty_early?.message}
            {...number('host_cancellation_penalty_early')}
          />
          <Input
            label="Penalty within 24 hours of the start (R)"
            type="number"
            inputMode="numeric"
            step="1"
            min={0}
            max={MAX_HOST_PENALTY}
            hint="Whole rand; charged from 24 hours before the start."
            error={errors.host_cancellation_penalty_late?.message}
            {...number('host_cancellation_penalty_late')}
          />
        </Section>

        <Section
          title="Deposits and trip charges"
          description="The deposit a host may set, the fuel prices, how long hosts may claim after a trip and renters may answer, and the platform's fee on claims (fuel, tolls and fines pass to the host in full)."
          icon={<Percent className="size-5" aria-hidden="true" />}
        >
          <Input label="Smallest deposit a host may set (R)" type="number" inputMode="numeric" step="1" min={0} hint="A host may always choose R 0." error={errors.trip_charges?.deposit_min?.message} {...number('trip_charges.deposit_min')} />
          <Input label="Largest deposit (R)" type="number" inputMode="numeric" step="1" min={0} error={errors.trip_charges?.deposit_max?.message} {...number('trip_charges.deposit_max')} />
          <Input label="Petrol price (cents a litre)" type="number" inputMode="numeric" step="1" min={100} hint="2345 is R 23.45 a litre." error={errors.trip_charges?.fuel_price_petrol_cents?.message} {...number('trip_charges.fuel_price_petrol_cents')} />
          <Input label="Diesel price (cents a litre)" type="number" inputMode="numeric" step="1" min={100} error={errors.trip_charges?.fuel_price_diesel_cents?.message} {...number('trip_charges.fuel_price_diesel_cents')} />
          <Input label="Hosts may claim for (hours after check-out)" type="number" inputMode="numeric" step="1" min={24} max={336} hint="The deposit comes back when this closes." error={errors.trip_charges?.claim_window_hours?.message} {...number('trip_charges.claim_window_hours')} />
          <Input label="Renters may answer for (hours)" type="number" inputMode="numeric" step="1" min={24} max={168} hint="Unanswered charges are accepted." error={errors.trip_charges?.answer_hours?.message} {...number('trip_charges.answer_hours')} />
          <Input label="Late return grace (minutes)" type="number" inputMode="numeric" step="1" min={0} max={240} error={errors.trip_charges?.late_grace_minutes?.message} {...number('trip_charges.late_grace_minutes')} />
          <Input label="Each started late hour (% of the daily price)" type="number" inputMode="decimal" step="1" min={0} max={100} error={errors.trip_charges?.late_hour_percent_of_day?.message} {...number('trip_charges.late_hour_percent_of_day')} />
          <Input label="Platform fee on claims (%)" type="number" inputMode="decimal" step="1" min={0} max={100} hint="Not taken on fuel, tolls and traffic fines." error={errors.trip_charges?.claim_fee_percent?.message} {...number('trip_charges.claim_fee_percent')} />
        </Section>

        <Section title="Business rules" icon={<Workflow className="size-5" aria-hidden="true" />}>
          {/* One switch: require_host_approval is its opposite, saved with it (decision 056). */}
          <Checkbox
            label="Instant booking"
            description="On: hosts may confirm requests at once, car by car, for renters who meet the requirements they choose; those cars show the Instant badge. Off (a kill switch): every request waits for its host to accept it, whatever the cars' settings."
            {...register('instant_booking_enabled')}
          />
          <StoredForLater
            label="Auto-approve hosts"
            checked={settings.autoApproveHosts}
            today="Anyone who lists a car becomes a host at once, and every car waits for an admin's verification before it is listed."
          />
          <StoredForLater label="Automatic pricing adjustment" checked={settings.business_rules.automatic_pricing_adjustment} today="Prices are the host's daily price." />
          <StoredForLater label="Surge pricing" checked={settings.business_rules.surge_pricing_enabled} today="Prices do not change with demand." />
        </Section>

        <Section title="Notifications" icon={<Bell className="size-5" aria-hidden="true" />}>
          <Checkbox label="Email notifications" {...register('emailNotifications')} />
          <StoredForLater label="SMS notifications" checked={settings.smsNotifications} today="Notices go by email and in the app." />
        </Section>

        <Section
          title="Privacy (POPIA)"
          description="How long identity documents are kept, and the Information Officer the privacy page names."
          icon={<ShieldCheck className="size-5" aria-hidden="true" />}
        >
          <Input
            label="Keep documents after verification (days)"
            type="number"
            inputMode="numeric"
            step="1"
            min={1}
            max={3650}
            hint="Each file is then deleted; the fact of verification, who verified and when are kept. The person is told."
            error={errors.document_retention_days?.message}
            {...number('document_retention_days')}
          />
          <Input
            label="Keep rejected or unsubmitted documents (days)"
            type="number"
            inputMode="numeric"
            step="1"
            min={1}
            max={365}
            hint="Documents of a rejected account, or never completed for review, are deleted after this."
            error={errors.unsubmitted_document_days?.message}
            {...number('unsubmitted_document_days')}
          />
          <Input label="Information Officer's name" autoComplete="off" error={errors.information_officer_name?.message} {...register('information_officer_name')} />
          <Input label="Information Officer's email" type="email" autoComplete="off" error={errors.information_officer_email?.message} {...register('information_officer_email')} />
          <Input label="Information Officer's phone" type="tel" autoComplete="off" error={errors.information_officer_phone?.message} {...register('information_officer_phone')} />
        </Section>
      </div>

      <Section title="Maintenance" icon={<Wrench className="size-5" aria-hidden="true" />}>
        <Checkbox
          label="Maintenance mode"
          description="Everyone but admins is refused changes, and every page shows a maintenance banner."
          {...register('maintenance_mode')}
        />
      </Section>

      {/* Sticky: Save stays in reach however far down the admin has scrolled. */}
      <div className="sticky bottom-3 z-10 flex flex-wrap items-center justify-between gap-3 rounded-2xl border border-stone-200 bg-white p-3 shadow-card sm:px-5">
        <p className="text-sm font-medium" aria-live="polite">
          {isDirty ? <span className="text-amber-700">You have unsaved changes</span> : <span className="text-stone-500">All changes saved</span>}
        </p>
        <div className="flex gap-2">
          <Button variant="ghost" icon={<Undo2 className="size-4" aria-hidden="true" />} disabled={!isDirty || save.isPending} onClick={() => reset()}>
            Discard
          </Button>
          <Button type="submit" icon={<Save className="size-4" aria-hidden="true" />} loading={save.isPending} disabled={!isDirty}>
            Save All Settings
          </Button>
        </div>
      </div>
    </form>
  );
}

function Section({ title, description, icon, children }: { title: string; description?: string; icon: ReactNode; children: ReactNode }) {
  return (
    <Card>
      <CardHeader title={title} description={description} icon={icon} />
      <CardBody className="space-y-4">{children}</CardBody>
    </Card>
  );
}
