import { describe, expect, it } from 'vitest';
import { isBusinessDay, nextRunDay } from './payouts';

describe('isBusinessDay (the holidays are public-holidays.ts\'s, tested there)', () => {
  it('is a weekday that is no holiday, observed days included', () => {
    // 16 June 2030 is a Sunday: Monday 17 June is a holiday too.
    expect(isBusinessDay('2030-06-17')).toBe(false);
    expect(isBusinessDay('2030-06-18')).toBe(true);
    expect(isBusinessDay('2030-06-15')).toBe(false);
    // Christmas 2022 on a Sunday: Goodwill holds Monday, the banks closed on Tuesday the 27th too.
    expect(isBusinessDay('2022-12-27')).toBe(false);
    expect(isBusinessDay('2022-12-28')).toBe(true);
  });
});

describe('nextRunDay', () => {
  it('weekly moves past holidays, and stays on the moved day until it has passed', () => {
    const friday = { schedule: 'weekly' as const, weekday: 5, month_day: 25 };
    expect(nextRunDay(friday, '2030-04-15')).toBe('2030-04-23');
    expect(nextRunDay(friday, '2030-04-23')).toBe('2030-04-23');
    expect(nextRunDay(friday, '2030-04-24')).toBe('2030-04-26');
  });
  it('monthly on a weekend day runs the Monday; each trip runs every business day', () => {
    expect(nextRunDay({ schedule: 'monthly', weekday: 5, month_day: 25 }, '2030-05-01')).toBe('2030-05-27');
    expect(nextRunDay({ schedule: 'trip', weekday: 5, month_day: 25 }, '2030-12-25')).toBe('2030-12-27');
  });
});
