import { daysSpan, momentOf, type CarAvailability } from '@karoo/shared';
import { describe, expect, it } from 'vitest';
import {
  comingSaturday,
  dayState,
  formatDayLong,
  monthGrid,
  QUICK_SELECT_HORIZON_DAYS,
  quickSelectChoice,
  quickSelectRange,
  shiftMonth,
  takenTimes,
} from './booking-dates';

// Every date here is fixed: nothing reads the wall clock. 2026-03-04 is a Wednesday.
const WEDNESDAY = '2026-03-04';

/** A hold of whole days (as a block of days answers), or of `from`-`to` on one day. */
const held = (start_date: string, end_date: string, status: CarAvailability['status'] = 'pending', times?: [string, string]): CarAvailability => {
  const span = times ? { from: momentOf(start_date, times[0]), to: momentOf(end_date, times[1]) } : daysSpan(start_date, end_date);
  return { start_date, end_date, status, kind: status === 'blocked' ? 'block' : 'booking', from: new Date(span.from).toISOString(), to: new Date(span.to).toISOString() };
};

describe('quick-select dates', () => {
  it('daily: Today, Tomorrow, This Weekend (the coming Saturday) and Next Week (+7), one day each', () => {
    expect(quickSelectRange('today', 'daily', WEDNESDAY)).toEqual({ start_date: '2026-03-04', end_date: '2026-03-05' });
    expect(quickSelectRange('tomorrow', 'daily', WEDNESDAY)).toEqual({ start_date: '2026-03-05', end_date: '2026-03-06' });
    expect(quickSelectRange('weekend', 'daily', WEDNESDAY)).toEqual({ start_date: '2026-03-07', end_date: '2026-03-08' });
    expect(quickSelectRange('nextWeek', 'daily', WEDNESDAY)).toEqual({ start_date: '2026-03-11', end_date: '2026-03-12' });
  });

  it('hourly: one day for pickup and return', () => {
    expect(quickSelectRange('today', 'hourly', WEDNESDAY)).toEqual({ start_date: WEDNESDAY, end_date: WEDNESDAY });
    expect(quickSelectRange('tomorrow', 'hourly', WEDNESDAY)).toEqual({ start_date: '2026-03-05', end_date: '2026-03-05' });
  });

  it('the coming Saturday is today on a Saturday and 6 days away on a Sunday', () => {
    expect(comingSaturday('2026-03-07')).toBe('2026-03-07');
    expect(comingSaturday('2026-03-08')).toBe('2026-03-14');
    expect(comingSaturday('2026-12-31')).toBe('2027-01-02');
  });

  it('cross month ends, 31 December and 29 February', () => {
    expect(quickSelectRange('nextWeek', 'daily', '2026-11-23')).toEqual({ start_date: '2026-11-30', end_date: '2026-12-01' });
    expect(quickSelectRange('today', 'daily', '2026-12-31')).toEqual({ start_date: '2026-12-31', end_date: '2027-01-01' });
    expect(quickSelectRange('tomorrow', 'hourly', '2026-12-31')).toEqual({ start_date: '2027-01-01', end_date: '2027-01-01' });
    expect(quickSelectRange('nextWeek', 'daily', '2028-02-22')).toEqual({ start_date: '2028-02-29', end_date: '2028-03-01' });
    expect(quickSelectRange('tomorrow', 'daily', '2028-02-28')).toEqual({ start_date: '2028-02-29', end_date: '2028-03-01' });
    expect(quickSelectRange('weekend', 'daily', '2028-02-28')).toEqual({ start_date: '2028-03-04', end_date: '2028-03-05' });
  });
});

