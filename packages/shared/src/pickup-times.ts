// A pickup location's listed times bind the booking (issue 32; docs/decisions/059): the host says
// when they hand the car over there ("09:00, 13:00, 17:00"), so a trip from that location starts at
// one of those times, hourly or daily. The server refuses any other pickup time with these words
// and the booking panel offers only these times; the return time is not bound. A trip without a
// pickup option (a car that offers none) starts at any time the booking rules allow.
import { DEFAULT_PICKUP_TIME } from './booking-rules';

/** The parts of a pickup option the rule reads (the car's option, as shown or as stored). */
export interface PickupTimesOption {
  name: string;
  available_times?: readonly string[] | null;
}

/** The times a trip from `option` may start at, in order; null when any time goes (no option, or one that lists none). */
export function pickupTimesOf(option: PickupTimesOption | null | undefined): readonly string[] | null {
  const times = option?.available_times ?? [];
  return times.length > 0 ? [...times].sort() : null;
}

/** The pickup time of a daily booking that names none: the usual 09:00 where the option lists it, else its first time. */
export function defaultPickupTime(option: PickupTimesOption | null | undefined): string {
  const times = pickupTimesOf(option);
  return !times || times.includes(DEFAULT_PICKUP_TIME) ? DEFAULT_PICKUP_TIME : times[0]!;
}

/** "09:00", "09:00 or 13:00", "09:00, 13:00 or 17:00". */
export function timesInWords(times: readonly string[]): string {
  return times.length <= 1 ? (times[0] ?? '') : `${times.slice(0, -1).join(', ')} or ${times[times.length - 1]}`;
}

/** Why a trip cannot start at `time` from `option`, or null when it can. */
export function pickupTimeRefusal(option: PickupTimesOption | null | undefined, time: string): string | null {
  const times = pickupTimesOf(option);
  if (!times || times.includes(time)) return null;
  return `${option!.name} hands over the car at ${timesInWords(times)}: choose one of these pickup times.`;
}
