// Instant booking, the host's choice per car (issue 36, decision 078): off, or on for renters who
// meet the requirements the host picks (at least N completed trips, a rating of at least R, a
// licence held at least Y years; verified always, as every booking asks). A request that meets
// them is confirmed at once; one that does not is an ordinary request. The platform's
// `instant_booking_enabled` is the kill switch above every car's choice. Pure: the server applies
// it to a request, the car page says it, the badge states it.

export const INSTANT_LIMITS = {
  maxMinTrips: 50,
  minRating: 1,
  maxRating: 5,
  maxLicenceYears: 20,
} as const;

/** The preset choices of the host's panel (the API takes any value in range). */
export const INSTANT_TRIP_CHOICES = [0, 1, 3, 5, 10] as const;
export const INSTANT_RATING_CHOICES = [4, 4.5, 4.8] as const;
export const INSTANT_LICENCE_CHOICES = [1, 2, 3, 5] as const;

export interface InstantBooking {
  enabled: boolean;
  /** Completed trips as a renter on Karoo, at least (0: none asked). */
  min_trips: number;
  /** The renter's rating from hosts, at least (one decimal; null: none asked). */
  min_rating: number | null;
  /** Whole years since the licence was first issued, at least (null: none asked). */
  min_licence_years: number | null;
}

export const DEFAULT_INSTANT_BOOKING: InstantBooking = { enabled: false, min_trips: 0, min_rating: null, min_licence_years: null };

/** What the rule reads of a renter: their record on Karoo and their profile. */
export interface InstantRenterFacts {
  verified: boolean;
  completed_trips: number;
  /** Hosts' rating of the renter (revealed reviews); null without one. */
  rating: number | null;
  /** The licence's first issue date, YYYY-MM-DD, from the profile; null when not given. */
  licence_issued_on: string | null;
}

export type InstantRequirement = 'platform' | 'car' | 'verified' | 'trips' | 'rating' | 'licence';

export interface InstantUnmet {
  requirement: InstantRequirement;
  message: string;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Whole years from `issuedOn` to `today` (both YYYY-MM-DD): a licence issued 2024-03-10 is held 2 years on 2026-03-10, 1 year the day before. */
export function licenceYearsHeld(issuedOn: string, today: string): number {
  const [iy, im, id] = issuedOn.split('-').map(Number) as [number, number, number];
  const [ty, tm, td] = today.split('-').map(Number) as [number, number, number];
  const years = ty - iy - (tm < im || (tm === im && td < id) ? 1 : 0);
  return Math.max(0, years);
}

/** A rating as the car page says it: 4.5, 4.8, 4 (not 4.0). */
export function formatStars(rating: number): string {
  return Number.isInteger(rating) ? String(rating) : rating.toFixed(1);
}

/**
 * The requirements a renter does not meet for this car's instant booking, in the order the car
 * page lists them; empty: the request is confirmed at once. `platformAllows` is the admin's switch.
 */
export function instantBookingUnmet(rules: InstantBooking, platformAllows: boolean, renter: InstantRenterFacts, today: string): InstantUnmet[] {
  if (!platformAllows) return [{ requirement: 'platform', message: 'Instant booking is paused on Karoo: every request waits for its host.' }];
  if (!rules.enabled) return [{ requirement: 'car', message: 'The host answers every request for this car.' }];
  const unmet: InstantUnmet[] = [];
  if (!renter.verified) unmet.push({ requirement: 'verified', message: 'Instant booking is for verified renters.' });
  if (renter.completed_trips < rules.min_trips) {
    unmet.push({ requirement: 'trips', message: `Needs ${plural(rules.min_trips, 'completed trip', 'completed trips')} on Karoo; you have ${renter.completed_trips}.` });
  }
  if (rules.min_rating !== null && (renter.rating === null || renter.rating < rules.min_rating)) {
    unmet.push({
      requirement: 'rating',
      message: renter.rating === null ? `Needs a rating from hosts of ${formatStars(rules.min_rating)} or more; you have none yet.` : `Needs a rating from hosts of ${formatStars(rules.min_rating)} or more; yours is ${formatStars(renter.rating)}.`,
    });
  }
  if (rules.min_licence_years !== null) {
    const held = renter.licence_issued_on ? licenceYearsHeld(renter.licence_issued_on, today) : null;
    if (held === null) {
      unmet.push({ requirement: 'licence', message: `Needs a licence held ${plural(rules.min_licence_years, 'year', 'years')} or more: add its issue date to your profile.` });
    } else if (held < rules.min_licence_years) {
      unmet.push({ requirement: 'licence', message: `Needs a licence held ${plural(rules.min_licence_years, 'year', 'years')} or more; yours, ${plural(held, 'year', 'years')}.` });
    }
  }
  return unmet;
}

/** Whether the car's badge says Instant: the platform allows it and the host turned it on (its requirements are on the car page). */
export function offersInstantBooking(rules: Pick<InstantBooking, 'enabled'>, platformAllows: boolean): boolean {
  return platformAllows && rules.enabled;
}

/** Who may book the car instantly, in a line: "Verified renters with at least 3 completed trips, a rating of 4.5 or more and a licence held 2 years or more." */
export function instantBookingSummary(rules: InstantBooking): string {
  const parts: string[] = [];
  if (rules.min_trips > 0) parts.push(`at least ${plural(rules.min_trips, 'completed trip', 'completed trips')}`);
  if (rules.min_rating !== null) parts.push(`a rating of ${formatStars(rules.min_rating)} or more`);
  if (rules.min_licence_years !== null) parts.push(`a licence held ${plural(rules.min_licence_years, 'year', 'years')} or more`);
  if (parts.length === 0) return 'Verified renters.';
  const list = parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
  return `Verified renters with ${list}.`;
}
