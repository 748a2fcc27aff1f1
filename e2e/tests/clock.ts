// The one "now" of the end-to-end run. The server starts its clock here (KAROO_TEST_NOW, set by
// playwright.config.ts for start-server.mjs) and every page starts its clock here too
// (fixtures.ts), so no journey depends on the day it runs. Both clocks then run at real speed.
//
// Sunday 24 January 2027, 08:00 in Johannesburg: "Next Week" is Sunday 31 January to Monday
// 1 February, a rental across a month's end (the case that once failed on 30 November), "This
// Weekend" is the last weekend of January, "Tomorrow" is a Monday, and a whole run stays on one day.
export const E2E_NOW = '2027-01-24T08:00:00+02:00';

/** Today in Johannesburg at E2E_NOW, 'YYYY-MM-DD'. */
export const E2E_TODAY = E2E_NOW.slice(0, 10);

export const E2E_YEAR = Number(E2E_TODAY.slice(0, 4));

/** Calendar-date arithmetic on 'YYYY-MM-DD' (no time zone can shift a day). */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}
