// Deposits and trip charges (issue 34; docs/decisions/064-deposits-charged-with-the-trip.md and
// 065-trip-charges.md): the host's claims after a trip, computed here once so that the host's form
// prefills exactly what the server will accept, and the deposit's words the car page, the checkout
// and the receipt share. Every amount is integer cents; every function is pure. It builds no
// schema (the car page and checkout draw with it, decision 053): the bodies' schemas are in
// trip-charges-schema.ts.
import { formatShortDay } from './booking-rules';
import { formatRand } from './pricing';
import { todayIn } from './zoned-date';

export const TRIP_CHARGE_KINDS = ['fuel', 'extra_km', 'late_return', 'cleaning', 'smoking', 'tolls', 'traffic_fine', 'damage'] as const;
export type TripChargeKind = (typeof TRIP_CHARGE_KINDS)[number];
export const TRIP_CHARGE_LABELS: Record<TripChargeKind, string> = {
  fuel: 'Fuel',
  extra_km: 'Extra kilometres',
  late_return: 'Late return',
  cleaning: 'Cleaning',
  smoking: 'Smoking',
  tolls: 'Tolls',
  traffic_fine: 'Traffic fine',
  damage: 'Damage',
};
/** Money the host paid out of pocket: passed to the host in full, the platform takes no fee on it. */
export const PASS_THROUGH_KINDS: readonly TripChargeKind[] = ['fuel', 'tolls', 'traffic_fine'];
/** Charges computed from the trip records and the booking (the host cannot type another amount). */
export const COMPUTED_KINDS: readonly TripChargeKind[] = ['fuel', 'extra_km', 'late_return'];

export const CLAIM_STATUSES = ['awaiting_renter', 'disputed', 'settled', 'withdrawn'] as const;
export type ClaimStatus = (typeof CLAIM_STATUSES)[number];

export { DEFAULT_TRIP_CHARGE_SETTINGS, type TripChargeSettings } from './trip-charge-settings';
import type { TripChargeSettings } from './trip-charge-settings';

const HOUR_MS = 3_600_000;

/** The deposit a car gets when its host has not chosen one, in cents, from its value in cents. */
export function defaultDepositCents(carValueCents: number, s: Pick<TripChargeSettings, 'deposit_bands' | 'deposit_above'>): number {
  const band = [...s.deposit_bands].sort((a, b) => a.up_to_value - b.up_to_value).find((b) => carValueCents <= b.up_to_value * 100);
  return (band ? band.deposit : s.deposit_above) * 100;
}

/** Why a host's deposit cannot be used, or null: R 0, or between the admin's bounds. */
export function depositRefusal(depositCents: number, s: Pick<TripChargeSettings, 'deposit_min' | 'deposit_max'>): string | null {
  if (!Number.isInteger(depositCents) || depositCents < 0) return 'The deposit must be a whole amount of at least R 0.';
  if (depositCents === 0) return null;
  if (depositCents < s.deposit_min * 100 || depositCents > s.deposit_max * 100) {
    return `The deposit must be R 0 or between ${formatRand(s.deposit_min)} and ${formatRand(s.deposit_max)}.`;
  }
  return null;
}

/** A car's deposit: the host's choice when set, else the default for its value. */
export function carDepositCents(car: { deposit_cents: number | null; car_value_cents: number }, s: TripChargeSettings): number {
  return car.deposit_cents ?? defaultDepositCents(car.car_value_cents, s);
}

/** Petrol unless the car's fuel type says diesel (the listing's free text: "Diesel", "diesel turbo"). */
export function fuelKindOf(fuelType: string | null | undefined): 'petrol' | 'diesel' {
  return /diesel/i.test(fuelType ?? '') ? 'diesel' : 'petrol';
}

/**
 * Fuel: the eighths missing at check-out against check-in, of the tank, at the price per litre.
 * Rounded to the cent once, at the end. A fuller tank at return costs nothing (never negative).
 */
