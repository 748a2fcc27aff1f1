// The booking panel's form rules (document 2 section 5): the 06:00-22:00 time choices, how long a
// booking is, when Book Now is disabled, and the request sent to POST /booking/create.
import {
  DEFAULT_PICKUP_TIME,
  DEFAULT_RETURN_TIME,
  durationDays,
  durationHours,
  durationMinutes,
  EARLIEST_TIME,
  LATEST_TIME,
  minutesOfTime,
  MIN_HOURLY_HOURS,
  type CreateBookingBody,
} from '@karoo/shared';
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

export interface BookingLength {
  days: number;
  hours: number;
  /** Minutes from pickup to return (hourly), for the under-one-hour rule. */
  minutes: number;
}

/** Days (daily: calendar days, at least 1) or hours (hourly: rounded up, 1-24); null without dates. */
export function bookingLength(form: BookingFormState): BookingLength | null {
  if (!form.startDate || !form.endDate) return null;
  if (form.mode === 'hourly') {
    if (!form.startTime || !form.endTime) return null;
    const minutes = durationMinutes(form.startDate, form.startTime, form.endDate, form.endTime);
    return { days: 1, hours: durationHours(form.startDate, form.startTime, form.endDate, form.endTime), minutes };
  }
  return { days: durationDays(form.startDate, form.endDate), hours: 0, minutes: 0 };
}

export type SubmitBlocker = 'dates' | 'times' | 'pending' | 'under-one-hour';

/**
 * Why Book Now is disabled (document 2 section 5): no dates, no times, a request in flight, or an
 * hourly booking shorter than an hour. Null when it may be pressed (the submit checks come next).
 */
export function submitBlocker(form: BookingFormState, isPending: boolean): SubmitBlocker | null {
  if (!form.startDate || !form.endDate) return 'dates';
  if (!form.startTime || !form.endTime) return 'times';
  if (isPending) return 'pending';
  if (form.mode === 'hourly') {
    const minutes = durationMinutes(form.startDate, form.startTime, form.endDate, form.endTime);
    if (minutes < MIN_HOURLY_HOURS * 60) return 'under-one-hour';
  }
  return null;
}

export const BLOCKER_HINTS: Record<SubmitBlocker, string> = {
  dates: 'Choose your pickup and return dates.',
  times: 'Choose your pickup and return times.',
  pending: 'Sending your request…',
  'under-one-hour': 'Minimum booking duration is 1 hour.',
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
