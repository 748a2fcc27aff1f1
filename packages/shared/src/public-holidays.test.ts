import { describe, expect, it } from 'vitest';
import { easterSunday, isPublicHoliday, publicHolidayOn, southAfricanPublicHolidays } from './public-holidays';

describe("South Africa's public holidays", () => {
  it.each([
    [2025, '2025-04-20'],
    [2026, '2026-04-05'],
    [2027, '2027-03-28'],
    [2028, '2028-04-16'],
    [2038, '2038-04-25'],
  ])('Easter Sunday %i is %s', (year, date) => {
    expect(easterSunday(year)).toBe(date);
  });

  it('2027: Good Friday and Family Day from Easter; Sunday holidays move to the Monday, Christmas on a Saturday keeps its day', () => {
    const byDate = Object.fromEntries(southAfricanPublicHolidays(2027).map((h) => [h.date, h.name]));
    expect(byDate['2027-03-26']).toBe('Good Friday');
    expect(byDate['2027-03-29']).toBe('Family Day');
    // 21 March 2027 is a Sunday.
    expect(byDate['2027-03-21']).toBe('Human Rights Day');
    expect(byDate['2027-03-22']).toBe('Human Rights Day (observed)');
    // 25 December 2027 is a Saturday (no Monday for it), 26 December a Sunday: Monday the 27th.
    expect(byDate['2027-12-25']).toBe('Christmas Day');
    expect(byDate['2027-12-27']).toBe('Day of Goodwill (observed)');
    expect(byDate['2027-12-28']).toBeUndefined();
    expect(Object.keys(byDate)).toHaveLength(12 + 2);
  });

  it('2022: Christmas on a Sunday gives Monday the 26th to Goodwill already, so it is observed on Tuesday the 27th', () => {
    const byDate = Object.fromEntries(southAfricanPublicHolidays(2022).map((h) => [h.date, h.name]));
    expect(byDate['2022-12-26']).toBe('Day of Goodwill');
    expect(byDate['2022-12-27']).toBe('Christmas Day (observed)');
  });

  it('names a day, or nothing', () => {
    expect(publicHolidayOn('2026-04-27')).toEqual({ date: '2026-04-27', name: 'Freedom Day' });
    expect(publicHolidayOn('2026-08-10')).toEqual({ date: '2026-08-10', name: "National Women's Day (observed)" });
    expect(publicHolidayOn('2026-08-11')).toBeUndefined();
  });

  it('2030: Easter\'s two days and a Sunday Youth Day observed on the Monday', () => {
    expect(publicHolidayOn('2030-04-19')?.name).toBe('Good Friday');
    expect(publicHolidayOn('2030-04-22')?.name).toBe('Family Day');
    expect(publicHolidayOn('2030-06-17')?.name).toBe('Youth Day (observed)');
    expect(isPublicHoliday('2030-06-18')).toBe(false);
  });
});
