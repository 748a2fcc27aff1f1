import { describe, expect, it } from 'vitest';
import { pathWithTrip, readTripDates, withTripDates } from './trip-dates';

const TODAY = '2026-03-04';
const read = (query: string) => readTripDates(new URLSearchParams(query), TODAY);

describe('the trip in the address', () => {
  it('reads the dates and times /cars writes, daily unless mode=hourly', () => {
    expect(read('start=2026-03-10&end=2026-03-13&pickupTime=10:00&returnTime=18:30')).toEqual({
      startDate: '2026-03-10',
      endDate: '2026-03-13',
      startTime: '10:00',
      endTime: '18:30',
      isHourly: false,
    });
    expect(read('start=2026-03-04&end=2026-03-05&mode=hourly')).toEqual({ startDate: '2026-03-04', endDate: '2026-03-05', startTime: '', endTime: '', isHourly: true });
  });

  it('today is a pickup day; yesterday, a return before the pickup, a missing or impossible date are no trip', () => {
    expect(read('start=2026-03-04&end=2026-03-04')?.startDate).toBe('2026-03-04');
    expect(read('start=2026-03-03&end=2026-03-05')).toBeNull();
    expect(read('start=2026-03-10&end=2026-03-09')).toBeNull();
    expect(read('start=2026-03-10')).toBeNull();
    expect(read('start=2026-02-30&end=2026-03-02')).toBeNull();
    expect(read('start=10-03-2026&end=2026-03-12')).toBeNull();
  });

  it('an hourly trip ends on its pickup day or the next', () => {
    expect(read('start=2026-03-10&end=2026-03-11&mode=hourly')).not.toBeNull();
    expect(read('start=2026-03-10&end=2026-03-12&mode=hourly')).toBeNull();
  });

  it('a broken time is left to the panel’s default', () => {
    expect(read('start=2026-03-10&end=2026-03-11&pickupTime=25:00&returnTime=9am')).toMatchObject({ startTime: '', endTime: '' });
  });

  it('writes a trip over any the params named, keeping the others; none removes it', () => {
    const before = new URLSearchParams('ref=mail&start=2026-03-01&end=2026-03-02&mode=hourly');
    expect(withTripDates(before, { startDate: '2026-03-10', endDate: '2026-03-12', startTime: '09:00', endTime: '17:00', isHourly: false }).toString()).toBe(
      'ref=mail&start=2026-03-10&end=2026-03-12&pickupTime=09%3A00&returnTime=17%3A00',
    );
    expect(withTripDates(before, null).toString()).toBe('ref=mail');
    expect(withTripDates(before, { startDate: '2026-03-10', endDate: '' }).toString()).toBe('ref=mail');
  });

  it('what it writes it reads back', () => {
    const trip = { startDate: '2026-03-05', endDate: '2026-03-06', startTime: '21:00', endTime: '08:00', isHourly: true };
    expect(readTripDates(withTripDates(new URLSearchParams(), trip), TODAY)).toEqual(trip);
  });

  it("a card's link carries the trip, or is the car's page alone", () => {
    expect(pathWithTrip('/cars/polo-1', { startDate: '2026-03-10', endDate: '2026-03-13', startTime: '10:00', endTime: '10:00', isHourly: false })).toBe(
      '/cars/polo-1?start=2026-03-10&end=2026-03-13&pickupTime=10%3A00&returnTime=10%3A00',
    );
    expect(pathWithTrip('/cars/polo-1', null)).toBe('/cars/polo-1');
  });
});