describe('quick-selects skip held dates', () => {
  it('take their usual dates when those are free', () => {
    const choice = quickSelectChoice('nextWeek', 'daily', '2026-11-23', [held('2026-11-20', '2026-11-29'), held('2026-12-02', '2026-12-05')]);
    expect(choice).toEqual({ range: { start_date: '2026-11-30', end_date: '2026-12-01' }, movedFrom: null, reason: null });
  });

  it('Next Week: the first free one-day rental after +7, across a month end', () => {
    // 30 November to 1 December is pending; the 1st is still held, so the 2nd is the first free start.
    const choice = quickSelectChoice('nextWeek', 'daily', '2026-11-23', [held('2026-11-30', '2026-12-01')]);
    expect(choice).toEqual({ range: { start_date: '2026-12-02', end_date: '2026-12-03' }, movedFrom: '2026-11-30', reason: null });
  });

  it('Next Week: over 31 December into the new year', () => {
    const choice = quickSelectChoice('nextWeek', 'daily', '2026-12-24', [held('2026-12-31', '2026-12-31', 'confirmed')]);
    expect(choice.range).toEqual({ start_date: '2027-01-01', end_date: '2027-01-02' });
    expect(choice.movedFrom).toBe('2026-12-31');
  });

  it('Next Week: lands on or skips 29 February 2028', () => {
    expect(quickSelectChoice('nextWeek', 'daily', '2028-02-22', []).range).toEqual({ start_date: '2028-02-29', end_date: '2028-03-01' });
    const choice = quickSelectChoice('nextWeek', 'daily', '2028-02-22', [held('2028-02-28', '2028-02-29', 'active')]);
    expect(choice).toEqual({ range: { start_date: '2028-03-01', end_date: '2028-03-02' }, movedFrom: '2028-02-29', reason: null });
    // Hourly needs only the day itself.
    expect(quickSelectChoice('tomorrow', 'hourly', '2028-02-28', [held('2028-03-01', '2028-03-02')]).range).toEqual({ start_date: '2028-02-29', end_date: '2028-02-29' });
  });

  it('This Weekend: the next free Saturday to Sunday, over the new year', () => {
    // Thursday 24 December 2026: the coming weekend is the 26th and 27th.
    const choice = quickSelectChoice('weekend', 'daily', '2026-12-24', [held('2026-12-27', '2026-12-27', 'confirmed')]);
    expect(choice).toEqual({ range: { start_date: '2027-01-02', end_date: '2027-01-03' }, movedFrom: '2026-12-26', reason: null });
  });

  it('This Weekend over 29 February: a held Sunday 27th moves it to 4 March', () => {
    const choice = quickSelectChoice('weekend', 'daily', '2028-02-22', [held('2028-02-27', '2028-02-29')]);
    expect(choice.range).toEqual({ start_date: '2028-03-04', end_date: '2028-03-05' });
  });

  it('Today and Tomorrow name one day: held, they are disabled with the reason', () => {
    expect(quickSelectChoice('today', 'daily', '2027-01-31', [held('2027-01-31', '2027-02-01')])).toEqual({ range: null, movedFrom: null, reason: 'Booked — today is taken' });
    // Daily Today also needs tomorrow (the return day) free.
    expect(quickSelectChoice('today', 'daily', '2027-01-31', [held('2027-02-01', '2027-02-01')]).reason).toBe('Booked — today is taken');
    expect(quickSelectChoice('today', 'hourly', '2027-01-31', [held('2027-02-01', '2027-02-01')]).range).toEqual({ start_date: '2027-01-31', end_date: '2027-01-31' });
    expect(quickSelectChoice('tomorrow', 'hourly', '2026-12-31', [held('2027-01-01', '2027-01-01')]).reason).toBe('Booked — tomorrow is taken');
  });

  it('give up after the horizon, saying why', () => {
    const today = '2027-01-24';
    const firstStart = '2027-01-31';
    const lastStart = '2027-02-28'; // +7 then QUICK_SELECT_HORIZON_DAYS more
    expect(QUICK_SELECT_HORIZON_DAYS).toBe(28);
    // Free only from the last start's return day on: nothing fits.
    expect(quickSelectChoice('nextWeek', 'daily', today, [held(firstStart, lastStart)])).toEqual({
      range: null,
      movedFrom: null,
      reason: 'Booked — no free date in the 4 weeks after next week',
    });
    // Free from the last start on: that is still found.
    expect(quickSelectChoice('nextWeek', 'daily', today, [held(firstStart, '2027-02-27')]).range).toEqual({ start_date: lastStart, end_date: '2027-03-01' });
    // Five weekends held.
    expect(quickSelectChoice('weekend', 'daily', today, [held('2027-01-30', '2027-02-28')]).reason).toBe('Booked — no free weekend in the next 5 weeks');
  });
});

