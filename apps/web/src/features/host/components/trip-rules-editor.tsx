// "Trip rules and discounts" of a car (issue 23, decision 048): minimum and maximum trip (days and
// hours), advance notice, how far ahead, and the weekly and monthly discounts. The form's resolver is
// the shared updateTripRulesBodySchema, the very schema the server validates with, so both refuse
// the same things in the same words; a refusal the server still finds is shown on its field.
import { zodResolver } from '@hookform/resolvers/zod';
import {
  DEFAULT_TRIP_RULES,
  formatHours,
  formatRand,
  MAX_HOURLY_HOURS,
  NOTICE_CHOICES_HOURS,
  TRIP_RULE_LIMITS,
  tripDiscount,
  updateTripRulesBodySchema,
  WINDOW_CHOICES_MONTHS,
  windowLabel,
  type Car,
  type TripRules,
  type TripRulesInput,
  type UpdateTripRulesBody,
} from '@karoo/shared';
import { useId } from 'react';
import { useForm, useWatch, type Path } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { inputClasses } from '@/components/ui/input';
import { useNotification } from '@/components/ui/toast';
import { isApiError, messageOf } from '@/lib/api-client';
import { useUpdateTripRules } from '../api/update-trip-rules';

type FormValues = { [K in keyof UpdateTripRulesBody]: string };

function toForm(rules: TripRules): FormValues {
  return {
    min_days: String(rules.min_days),
    max_days: rules.max_days === null ? '' : String(rules.max_days),
    min_hours: String(rules.min_hours),
    max_hours: String(rules.max_hours),
    advance_notice_hours: String(rules.advance_notice_hours),
    booking_window_months: rules.booking_window_months === null ? '' : String(rules.booking_window_months),
    weekly_discount_percent: String(rules.weekly_discount_percent),
    monthly_discount_percent: String(rules.monthly_discount_percent),
  };
}

const FIELDS = Object.keys(toForm(DEFAULT_TRIP_RULES)) as (keyof FormValues)[];
const tripRulesOfCar = (car: Pick<Car, 'trip_rules'>): TripRules => car.trip_rules ?? DEFAULT_TRIP_RULES;

/** The choices of a select, keeping a value set through the API that is not one of the presets. */
function withCurrent(choices: readonly number[], current: number | null): number[] {
  return current === null || choices.includes(current) ? [...choices] : [...choices, current].sort((a, b) => a - b);
}

