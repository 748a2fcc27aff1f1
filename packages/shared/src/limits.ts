// The largest number each input accepts (issue 8; docs/decisions/012-hostile-input.md). Set once
// here: the schemas refuse anything above with "<Label> must be at most ...", and the forms show
// the same limits. Amounts are rand. Each leaves generous headroom over the dearest real case.
//
// A booking's money is stored in bigint cents (migration 0004), so the worst booking these allow
// fits with room to spare, whatever the settings say:
//   subtotal   R100 000 a day x 365 days (maxRentalDays at its own maximum) =  R36 500 000
//   service    at most 100% of the subtotal                                  =  R36 500 000
//   insurance  R20 000 a day x 365 days                                      =   R7 300 000
//   pickup     R20 000                                                       =      R20 000
//   total                                                                     =  R80 320 000
// = 8 032 000 000 cents: above the 2 147 483 647 of a 32-bit integer (hence bigint), and far
// below both bigint's 9.2 x 10^18 and the 9.0 x 10^15 up to which a JavaScript number is exact.
import { lazily } from './lazily';
import { formatRand } from './pricing';

/** Daily rent price. A supercar rents for about R20 000 a day. */
export const MAX_DAILY_RATE = 100_000;
/** A car's value. The dearest cars on South African roads are worth some R50 million. */
export const MAX_CAR_VALUE = 100_000_000;
/** Odometer readings, in kilometres. Few cars pass a million. */
export const MAX_ODOMETER_KM = 2_000_000;
/** A pickup option's additional fee (a delivery or an airport handover). */
export const MAX_PICKUP_FEE = 20_000;
/** An insurance plan's daily rate. */
export const MAX_INSURANCE_DAILY_RATE = 20_000;
/** An insurance plan's excess. */
export const MAX_EXCESS = 5_000_000;
/** The longest booking the maxRentalDays setting can allow. */
export const MAX_RENTAL_DAYS_LIMIT = 365;
/** The last page number a paged list accepts. */
export const MAX_PAGE = 100_000;
/** The highest year a car may claim in a request; the listing rule then allows up to next year. */
export const MAX_CAR_YEAR = 2100;
/**
 * The calendar dates a request may name (issue 18): a booking, a return, a browse window, a finance
 * or analytics period. Karoo has no business before 2000 or after 2100, and date arithmetic past
 * year 9999 leaves the 'YYYY-MM-DD' shape (JavaScript writes '+010000-01-01') and broke the admin
 * reports with 500s.
 */
export const EARLIEST_CALENDAR_DATE = '2000-01-01';
export const LATEST_CALENDAR_DATE = '2100-12-31';

const grouped = lazily(() => new Intl.NumberFormat('en-ZA', { maximumFractionDigits: 0 }));

/** "Daily price must be at most R 100 000". */
export function atMostRand(label: string, max: number): string {
  return `${label} must be at most ${formatRand(max)}`;
}

/** "Odometer must be at most 2 000 000 km". */
export function atMostCount(label: string, max: number, unit = ''): string {
  return `${label} must be at most ${grouped().format(max)}${unit ? ` ${unit}` : ''}`;
}
