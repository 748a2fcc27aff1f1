// The trip's dates in the address (issue 32, decision 060): the dates and times a renter chose on
// /cars travel in each card's link to the car page, whose booking panel starts with them and keeps
// them in its own address as they change. One set of names for both pages: /cars already reads
// `start`, `end`, `pickupTime` and `returnTime` (browse-filters.ts); the panel adds `mode=hourly`
// for an hourly trip. Pure, so the cards, the panel and their tests share it.
import { addDays, isValidDate, isValidTime } from '@karoo/shared';

export const TRIP_PARAMS = ['start', 'end', 'pickupTime', 'returnTime', 'mode'] as const;

export interface TripDates {
  /** 'YYYY-MM-DD' (Johannesburg calendar dates). */
  startDate: string;
  endDate: string;
  /** 'HH:mm', or '' when the address names none (the panel keeps its own default). */
  startTime: string;
  endTime: string;
  isHourly: boolean;
}

/**
 * The trip an address names, or null: a pickup date from today on and a return on or after it
 * (hourly: the pickup day or the next), with valid times when given. Anything else is no trip.
 */
export function readTripDates(params: URLSearchParams, today: string): TripDates | null {
  const startDate = params.get('start') ?? '';
  const endDate = params.get('end') ?? '';
  if (!isValidDate(startDate) || !isValidDate(endDate) || startDate < today || endDate < startDate) return null;
  const isHourly = params.get('mode') === 'hourly';
  if (isHourly && endDate > addDays(startDate, 1)) return null;
  const time = (key: string) => {
    const value = params.get(key) ?? '';
    return isValidTime(value) ? value : '';
  };
  return { startDate, endDate, startTime: time('pickupTime'), endTime: time('returnTime'), isHourly };
}

/**
 * The address's params with this trip in them (replacing any trip they named; other params stay):
 * both dates or none, the times when set, `mode=hourly` only for an hourly trip.
 */
export function withTripDates(params: URLSearchParams, trip: Partial<TripDates> | null): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const key of TRIP_PARAMS) next.delete(key);
  if (!trip?.startDate || !trip.endDate) return next;
  next.set('start', trip.startDate);
  next.set('end', trip.endDate);
  if (trip.startTime) next.set('pickupTime', trip.startTime);
  if (trip.endTime) next.set('returnTime', trip.endTime);
  if (trip.isHourly) next.set('mode', 'hourly');
  return next;
}

/** A page's path with the trip in its query ('/cars/polo?start=…'), or the path alone without one. */
export function pathWithTrip(path: string, trip: TripDates | null): string {
  const query = withTripDates(new URLSearchParams(), trip).toString();
  return query ? `${path}?${query}` : path;
}
