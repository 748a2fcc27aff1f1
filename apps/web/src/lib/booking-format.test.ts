import { describe, expect, it } from 'vitest';
import { formatDate, formatDuration, formatExpiresIn } from './booking-format';

describe('formatDuration', () => {
  it('shows hours for hourly bookings and days otherwise', () => {
    expect(formatDuration({ is_hourly_booking: true, duration_hours: 3, duration_days: 1 })).toBe('3 hours');
    expect(formatDuration({ is_hourly_booking: false, duration_hours: null, duration_days: 1 })).toBe('1 day');
    expect(formatDuration({ is_hourly_booking: false, duration_hours: null, duration_days: 4 })).toBe('4 days');
  });
});

describe('formatExpiresIn', () => {
  const now = new Date('2030-03-01T10:00:00Z');
  it('counts down to the expiry', () => {
    expect(formatExpiresIn('2030-03-01T10:45:00Z', now)).toBe('Expires in 45 min');
    expect(formatExpiresIn('2030-03-01T15:20:00Z', now)).toBe('Expires in 5 h 20 min');
    expect(formatExpiresIn('2030-03-03T12:00:00Z', now)).toBe('Expires in 2 days 2 h');
  });
  it('is null when there is no expiry or it has passed', () => {
    expect(formatExpiresIn(null, now)).toBeNull();
    expect(formatExpiresIn('2030-03-01T09:00:00Z', now)).toBeNull();
  });
});

describe('formatDate', () => {
  it('shows a calendar date as it is and a moment on Johannesburg’s calendar', () => {
    expect(formatDate('2030-03-01')).toBe('01 Mar 2030');
    expect(formatDate('2030-03-12T08:00:00.000Z')).toBe('12 Mar 2030');
    // 23:30 UTC is 01:30 the next day in Johannesburg.
    expect(formatDate('2030-03-12T23:30:00.000Z')).toBe('13 Mar 2030');
    expect(formatDate('not a date')).toBe('not a date');
  });
});
