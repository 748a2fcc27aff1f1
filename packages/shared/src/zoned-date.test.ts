import { describe, expect, it } from 'vitest';
import { hasDayStarted, localInstant, midnightAfter, monthIn, startOfDay, timeIn, todayIn } from './zoned-date';

describe('the Johannesburg calendar', () => {
  it('reads today, the time and the month in Johannesburg, whatever the machine zone', () => {
    // 22:30 UTC on 31 December is already 00:30 on 1 January in Johannesburg.
    const instant = new Date('2027-12-31T22:30:00Z');
    expect(todayIn(instant)).toBe('2028-01-01');
    expect(timeIn(instant)).toBe('00:30');
    expect(monthIn(instant)).toBe('2028-01');
    expect(todayIn(new Date('2028-02-28T22:00:00Z'))).toBe('2028-02-29');
  });

  it('turns local dates and times into instants, and knows where a day ends', () => {
    expect(startOfDay('2026-11-30').toISOString()).toBe('2026-11-29T22:00:00.000Z');
    expect(localInstant('2026-11-30', '12:00').toISOString()).toBe('2026-11-30T10:00:00.000Z');
    expect(midnightAfter('2026-11-30').toISOString()).toBe('2026-11-30T22:00:00.000Z');
    expect(midnightAfter('2027-12-31').toISOString()).toBe('2027-12-31T22:00:00.000Z');
    expect(midnightAfter('2028-02-28').toISOString()).toBe('2028-02-28T22:00:00.000Z');
    expect(todayIn(midnightAfter('2028-02-28'))).toBe('2028-02-29');
  });

  it('follows a zone with daylight saving too (offsets come from the zone database)', () => {
    // London: GMT in January, BST (UTC+1) in July.
    expect(startOfDay('2027-01-15', 'Europe/London').toISOString()).toBe('2027-01-15T00:00:00.000Z');
    expect(startOfDay('2027-07-15', 'Europe/London').toISOString()).toBe('2027-07-14T23:00:00.000Z');
  });

  it('says whether a local day has begun', () => {
    expect(hasDayStarted('2026-12-01', new Date('2026-11-30T21:59:00Z'))).toBe(false);
    expect(hasDayStarted('2026-12-01', new Date('2026-11-30T22:00:00Z'))).toBe(true);
  });
});
