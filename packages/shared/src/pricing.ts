// The booking price of document 2 section 9 and decisions.md section 5, computed once here and
// used by the detail page (what the renter sees) and the server (what is stored and charged).
//
// Arithmetic is in integer cents so nothing drifts. Every rounded figure is rounded to whole rand,
// half up, as the seed's screens round (Math.round on rand amounts):
//   hourly rate     = round(daily price / 10)
//   rental          = daily price x days, or hourly rate x hours
//   discount        = round(rental x the car's weekly or monthly discount / 100) (daily trips of
//                     7+ or 28+ days, decision 048; 0 otherwise)         shown as 'Weekly discount (N%)'
//   subtotal        = rental - discount (the rental part of the price: every fee and share below,
//                     and the cancellation fee's "one day's average price", are taken from it)
//   service fee     = round(subtotal x platformCommission / 100)      shown as 'Service fee (N%)'
//   insurance       = daily_rate x days, or round(daily_rate / 24 x hours)
//   pickup fee      = the chosen option's additional_fee
//   total           = subtotal + service fee + insurance + pickup fee
//   host earnings   = round((subtotal + pickup fee) x (1 - platform_fee / 100)), at most their sum
//   app fee         = total - host earnings
// Amounts that are not rounded (a daily price of R455.50 times 3 days) keep their cents.

import { lazily } from './lazily';
import { discountLabel, tripDiscount } from './trip-rules';

export interface PricingSettings {
  /** Renter service fee percent (settings platformCommission = commission_rate). */
  platformCommission: number;
  /** Host fee percent (settings platform_fee). */
  platform_fee: number;
}

export interface PriceInput {
  /** Daily price in rand. */
  dailyPrice: number;
  isHourly: boolean;
  /** Whole days (daily bookings). */
  days: number;
  /** Whole hours (hourly bookings). */
  hours: number;
  /** The pickup option's additional_fee in rand (0 when none). */
  pickupFee?: number;
  /** The insurance option's daily_rate in rand (0 when none). */
  insuranceDailyRate?: number;
  settings: PricingSettings;
  /** The car's long-trip discounts (trip rules); none when absent. */
  discounts?: { weekly_discount_percent: number; monthly_discount_percent: number } | null;
}

export interface PriceCents {
  hourlyRate: number;
  /** Daily price x days, or hourly rate x hours, before any discount. */
  rental: number;
  /** Taken off the rental (0 when no discount applies). */
  discount: number;
  /** The rental after the discount. */
  subtotal: number;
  serviceFee: number;
  insuranceFee: number;
  pickupFee: number;
  total: number;
  carOwnerEarnings: number;
  appFee: number;
}

export interface PriceBreakdown {
  isHourly: boolean;
  days: number;
  hours: number;
  /** Rand amounts. */
  dailyPrice: number;
  hourlyRate: number;
  rental: number;
  discount: number;
  /** Per cent off the rental (0 when none applies). */
  discountRate: number;
  /** 'Weekly discount (10%)', or null when none applies. */
  discountLabel: string | null;
  subtotal: number;
  serviceFee: number;
  insuranceFee: number;
  pickupFee: number;
  total: number;
  carOwnerEarnings: number;
  appFee: number;
  /** The rates used: service fee percent (platformCommission) and host fee percent (platform_fee). */
  serviceFeeRate: number;
  commissionRate: number;
  serviceFeeLabel: string;
  /** The same figures in integer cents, as stored. */
  cents: PriceCents;
}

const toCents = (rand: number) => Math.round(rand * 100);
/** Rounds a cents amount to whole rand, half up. */
const roundToRand = (cents: number) => Math.round(cents / 100) * 100;

