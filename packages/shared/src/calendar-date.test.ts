// One rule for a calendar date in a request (issue 18): real days between 2000 and 2100, given once.
import { describe, expect, it } from 'vitest';
import { calendarDate, calendarDateOrTimestamp, dateRangeQuerySchema, optionalCalendarDate } from './calendar-date';

const messageOf = (result: { success: boolean; error?: { issues: { message: string }[] } }) => (result.success ? null : result.error!.issues[0]!.message);

describe('calendarDate', () => {
  const to = calendarDate('to');

  it('takes a real day between 2000-01-01 and 2100-12-31', () => {
    for (const day of ['2000-01-01', '2028-02-29', '2030-03-10', '2100-12-31']) expect(to.parse(day)).toBe(day);
  });

  it.each([
    ['2025-02-30', 'to must be a real date (YYYY-MM-DD)'],
    ['2023-02-29', 'to must be a real date (YYYY-MM-DD)'],
    ['2025-13-01', 'to must be a date (YYYY-MM-DD)'],
    ['275760-01-01', 'to must be a date (YYYY-MM-DD)'],
    ['99999-12-31', 'to must be a date (YYYY-MM-DD)'],
    ['+275760-09-13', 'to must be a date (YYYY-MM-DD)'],
    ['9999-12-31', 'to must be between 2000-01-01 and 2100-12-31'],
    ['1999-12-31', 'to must be between 2000-01-01 and 2100-12-31'],
    ['2101-01-01', 'to must be between 2000-01-01 and 2100-12-31'],
    ['２０２５-０１-０１', 'to must be a date (YYYY-MM-DD)'],
    ['a\u0000b', 'to contains characters that are not allowed'],
  ])('refuses %j: %s', (value, message) => {
    expect(messageOf(to.safeParse(value))).toBe(message);
  });

  it('refuses a value given twice (an array), a number and a missing one, naming the field', () => {
    expect(messageOf(to.safeParse(['2030-01-01', '2030-02-01']))).toBe('to must be a date (YYYY-MM-DD)');
    expect(messageOf(to.safeParse(20300101))).toBe('to must be a date (YYYY-MM-DD)');
    expect(messageOf(calendarDate('Start date').safeParse(undefined))).toBe('Start date is required');
  });

  it('optional in a query: empty is not given', () => {
    expect(optionalCalendarDate('from').parse('')).toBeUndefined();
    expect(optionalCalendarDate('from').parse(undefined)).toBeUndefined();
  });
});

describe('dateRangeQuerySchema', () => {
  it('wants from on or before to', () => {
    expect(dateRangeQuerySchema.parse({ from: '2030-01-01', to: '2030-01-31' })).toEqual({ from: '2030-01-01', to: '2030-01-31' });
    expect(messageOf(dateRangeQuerySchema.safeParse({ from: '2030-02-01', to: '2030-01-31' }))).toBe('from must be on or before to');
  });
});

describe('calendarDateOrTimestamp', () => {
  const returned = calendarDateOrTimestamp('Return date');
  it('takes a day or an ISO moment inside the range, and nothing else', () => {
    expect(returned.parse('2030-03-10')).toBe('2030-03-10');
    expect(returned.parse('2030-03-10T08:00:00.000Z')).toBe('2030-03-10T08:00:00.000Z');
    expect(returned.parse('2030-03-10T10:00+02:00')).toBe('2030-03-10T10:00+02:00');
    for (const bad of ['+275760-09-13T00:00:00.000Z', '9999-12-31T00:00:00Z', '2030-02-30T08:00:00Z', 'Sun Mar 10 2030', '2030-03-10T25:00:00Z']) {
      expect(returned.safeParse(bad).success, bad).toBe(false);
    }
  });
});
