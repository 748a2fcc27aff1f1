// The pickup location's times bind the pickup (decision 059): each case written out by hand.
import { describe, expect, it } from 'vitest';
import { defaultPickupTime, pickupTimeRefusal, pickupTimesOf, timesInWords } from './pickup-times';

const home = { name: "Host's home", available_times: ['17:00', '09:00', '13:00'] };
const airport = { name: 'King Shaka Airport', available_times: ['07:00', '19:00'] };

describe('pickup times', () => {
  it('are the listed times in order, or any time without an option or a list', () => {
    expect(pickupTimesOf(home)).toEqual(['09:00', '13:00', '17:00']);
    expect(pickupTimesOf(null)).toBeNull();
    expect(pickupTimesOf({ name: 'Mall', available_times: [] })).toBeNull();
  });

  it('take a listed time and refuse any other, naming the place and its times', () => {
    expect(pickupTimeRefusal(home, '09:00')).toBeNull();
    expect(pickupTimeRefusal(home, '17:00')).toBeNull();
    expect(pickupTimeRefusal(home, '10:00')).toBe("Host's home hands over the car at 09:00, 13:00 or 17:00: choose one of these pickup times.");
    expect(pickupTimeRefusal(home, '18:00')).not.toBeNull();
    expect(pickupTimeRefusal(airport, '06:59')).toBe('King Shaka Airport hands over the car at 07:00 or 19:00: choose one of these pickup times.');
    expect(pickupTimeRefusal(null, '10:00')).toBeNull();
  });

  it('default to 09:00 where it is listed, else to the first listed time', () => {
    expect(defaultPickupTime(home)).toBe('09:00');
    expect(defaultPickupTime(airport)).toBe('07:00');
    expect(defaultPickupTime(null)).toBe('09:00');
  });

  it('read as a list in words', () => {
    expect(timesInWords(['07:00'])).toBe('07:00');
    expect(timesInWords(['07:00', '19:00'])).toBe('07:00 or 19:00');
  });
});
