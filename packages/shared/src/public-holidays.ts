// South Africa's public holidays (Public Holidays Act 36 of 1994, section 2): the fixed days, Good
// Friday and Family Day (the Friday before and the Monday after Easter Sunday), and the Monday after
// any of them that falls on a Sunday (section 2(1)). Days the President declares for one year only
// (an election day, say) are not in the Act and so not here. Dates are 'YYYY-MM-DD', pure, no zone
// (a holiday is a calendar day in South Africa). The host's calendar marks them (issue 36) and the
// payout schedule moves a run off them (payouts.ts `isBusinessDay`): one list for both.

const FIXED: readonly [monthDay: string, name: string][] = [
  ['01-01', "New Year's Day"],
  ['03-21', 'Human Rights Day'],
  ['04-27', 'Freedom Day'],
  ['05-01', "Workers' Day"],
  ['06-16', 'Youth Day'],
  ['08-09', "National Women's Day"],
  ['09-24', 'Heritage Day'],
  ['12-16', 'Day of Reconciliation'],
  ['12-25', 'Christmas Day'],
  ['12-26', 'Day of Goodwill'],
];

export interface PublicHoliday {
  date: string;
  name: string;
}

const iso = (d: Date) => d.toISOString().slice(0, 10);
const utc = (year: number, month: number, day: number) => new Date(Date.UTC(year, month - 1, day));

/** Easter Sunday of a Gregorian year (the anonymous algorithm of Meeus, Jones and Butcher). */
export function easterSunday(year: number): string {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return iso(utc(year, month, day));
}

const addDays = (date: string, days: number) => iso(new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000));

/** The public holidays of a year, in date order, the Mondays after Sunday holidays included. */
export function southAfricanPublicHolidays(year: number): PublicHoliday[] {
  const easter = easterSunday(year);
  const days: PublicHoliday[] = [
    ...FIXED.map(([monthDay, name]) => ({ date: `${year}-${monthDay}`, name })),
    { date: addDays(easter, -2), name: 'Good Friday' },
    { date: addDays(easter, 1), name: 'Family Day' },
  ];
  const taken = new Set(days.map((d) => d.date));
  const observed: PublicHoliday[] = [];
  for (const holiday of days) {
    if (new Date(`${holiday.date}T00:00:00Z`).getUTCDay() !== 0) continue;
    // The Monday after. When that Monday is itself a holiday (Christmas on a Sunday), the President
    // has declared the Tuesday (2011, 2016, 2022): the next day that is not one.
    let monday = addDays(holiday.date, 1);
    while (taken.has(monday)) monday = addDays(monday, 1);
    taken.add(monday);
    observed.push({ date: monday, name: `${holiday.name} (observed)` });
  }
  return [...days, ...observed].sort((x, y) => x.date.localeCompare(y.date));
}

const byYear = new Map<number, Map<string, PublicHoliday>>();

function holidaysOf(year: number): Map<string, PublicHoliday> {
  let days = byYear.get(year);
  if (!days) {
    days = new Map(southAfricanPublicHolidays(year).map((h) => [h.date, h]));
    byYear.set(year, days);
  }
  return days;
}

/** The public holiday on `date` (YYYY-MM-DD), if any. */
export function publicHolidayOn(date: string): PublicHoliday | undefined {
  return holidaysOf(Number(date.slice(0, 4))).get(date);
}

export function isPublicHoliday(date: string): boolean {
  return publicHolidayOn(date) !== undefined;
}
