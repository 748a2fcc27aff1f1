// The car's trip rules in the booking panel (decision 048): the days and times the shared
// tripRuleFailure (what the server checks) would refuse, each with the rule's words, so the
// calendars and the time lists grey exactly those and say why.
import {
  DEFAULT_TRIP_RULES,
  durationDays,
  durationHours,
  earliestReturnDate,
  isValidDate,
  lastBookableDate,
  meetsNotice,
  noticeLabel,
  tripRuleFailure,
  tripRuleMessages,
  type Car,
  type DateRange,
  type TripRules,
} from '@karoo/shared';

/** The car's rules; the defaults for an answer without them. */
export function tripRulesOfCar(car: Pick<Car, 'trip_rules'>): TripRules {
  return car.trip_rules ?? DEFAULT_TRIP_RULES;
}

/** The pickup calendar: why a day cannot be the pickup day at `pickupTime`, or null. */
export function pickupDayRefusal(rules: TripRules, now: Date, today: string, pickupTime: string) {
  const last = lastBookableDate(rules, today);
  return (date: string): string | null => {
    if (!meetsNotice(rules, date, pickupTime, now)) return tripRuleMessages.needsNotice(rules.advance_notice_hours).message;
    if (last !== null && date > last) return tripRuleMessages.beyondWindow(rules.booking_window_months!).message;
    return null;
  };
}

/** The return calendar: why a day cannot end a trip from `start`, or null (daily length, the window). */
export function returnDayRefusal(rules: TripRules, today: string, start: string, isHourly: boolean) {
  const last = lastBookableDate(rules, today);
  const earliest = start && isValidDate(start) ? earliestReturnDate(rules, start) : null;
  return (date: string): string | null => {
    if (last !== null && date > last) return tripRuleMessages.beyondWindow(rules.booking_window_months!).message;
    if (isHourly || earliest === null || date < start) return null;
    if (date < earliest) return tripRuleMessages.minimumDays(rules.min_days).message;
    if (rules.max_days !== null && durationDays(start, date) > rules.max_days) return tripRuleMessages.maximumDays(rules.max_days).message;
    return null;
  };
}

/** Pickup times of `date` too soon for the notice, each with a short reason for the list. */
export function refusedPickupTimes(rules: TripRules, now: Date, date: string, slots: readonly string[]): Map<string, string> {
  const refused = new Map<string, string>();
  if (!isValidDate(date) || rules.advance_notice_hours === 0) return refused;
  for (const time of slots) if (!meetsNotice(rules, date, time, now)) refused.set(time, 'too soon');
  return refused;
}

/** Return times of an hourly trip shorter or longer than the car allows. */
export function refusedReturnTimes(rules: TripRules, trip: { startDate: string; endDate: string; startTime: string }, slots: readonly string[]): Map<string, string> {
  const refused = new Map<string, string>();
  if (!isValidDate(trip.startDate) || !isValidDate(trip.endDate)) return refused;
  for (const time of slots) {
    const sameDay = trip.endDate === trip.startDate;
    if (sameDay && time <= trip.startTime) continue;
    const hours = durationHours(trip.startDate, trip.startTime, trip.endDate, time);
    if (hours < rules.min_hours) refused.set(time, `under ${rules.min_hours} hours`);
    else if (hours > rules.max_hours) refused.set(time, `over ${rules.max_hours} hours`);
  }
  return refused;
}

/** What the panel says under the calendars: the rules that narrow the choice ("Minimum 2 days · 1 day's notice"). */
export function panelRuleHints(rules: TripRules, isHourly: boolean): string[] {
  const hints: string[] = [];
  if (isHourly) {
    if (rules.min_hours > 1) hints.push(`Minimum ${rules.min_hours} hours`);
    if (rules.max_hours < 24) hints.push(`Maximum ${rules.max_hours} hours`);
  } else {
    if (rules.min_days > 1) hints.push(`Minimum ${rules.min_days} days`);
    if (rules.max_days !== null) hints.push(`Maximum ${rules.max_days} ${rules.max_days === 1 ? 'day' : 'days'}`);
  }
  if (rules.advance_notice_hours > 0) hints.push(noticeLabel(rules.advance_notice_hours));
  if (rules.booking_window_months !== null) hints.push(`Bookable up to ${rules.booking_window_months} ${rules.booking_window_months === 1 ? 'month' : 'months'} ahead`);
  return hints;
}


/**
 * A quick date (Today, Tomorrow, This Weekend, Next Week) the trip rules refuse whatever pickup time
 * is chosen, with the rule's words: the server's tripRuleFailure asked at the day's latest pickup
 * time (if the notice refuses even that, it refuses the day), for the range's length and window.
 */
export function quickRangeRefusal(rules: TripRules, isHourly: boolean, now: Date, today: string, slots: readonly string[]) {
  const latest = slots[slots.length - 1] ?? null;
  return (range: DateRange): string | null =>
    tripRuleFailure(rules, { start_date: range.start_date, end_date: range.end_date, start_time: latest, end_time: null, is_hourly_booking: isHourly }, now, today)?.message ?? null;
}

/** The first pickup time of `date` that meets the notice (the chosen one when it does), or the chosen one when none does. */
export function firstPickupTimeMeetingNotice(rules: TripRules, now: Date, date: string, chosen: string, slots: readonly string[]): string {
  if (meetsNotice(rules, date, chosen, now)) return chosen;
  return slots.find((time) => time > chosen && meetsNotice(rules, date, time, now)) ?? chosen;
}
