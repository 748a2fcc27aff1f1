// Karoo's calendar: every "today", day start, month and expiry moment is read in one time zone,
// Africa/Johannesburg (decisions.md section 5), here and nowhere else. Server, web and SQL (through
// parameters) all take their local dates and instants from these functions; no code writes an
// offset such as "+02" of its own. Johannesburg has had no daylight saving since 1944, but nothing
// here depends on that: offsets are read from the zone database.
import { TIME_ZONE } from './constants';

// Building an Intl formatter is slow; keep one per zone.
const dateFormatters = new Map<string, Intl.DateTimeFormat>();
const timeFormatters = new Map<string, Intl.DateTimeFormat>();
const offsetFormatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(cache: Map<string, Intl.DateTimeFormat>, timeZone: string, make: () => Intl.DateTimeFormat) {
  let formatter = cache.get(timeZone);
  if (!formatter) {
    formatter = make();
    cache.set(timeZone, formatter);
  }
  return formatter;
}

/** Today's date 'YYYY-MM-DD' in Johannesburg (or another zone) at the given instant. */
export function todayIn(now: Date = new Date(), timeZone: string = TIME_ZONE): string {
  const formatter = formatterFor(dateFormatters, timeZone, () => new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }));
  const parts = formatter.formatToParts(now);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
}

/** The local time 'HH:mm' in Johannesburg at the given instant. */
export function timeIn(now: Date = new Date(), timeZone: string = TIME_ZONE): string {
  const formatter = formatterFor(timeFormatters, timeZone, () => new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }));
  const parts = formatter.formatToParts(now);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '00';
  return `${get('hour')}:${get('minute')}`;
}

/** The local month 'YYYY-MM' at an instant (earnings by month, invoice years). */
export function monthIn(instant: Date, timeZone: string = TIME_ZONE): string {
  return todayIn(instant, timeZone).slice(0, 7);
}

/** Minutes the zone is ahead of UTC at an instant. */
function offsetMinutes(instant: number, timeZone: string): number {
  const formatter = formatterFor(offsetFormatters, timeZone, () =>
    new Intl.DateTimeFormat('en-CA', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' }),
  );
  const parts = Object.fromEntries(formatter.formatToParts(new Date(instant)).map((p) => [p.type, p.value]));
  const asUtc = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
  return Math.round((asUtc - Math.floor(instant / 1000) * 1000) / 60_000);
}

/** The instant of a local date and time 'HH:mm' in Johannesburg (or another zone). */
export function localInstant(date: string, time = '00:00', timeZone: string = TIME_ZONE): Date {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const [hh, mm] = time.split(':').map(Number) as [number, number];
  const wall = Date.UTC(y, m - 1, d, hh, mm);
  // The offset at the wall time read as UTC, corrected once for a change of offset in between.
  const first = wall - offsetMinutes(wall, timeZone) * 60_000;
  return new Date(wall - offsetMinutes(first, timeZone) * 60_000);
}

/** The instant a local day starts (midnight in Johannesburg). */
export function startOfDay(date: string, timeZone: string = TIME_ZONE): Date {
  return localInstant(date, '00:00', timeZone);
}

/** The midnight that ends a local day: the start of the next day. */
export function midnightAfter(date: string, timeZone: string = TIME_ZONE): Date {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return startOfDay(new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10), timeZone);
}

/** True once a local date has begun (its start is not in the future). */
export function hasDayStarted(date: string, now: Date, timeZone: string = TIME_ZONE): boolean {
  return date <= todayIn(now, timeZone);
}
