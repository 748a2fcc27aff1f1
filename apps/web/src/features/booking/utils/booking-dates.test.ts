import { describe, expect, it } from 'vitest';
import { comingSaturday, dayState, formatDayLong, monthGrid, quickSelectRange, shiftMonth } from './booking-dates';

// 2026-03-04 is a Wednesday.
const WEDNESDAY = '2026-03-04';

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
});

describe('calendar days', () => {
  const availability = [
    { start_date: '2026-03-10', end_date: '2026-03-11', status: 'confirmed' as const },
    { start_date: '2026-03-13', end_date: '2026-03-13', status: 'pending' as const },
    { start_date: '2026-03-20', end_date: '2026-03-20', status: 'active' as const },
  ];

  it('tells past, booked, pending and free days apart', () => {
    const rules = { today: WEDNESDAY, availability };
    expect(dayState('2026-03-03', rules)).toBe('past');
    expect(dayState('2026-03-04', rules)).toBe('available');
    expect(dayState('2026-03-10', rules)).toBe('booked');
    expect(dayState('2026-03-11', rules)).toBe('booked');
    expect(dayState('2026-03-13', rules)).toBe('pending');
    expect(dayState('2026-03-20', rules)).toBe('booked');
  });

  it('return picker: nothing before the pickup; hourly only the pickup day and the next', () => {
    const rules = { today: WEDNESDAY, availability: [], minDate: '2026-03-06', maxDate: '2026-03-07' };
    expect(dayState('2026-03-05', rules)).toBe('before-start');
    expect(dayState('2026-03-06', rules)).toBe('available');
    expect(dayState('2026-03-07', rules)).toBe('available');
    expect(dayState('2026-03-08', rules)).toBe('out-of-range');
  });

  it('lays out a month in weeks from Sunday', () => {
    const weeks = monthGrid('2026-03');
    expect(weeks[0]![0]).toBe('2026-03-01'); // 1 March 2026 is a Sunday
    expect(weeks.flat().filter(Boolean)).toHaveLength(31);
    expect(monthGrid('2026-02')[0]!.slice(0, 1)).toEqual(['2026-02-01']);
    expect(shiftMonth('2026-12', 1)).toBe('2027-01');
    expect(shiftMonth('2026-01', -1)).toBe('2025-12');
    expect(formatDayLong('2026-03-07')).toBe('Saturday, 7 March 2026');
  });
});