describe('calendar days', () => {
  const availability = [
    held('2026-03-10', '2026-03-11', 'confirmed'),
    held('2026-03-13', '2026-03-13', 'pending'),
    held('2026-03-20', '2026-03-20', 'active'),
    held('2026-03-21', '2026-03-22', 'blocked'),
    held('2026-03-25', '2026-03-25', 'confirmed', ['09:00', '12:00']),
  ];

  it('tells past, booked, pending and free days apart', () => {
    const rules = { today: WEDNESDAY, availability };
    expect(dayState('2026-03-03', rules)).toBe('past');
    expect(dayState('2026-03-04', rules)).toBe('available');
    expect(dayState('2026-03-10', rules)).toBe('booked');
    expect(dayState('2026-03-11', rules)).toBe('booked');
    expect(dayState('2026-03-13', rules)).toBe('pending');
    expect(dayState('2026-03-20', rules)).toBe('booked');
    // The host's blocked days are unavailable like booked ones (the renter is not told why).
    expect(dayState('2026-03-21', rules)).toBe('booked');
    expect(dayState('2026-03-22', rules)).toBe('booked');
    // An hourly morning trip leaves the afternoon free: the day stays open, marked.
    expect(dayState('2026-03-25', rules)).toBe('partly');
  });

  it('return picker: a return day whose trip would meet a hold is booked, the buffer counted', () => {
    const trip = { startDate: '2026-03-24', startTime: '09:00', endTime: '17:00', isHourly: false, bufferMinutes: 0 };
    const rules = { today: WEDNESDAY, availability, minDate: '2026-03-24', trip };
    // 24 March 09:00 to 25 March 17:00 meets the 09:00-12:00 trip of the 25th.
    expect(dayState('2026-03-25', rules)).toBe('booked');
    const early = { ...trip, endTime: '09:00' };
    expect(dayState('2026-03-25', { ...rules, trip: early })).toBe('partly');
    // With an hour's buffer a 09:00 return runs into the 09:00 trip.
    expect(dayState('2026-03-25', { ...rules, trip: { ...early, bufferMinutes: 60 } })).toBe('booked');
    expect(dayState('2026-03-25', { ...rules, trip: { ...early, endTime: '08:00', bufferMinutes: 60 } })).toBe('partly');
  });

  it('times: a pickup inside a hold and a return that would reach one are taken; touching is free', () => {
    const slots = ['08:00', '09:00', '11:30', '12:00', '13:00'];
    const morning = [held('2026-03-25', '2026-03-25', 'confirmed', ['09:00', '12:00'])];
    const trip = { startDate: '2026-03-25', endDate: '2026-03-25', startTime: '12:00', isHourly: true, bufferMinutes: 0 };
    expect([...takenTimes(slots, 'pickup', trip, morning)]).toEqual(['09:00', '11:30']);
    expect([...takenTimes(slots, 'return', { ...trip, startTime: '06:00' }, morning)]).toEqual(['11:30', '12:00', '13:00']);
    expect([...takenTimes(slots, 'return', { ...trip, startTime: '06:00', bufferMinutes: 60 }, morning)]).toEqual(['09:00', '11:30', '12:00', '13:00']);
  });

  it('return picker: nothing before the pickup; hourly only the pickup day and the next', () => {
    const rules = { today: WEDNESDAY, availability: [], minDate: '2026-03-06', maxDate: '2026-03-07' };
    expect(dayState('2026-03-05', rules)).toBe('before-start');
    expect(dayState('2026-03-06', rules)).toBe('available');
    expect(dayState('2026-03-07', rules)).toBe('available');
    expect(dayState('2026-03-08', rules)).toBe('out-of-range');
  });

  it('lays out a month in whole weeks from Sunday, with the neighbouring months’ days marked', () => {
    const weeks = monthGrid('2026-03');
    expect(weeks[0]![0]).toEqual({ date: '2026-03-01', inMonth: true }); // 1 March 2026 is a Sunday
    expect(weeks.every((week) => week.length === 7)).toBe(true);
    expect(weeks.flat().filter((day) => day.inMonth)).toHaveLength(31);
    // Tuesday 31 March ends the month; 1-4 April complete the week.
    expect(weeks.at(-1)!.map((day) => day.date)).toEqual(['2026-03-29', '2026-03-30', '2026-03-31', '2026-04-01', '2026-04-02', '2026-04-03', '2026-04-04']);
    expect(weeks.at(-1)!.map((day) => day.inMonth)).toEqual([true, true, true, false, false, false, false]);
    // February 2026 fills exactly four weeks: no neighbours.
    expect(monthGrid('2026-02').flat()).toHaveLength(28);
    expect(monthGrid('2026-02').flat().every((day) => day.inMonth)).toBe(true);
  });

  it('crosses the year and leap days: December 2026 and February 2028', () => {
    const december = monthGrid('2026-12').flat();
    expect(december[0]).toEqual({ date: '2026-11-29', inMonth: false });
    expect(december.at(-1)).toEqual({ date: '2027-01-02', inMonth: false });
    const leapFebruary = monthGrid('2028-02').flat();
    expect(leapFebruary.slice(0, 2)).toEqual([
      { date: '2028-01-30', inMonth: false },
      { date: '2028-01-31', inMonth: false },
    ]);
    expect(leapFebruary.filter((day) => day.inMonth).at(-1)!.date).toBe('2028-02-29');
    expect(leapFebruary.at(-1)).toEqual({ date: '2028-03-04', inMonth: false });
    // Every date appears once (the calendar's data-date is unique).
    expect(new Set(leapFebruary.map((day) => day.date)).size).toBe(leapFebruary.length);
  });

  it('moves between months and names days', () => {
    expect(shiftMonth('2026-12', 1)).toBe('2027-01');
    expect(shiftMonth('2026-01', -1)).toBe('2025-12');
    expect(formatDayLong('2026-03-07')).toBe('Saturday, 7 March 2026');
    expect(formatDayLong('2028-02-29')).toBe('Tuesday, 29 February 2028');
  });
});
