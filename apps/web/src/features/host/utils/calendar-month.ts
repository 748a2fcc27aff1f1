// The month of the host's calendar (decision 047): whole weeks, Sunday first, and how days and
// months read. Dates are Johannesburg's 'YYYY-MM-DD'; the arithmetic is on calendar dates only.
import { addDays, daysBetween, EARLIEST_TIME, LATEST_TIME, lazily, minutesOfTime } from '@karoo/shared';

export interface MonthDay {
  date: string;
  /** False for the neighbouring months' days that complete the first and last weeks. */
  inMonth: boolean;
}

export function shiftMonth(month: string, by: number): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const index = y * 12 + (m - 1) + by;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
}

const weekday = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay();

export function monthWeeks(month: string): MonthDay[][] {
  const first = `${month}-01`;
  const length = daysBetween(first, `${shiftMonth(month, 1)}-01`);
  const lead = weekday(first);
  const total = Math.ceil((lead + length) / 7) * 7;
  const weeks: MonthDay[][] = [];
  for (let i = 0; i < total; i++) {
    const date = addDays(first, i - lead);
    if (i % 7 === 0) weeks.push([]);
    weeks[weeks.length - 1]!.push({ date, inMonth: date.slice(0, 7) === month });
  }
  return weeks;
}

const utc = (date: string) => new Date(`${date}T00:00:00Z`);
const long = lazily(() => new Intl.DateTimeFormat('en-ZA', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }));
const short = lazily(() => new Intl.DateTimeFormat('en-ZA', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' }));
const monthName = lazily(() => new Intl.DateTimeFormat('en-ZA', { month: 'long', year: 'numeric', timeZone: 'UTC' }));

/** "Saturday, 6 February 2027". */
export const dayLong = (date: string) => long().format(utc(date));
/** "Sat, 6 Feb". */
export const dayShort = (date: string) => short().format(utc(date));
/** "February 2027". */
export const monthTitle = (month: string) => monthName().format(utc(`${month}-01`));

/** The half hours a block may start or end at: the opening hours, as the booking panel's times. */
export const BLOCK_TIMES: string[] = (() => {
  const times: string[] = [];
  for (let m = minutesOfTime(EARLIEST_TIME); m <= minutesOfTime(LATEST_TIME); m += 30) times.push(`${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`);
  return times;
})();