export function calculatePrice(input: PriceInput): PriceBreakdown {
  const days = Math.max(0, Math.trunc(input.days));
  const hours = Math.max(0, Math.trunc(input.hours));
  const serviceFeeRate = input.settings.platformCommission;
  const commissionRate = input.settings.platform_fee;

  const dailyCents = toCents(input.dailyPrice);
  const hourlyRate = roundToRand(dailyCents / 10);
  const rental = input.isHourly ? hourlyRate * hours : dailyCents * days;
  const applied = tripDiscount(input.discounts, { isHourly: input.isHourly, days });
  const discount = Math.min(rental, roundToRand((rental * applied.percent) / 100));
  const subtotal = rental - discount;
  const serviceFee = roundToRand((subtotal * serviceFeeRate) / 100);
  const insuranceRate = toCents(input.insuranceDailyRate ?? 0);
  const insuranceFee = input.isHourly ? roundToRand((insuranceRate * hours) / 24) : insuranceRate * days;
  const pickupFee = toCents(input.pickupFee ?? 0);
  const total = subtotal + serviceFee + insuranceFee + pickupFee;
  // Never more than the host's gross (a fee of 0% on an amount with cents must not round up past it).
  const carOwnerEarnings = Math.min(subtotal + pickupFee, roundToRand(((subtotal + pickupFee) * (100 - commissionRate)) / 100));
  const appFee = total - carOwnerEarnings;

  const cents: PriceCents = { hourlyRate, rental, discount, subtotal, serviceFee, insuranceFee, pickupFee, total, carOwnerEarnings, appFee };
  const rand = (c: number) => c / 100;
  return {
    isHourly: input.isHourly,
    days,
    hours,
    dailyPrice: rand(dailyCents),
    hourlyRate: rand(hourlyRate),
    rental: rand(rental),
    discount: rand(discount),
    discountRate: discount > 0 ? applied.percent : 0,
    discountLabel: applied.kind && discount > 0 ? discountLabel(applied.kind, applied.percent) : null,
    subtotal: rand(subtotal),
    serviceFee: rand(serviceFee),
    insuranceFee: rand(insuranceFee),
    pickupFee: rand(pickupFee),
    total: rand(total),
    carOwnerEarnings: rand(carOwnerEarnings),
    appFee: rand(appFee),
    serviceFeeRate,
    commissionRate,
    serviceFeeLabel: serviceFeeLabel(serviceFeeRate),
    cents,
  };
}

export function serviceFeeLabel(rate: number): string {
  return `Service fee (${formatPercent(rate)}%)`;
}

/**
 * The host fee as taken on one booking, at that booking's stored rate (commission_rate), e.g. "Host
 * fee (25% of rental and pickup)". Never today's setting: a fee keeps the rate it was taken at.
 */
export function hostFeeLabel(rate: number, hasPickup: boolean): string {
  return `Host fee (${formatPercent(rate)}% of rental${hasPickup ? ' and pickup' : ''})`;
}

/**
 * A sum of host fees: "Host fees (25% of rental and pickup)" when every booking was taken at one
 * rate, else "Host fees (taken at each booking's rate: 20% and 25%)"; no rate when there are none.
 */
export function hostFeesLabel(rates: readonly number[]): string {
  const distinct = [...new Set(rates)].sort((a, b) => a - b).map((r) => `${formatPercent(r)}%`);
  if (distinct.length === 0) return 'Host fees';
  if (distinct.length === 1) return `Host fees (${distinct[0]} of rental and pickup)`;
  return `Host fees (taken at each booking's rate: ${distinct.slice(0, -1).join(', ')} and ${distinct.at(-1)})`;
}

/** A sum of renters' service fees, named with the rates they were taken at, as hostFeesLabel. */
export function serviceFeesLabel(rates: readonly number[]): string {
  const distinct = [...new Set(rates)].sort((a, b) => a - b).map((r) => `${formatPercent(r)}%`);
  if (distinct.length === 0) return 'Service fees (renters)';
  if (distinct.length === 1) return `Service fees (renters, ${distinct[0]})`;
  return `Service fees (renters, at each booking's rate: ${distinct.slice(0, -1).join(', ')} and ${distinct.at(-1)})`;
}

function formatPercent(rate: number): string {
  return Number.isInteger(rate) ? String(rate) : String(Math.round(rate * 100) / 100);
}

/** Hourly rate of a daily price, in rand. */
export function hourlyRateOf(dailyPrice: number): number {
  return Math.round(dailyPrice / 10);
}

const wholeRand = lazily(() => new Intl.NumberFormat('en-ZA', { style: 'currency', currency: 'ZAR', minimumFractionDigits: 0, maximumFractionDigits: 0 }));
const randAndCents = lazily(() => new Intl.NumberFormat('en-ZA', { style: 'currency', currency: 'ZAR', minimumFractionDigits: 2, maximumFractionDigits: 2 }));

/**
 * The one rand formatter (decisions.md section 7), used by the API's messages and every screen:
 * en-ZA currency style, e.g. "R 1 250", or "R 455,50" when there are cents (Intl separates with
 * no-break spaces). Missing amounts show as R 0.
 */
export function formatRand(amount: number | null | undefined): string {
  const value = typeof amount === 'number' && Number.isFinite(amount) ? Math.round(amount * 100) / 100 : 0;
  return Number.isInteger(value) ? wholeRand().format(value) : randAndCents().format(value);
}