export function TripRulesEditor({ car, username }: { car: Car; username: string }) {
  const id = useId();
  const notify = useNotification();
  const update = useUpdateTripRules(username);
  const current = tripRulesOfCar(car);
  const {
    register,
    handleSubmit,
    control,
    reset,
    setError,
    formState: { errors, isDirty },
  } = useForm<FormValues, unknown, TripRulesInput>({ resolver: zodResolver(updateTripRulesBodySchema) as never, defaultValues: toForm(current) });
  const [weekly, monthly] = useWatch({ control, name: ['weekly_discount_percent', 'monthly_discount_percent'] });

  const save = handleSubmit(async (rules) => {
    try {
      const saved = await update.mutateAsync({ carId: car.id, rules });
      reset(toForm(tripRulesOfCar(saved)));
      notify.success('Trip Rules Saved', 'Renters see the new rules and discounts on the car page straight away.');
    } catch (error) {
      let placed = false;
      if (isApiError(error) && error.errors) {
        for (const [name, message] of Object.entries(error.errors)) {
          if (FIELDS.includes(name as keyof FormValues)) {
            setError(name as Path<FormValues>, { type: 'server', message: String(message) });
            placed = true;
          }
        }
      }
      if (!placed) notify.error('Update Failed', messageOf(error, 'The trip rules could not be saved. Please try again.'));
    }
  });

  const field = (name: keyof FormValues) => ({ id: `${id}-${name}`, 'aria-invalid': errors[name] ? true : undefined, 'aria-describedby': errors[name] ? `${id}-${name}-error` : undefined });
  const error = (name: keyof FormValues) =>
    errors[name]?.message ? (
      <p id={`${id}-${name}-error`} role="alert" className="mt-1 text-xs font-medium text-red-600">
        {errors[name]?.message}
      </p>
    ) : null;
  const label = (name: keyof FormValues, text: string) => (
    <label htmlFor={`${id}-${name}`} className="mb-1 block text-xs font-medium text-stone-600">
      {text}
    </label>
  );
  const numberInput = (name: keyof FormValues, min: number, max: number, placeholder?: string) => (
    <input type="number" inputMode="numeric" min={min} max={max} step={1} placeholder={placeholder} {...field(name)} {...register(name)} className={`${inputClasses} border-stone-300 py-2 text-sm`} />
  );

  // What a week and a month cost the renter before fees, with the discounts as typed.
  const preview = (days: number) => {
    const rental = car.car_rent_price * days;
    const applied = tripDiscount({ weekly_discount_percent: Number(weekly) || 0, monthly_discount_percent: Number(monthly) || 0 }, { isHourly: false, days });
    if (!applied.percent) return `${days} days: ${formatRand(rental)}`;
    const off = Math.round((rental * applied.percent) / 100);
    return `${days} days: ${formatRand(rental - off)} (${applied.percent}% off ${formatRand(rental)})`;
  };

  return (
    <form onSubmit={save} noValidate className="space-y-5 pb-4" aria-label="Trip rules and discounts" data-testid="trip-rules-editor">
      <div>
        <h3 className="font-semibold text-stone-900">Trip rules and discounts</h3>
        <p className="mt-1 text-sm text-stone-600">Renters can only ask for trips these rules allow; the booking calendar greys the rest and says why.</p>
      </div>

      <fieldset className="grid grid-cols-2 gap-3">
        <legend className="mb-2 text-sm font-semibold text-stone-800">Daily trips</legend>
        <div>
          {label('min_days', 'Minimum (days)')}
          {numberInput('min_days', 1, TRIP_RULE_LIMITS.maxMinDays)}
          {error('min_days')}
        </div>
        <div>
          {label('max_days', 'Maximum (days)')}
          {numberInput('max_days', 1, TRIP_RULE_LIMITS.maxMaxDays, 'No maximum')}
          {error('max_days')}
        </div>
      </fieldset>

      <fieldset className="grid grid-cols-2 gap-3">
        <legend className="mb-2 text-sm font-semibold text-stone-800">Hourly trips</legend>
        <div>
          {label('min_hours', 'Minimum (hours)')}
          {numberInput('min_hours', 1, MAX_HOURLY_HOURS)}
          {error('min_hours')}
        </div>
        <div>
          {label('max_hours', 'Maximum (hours)')}
          {numberInput('max_hours', 1, MAX_HOURLY_HOURS)}
          {error('max_hours')}
        </div>
      </fieldset>

      <fieldset className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        <legend className="mb-2 text-sm font-semibold text-stone-800">When</legend>
        <div>
          {label('advance_notice_hours', 'Advance notice')}
          <select {...field('advance_notice_hours')} {...register('advance_notice_hours')} className={`${inputClasses} border-stone-300 py-2 text-sm`}>
            {withCurrent(NOTICE_CHOICES_HOURS, current.advance_notice_hours).map((hours) => (
              <option key={hours} value={hours}>
                {hours === 0 ? 'No notice' : formatHours(hours)}
              </option>
            ))}
          </select>
          {error('advance_notice_hours')}
        </div>
        <div>
          {label('booking_window_months', 'How far ahead')}
          <select {...field('booking_window_months')} {...register('booking_window_months')} className={`${inputClasses} border-stone-300 py-2 text-sm`}>
            <option value="">No limit</option>
            {withCurrent(WINDOW_CHOICES_MONTHS, current.booking_window_months).map((months) => (
              <option key={months} value={months}>
                {windowLabel(months)}
              </option>
            ))}
          </select>
          {error('booking_window_months')}
        </div>
      </fieldset>

      <fieldset className="grid grid-cols-2 gap-3">
        <legend className="mb-2 text-sm font-semibold text-stone-800">Long-trip discounts</legend>
        <div>
          {label('weekly_discount_percent', 'Weekly, 7+ days (%)')}
          {numberInput('weekly_discount_percent', 0, TRIP_RULE_LIMITS.maxDiscountPercent)}
          {error('weekly_discount_percent')}
        </div>
        <div>
          {label('monthly_discount_percent', 'Monthly, 28+ days (%)')}
          {numberInput('monthly_discount_percent', 0, TRIP_RULE_LIMITS.maxDiscountPercent)}
          {error('monthly_discount_percent')}
        </div>
        <p className="col-span-2 text-xs text-stone-600" data-testid="discount-preview">
          Renters pay for the rental, before fees: {preview(7)}; {preview(28)}. Discounts come off the rental and your earnings are taken from the discounted price.
        </p>
      </fieldset>

      <div className="flex justify-end">
        <Button type="submit" disabled={!isDirty} loading={update.isPending}>
          Save trip rules
        </Button>
      </div>
    </form>
  );
}
