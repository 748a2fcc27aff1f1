// "Instant booking" of a car (issue 36, decision 078): off, or on for verified renters who meet the
// requirements the host picks (completed trips, a rating from hosts, years with a licence). The
// form's resolver is the shared updateInstantBookingBodySchema, the schema the server validates
// with. While the admin has paused instant booking across Karoo the panel says so: the choice is
// kept and applies when it resumes.
import { zodResolver } from '@hookform/resolvers/zod';
import {
  DEFAULT_INSTANT_BOOKING,
  formatStars,
  INSTANT_LICENCE_CHOICES,
  INSTANT_RATING_CHOICES,
  INSTANT_TRIP_CHOICES,
  instantBookingSummary,
  updateInstantBookingBodySchema,
  type Car,
  type InstantBooking,
  type InstantBookingInput,
} from '@karoo/shared';
import { useId } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { inputClasses } from '@/components/ui/input';
import { useNotification } from '@/components/ui/toast';
import { messageOf } from '@/lib/api-client';
import { useInstantBookingAllowed } from '@/lib/queries/settings';
import { useUpdateInstantBooking } from '../api/update-instant-booking';

interface FormValues {
  enabled: boolean;
  min_trips: string;
  min_rating: string;
  min_licence_years: string;
}

function toForm(rules: InstantBooking): FormValues {
  return {
    enabled: rules.enabled,
    min_trips: String(rules.min_trips),
    min_rating: rules.min_rating === null ? '' : String(rules.min_rating),
    min_licence_years: rules.min_licence_years === null ? '' : String(rules.min_licence_years),
  };
}

/** The preset choices, keeping a value set through the API that is not one of them. */
function withCurrent(choices: readonly number[], current: number | null): number[] {
  return current === null || choices.includes(current) ? [...choices] : [...choices, current].sort((a, b) => a - b);
}

export function InstantBookingEditor({ car, username }: { car: Car; username: string }) {
  const id = useId();
  const notify = useNotification();
  const update = useUpdateInstantBooking(username);
  const allowed = useInstantBookingAllowed();
  const current = car.instant_booking ?? DEFAULT_INSTANT_BOOKING;
  const {
    register,
    handleSubmit,
    control,
    reset,
    formState: { isDirty },
  } = useForm<FormValues, unknown, InstantBookingInput>({ resolver: zodResolver(updateInstantBookingBodySchema) as never, defaultValues: toForm(current) });
  const values = useWatch({ control });
  const enabled = values.enabled === true;
  const preview = instantBookingSummary({
    enabled,
    min_trips: Number(values.min_trips) || 0,
    min_rating: values.min_rating ? Number(values.min_rating) : null,
    min_licence_years: values.min_licence_years ? Number(values.min_licence_years) : null,
  });

  const save = handleSubmit(async (body) => {
    try {
      const saved = await update.mutateAsync({ carId: car.id, body });
      reset(toForm(saved.instant_booking ?? DEFAULT_INSTANT_BOOKING));
      notify.success('Instant Booking Saved', saved.instant_booking?.enabled ? 'Requests that meet your requirements are confirmed at once.' : 'You answer every request for this car.');
    } catch (error) {
      notify.error('Update Failed', messageOf(error, 'Instant booking could not be saved. Please try again.'));
    }
  });

  const select = (name: 'min_trips' | 'min_rating' | 'min_licence_years', text: string, options: { value: string; label: string }[]) => (
    <div>
      <label htmlFor={`${id}-${name}`} className="mb-1 block text-xs font-medium text-stone-600">
        {text}
      </label>
      <select id={`${id}-${name}`} disabled={!enabled} {...register(name)} className={`${inputClasses} border-stone-300 py-2 text-sm disabled:bg-stone-50 disabled:text-stone-400`}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );

  return (
    <form onSubmit={save} noValidate className="space-y-5 pb-4" aria-label="Instant booking" data-testid="instant-booking-editor">
      <div>
        <h3 className="font-semibold text-stone-900">Instant booking</h3>
        <p className="mt-1 text-sm text-stone-600">
          With instant booking on, a request from a renter who meets your requirements is confirmed at once and goes straight to payment; any other request waits for your answer, as now. The car shows
          the Instant badge and appears under the Instant filter.
        </p>
      </div>

      {!allowed ? (
        <Alert tone="warning" title="Instant booking is paused across Karoo">
          Karoo&apos;s administrators have paused instant booking, so every request waits for your answer. Your choice here is kept and applies as soon as it resumes.
        </Alert>
      ) : null}

      <Checkbox label="Confirm requests at once" description="Renters must always be verified to book." {...register('enabled')} />

      <fieldset className="grid grid-cols-1 gap-3 sm:grid-cols-3">
        <legend className="mb-2 text-sm font-semibold text-stone-800">Who may book instantly</legend>
        {select(
          'min_trips',
          'Completed trips on Karoo',
          withCurrent(INSTANT_TRIP_CHOICES, current.min_trips).map((n) => ({ value: String(n), label: n === 0 ? 'Any, new renters too' : `At least ${n}` })),
        )}
        {select('min_rating', 'Rating from hosts', [
          { value: '', label: 'Any rating, or none yet' },
          ...withCurrent(INSTANT_RATING_CHOICES, current.min_rating).map((r) => ({ value: String(r), label: `${formatStars(r)} or more` })),
        ])}
        {select('min_licence_years', 'Licence held', [
          { value: '', label: 'Any time' },
          ...withCurrent(INSTANT_LICENCE_CHOICES, current.min_licence_years).map((y) => ({ value: String(y), label: `${y} ${y === 1 ? 'year' : 'years'} or more` })),
        ])}
      </fieldset>

      <p className="text-sm text-stone-700" data-testid="instant-preview">
        {enabled ? `Booked instantly by: ${preview}` : 'Instant booking is off: you answer every request for this car.'}
      </p>

      <div className="flex justify-end">
        <Button type="submit" disabled={!isDirty} loading={update.isPending}>
          Save instant booking
        </Button>
      </div>
    </form>
  );
}