export function fuelChargeCents(input: { checkInEighths: number; checkOutEighths: number; tankLitres: number; pricePerLitreCents: number }): number {
  const missing = Math.max(0, input.checkInEighths - input.checkOutEighths);
  return Math.round((missing * input.tankLitres * input.pricePerLitreCents) / 8);
}

/** The litres the fuel charge is for (shown beside it). */
export function fuelLitres(input: { checkInEighths: number; checkOutEighths: number; tankLitres: number }): number {
  return (Math.max(0, input.checkInEighths - input.checkOutEighths) * input.tankLitres) / 8;
}

/** Kilometres driven beyond the allowance (allowance per day × days); 0 when the car's distance is unlimited (null). */
export function extraKilometres(input: { startKm: number; endKm: number; days: number; allowanceKmPerDay: number | null }): number {
  if (input.allowanceKmPerDay === null) return 0;
  return Math.max(0, input.endKm - input.startKm - input.allowanceKmPerDay * input.days);
}

export function extraKmChargeCents(input: { startKm: number; endKm: number; days: number; allowanceKmPerDay: number | null; ratePerKmCents: number }): number {
  return extraKilometres(input) * input.ratePerKmCents;
}

/** Started hours late beyond the grace period: returned 1 h 10 min late with 30 min of grace is 1 started hour. */
export function lateHours(input: { dueAt: Date; returnedAt: Date; graceMinutes: number }): number {
  const late = input.returnedAt.getTime() - input.dueAt.getTime() - input.graceMinutes * 60_000;
  return late <= 0 ? 0 : Math.ceil(late / HOUR_MS);
}

/** The price of one started late hour: a percent of the daily price, rounded to the cent. */
export function lateHourRateCents(dailyPriceCents: number, percentOfDay: number): number {
  return Math.round((dailyPriceCents * percentOfDay) / 100);
}

export function lateReturnChargeCents(input: { dueAt: Date; returnedAt: Date; graceMinutes: number; dailyPriceCents: number; percentOfDay: number }): number {
  return lateHours(input) * lateHourRateCents(input.dailyPriceCents, input.percentOfDay);
}

/** How a paid charge is shared: pass-through kinds go to the host whole; on the rest the platform keeps its fee (rounded to the cent). */
export function claimSplit(kind: TripChargeKind, amountCents: number, feePercent: number): { hostCents: number; platformCents: number } {
  if (PASS_THROUGH_KINDS.includes(kind)) return { hostCents: amountCents, platformCents: 0 };
  const platformCents = Math.round((amountCents * feePercent) / 100);
  return { hostCents: amountCents - platformCents, platformCents };
}

/** How a settled claim is paid: from what is left of the deposit first, the rest from the card. */
export function claimPayment(amountCents: number, depositHeldCents: number): { fromDepositCents: number; fromCardCents: number } {
  const fromDepositCents = Math.min(Math.max(0, depositHeldCents), amountCents);
  return { fromDepositCents, fromCardCents: amountCents - fromDepositCents };
}

/** When the claim window closes (and the deposit comes back if nothing is claimed): check-out (or the return) plus the window. */
export function claimWindowClosesAt(checkedOutAt: Date, windowHours: number): Date {
  return new Date(checkedOutAt.getTime() + windowHours * HOUR_MS);
}

/** "R 3 500 deposit, back by Thu 10 Dec if nothing is claimed" (or that there is none). */
export function depositLine(depositCents: number, releaseBy: Date, now: Date = new Date()): string {
  if (depositCents <= 0) return 'No deposit';
  return `${formatRand(depositCents / 100)} deposit, back by ${formatShortDay(todayIn(releaseBy), now)} if nothing is claimed`;
}

/** "200 km a day, then R 3.50 a km" or "Unlimited kilometres". */
export function distanceLine(allowanceKmPerDay: number | null, ratePerKmCents: number): string {
  if (allowanceKmPerDay === null) return 'Unlimited kilometres';
  return `${allowanceKmPerDay} km a day included, then ${formatRand(ratePerKmCents / 100)} a km`;
}
