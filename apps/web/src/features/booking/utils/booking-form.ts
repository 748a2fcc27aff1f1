// The booking panel's form rules (document 2 section 5): the 06:00-22:00 time choices, how long a
// booking is, when Book Now is disabled, and the request sent to POST /booking/create.
import {
  BOOKING_RULE_MESSAGES,
  DEFAULT_PICKUP_TIME,
  DEFAULT_RETURN_TIME,
  durationDays,
  durationHours,
  durationMinutes,
  EARLIEST_TIME,
  hourlyTimesFailure,
  LATEST_TIME,
  minutesOfTime,
  type CreateBookingBody,
} from '@karoo/shared';
import type { TripDates } from '@/lib/trip-dates';
import type { BookingMode } from './booking-dates';

export { DEFAULT_PICKUP_TIME, DEFAULT_RETURN_TIME };
export const TIME_STEP_MINUTES = 30;

/** 06:00, 06:30 ... 22:00. */
export const TIME_SLOTS: string[] = (() => {
  const slots: string[] = [];
  for (let m = minutesOfTime(EARLIEST_TIME); m <= minutesOfTime(LATEST_TIME); m += TIME_STEP_MINUTES) {
    slots.push(`${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`);
  }
  return slots;
})();

export interface BookingFormState {
  mode: BookingMode;
  startDate: string;
  endDate: string;
  startTime: string;
  endTime: string;
  pickupOptionId: string | null;
  insuranceOptionId: string | null;
}

export function initialBookingForm(): BookingFormState {
  return {
    mode: 'daily',
    startDate: '',
    endDate: '',
    startTime: DEFAULT_PICKUP_TIME,
    endTime: DEFAULT_RETURN_TIME,
    pickupOptionId: null,
    insuranceOptionId: null,
  };
}

/**
 * The form's trip from the address (the dates chosen on /cars, or the panel's own address, decision
 * 060): its dates and mode, and its times when the lists offer them (else the defaults).
 */
export function bookingFormFromTrip(trip: TripDates | null): BookingFormState {
  const form = initialBookingForm();
  if (!trip) return form;
  const slot = (time: string, fallback: string) => (TIME_SLOTS.includes(time) ? time : fallback);
  return {
    ...form,
    mode: trip.isHourly ? 'hourly' : 'daily',
    startDate: trip.startDate,
    endDate: trip.endDate,
    startTime: slot(trip.startTime, form.startTime),
    endTime: slot(trip.endTime, form.endTime),
  };
}

/** The form's trip as the address keeps it (null until both dates are chosen). */
export function tripOfForm(form: BookingFormState): TripDates | null {
  if (!form.startDate || !form.endDate) return null;
  return { startDate: form.startDate, endDate: form.endDate, startTime: form.startTime, endTime: form.endTime, isHourly: form.mode === 'hourly' };
}

export interface BookingLength {
  days: number;
  hours: number;
  /** Minutes from pickup to return (hourly), for the under-one-hour rule. */
  minutes: number;
}

/**
 * Days (daily: calendar days, at least 1) or hours (hourly: rounded up, 1-24); null without dates,
 * and null for hourly times the server would refuse (no price for a booking that cannot be made).
 */
export function bookingLength(form: BookingFormState): BookingLength | null {
  if (!form.startDate || !form.endDate) return null;
  if (form.mode === 'hourly') {
    if (!form.startTime || !form.endTime) return null;
    if (hourlyTimesFailure(form.startDate, form.startTime, form.endDate, form.endTime)) return null;
    const minutes = durationMinutes(form.startDate, form.startTime, form.endDate, form.endTime);
    return { days: 1, hours: durationHours(form.startDate, form.startTime, form.endDate, form.endTime), minutes };
  }
  return { days: durationDays(form.startDate, form.endDate), hours: 0, minutes: 0 };
}

/** The hourly rules of document 2, in its order, as the server words them (hourlyTimesFailure). */
type HourlyBlocker = 'end-before-start' | 'spans-days' | 'end-time-not-after-start' | 'under-one-hour' | 'over-24-hours';
export type SubmitBlocker = 'dates' | 'times' | 'pending' | HourlyBlocker;

const HOURLY_BLOCKERS: Record<string, HourlyBlocker> = {
  end_before_start: 'end-before-start',
  hourly_spans_days: 'spans-days',
  end_time_not_after_start: 'end-time-not-after-start',
  under_one_hour: 'under-one-hour',
  over_24_hours: 'over-24-hours',
};

/**
 * Why Book Now is disabled (document 2 section 5): no dates, no times, a request in flight, or
 * hourly times the server would refuse (14:00 to 13:00 on one day is "End time must be after start
 * time.", not a one-hour booking). Null when it may be pressed (the submit checks come next).
 */
export function submitBlocker(form: BookingFormState, isPending: boolean): SubmitBlocker | null {
  if (!form.startDate || !form.endDate) return 'dates';
  if (!form.startTime || !form.endTime) return 'times';
  if (isPending) return 'pending';
  if (form.mode === 'hourly') {
    const failure = hourlyTimesFailure(form.startDate, form.startTime, form.endDate, form.endTime);
    if (failure) return HOURLY_BLOCKERS[failure.code] ?? 'under-one-hour';
  }
  return null;
}

const M = BOOKING_RULE_MESSAGES;
export const BLOCKER_HINTS: Record<SubmitBlocker, string> = {
  dates: 'Choose your pickup and return dates.',
  times: 'Choose your pickup and return times.',
  pending: 'Sending your request…',
  'end-before-start': M.end_before_start.message,
  'spans-days': M.hourly_spans_days.message,
  'end-time-not-after-start': M.end_time_not_after_start.message,
  'under-one-hour': M.under_one_hour.message,
  'over-24-hours': M.over_24_hours.message,
};

/** The request body of POST /booking/create (api.md); the server computes every price. */
export function toCreateBookingBody(carUsername: string, form: BookingFormState, specialRequirements = ''): CreateBookingBody {
  return {
    car_username: carUsername,
    start_date: form.startDate,
    end_date: form.endDate,
    start_time: form.startTime,
    end_time: form.endTime,
    is_hourly_booking: form.mode === 'hourly',
    pickup_option: form.pickupOptionId,
    insurance_option: form.insuranceOptionId,
    special_requirements: specialRequirements.trim() || null,
  };
}
