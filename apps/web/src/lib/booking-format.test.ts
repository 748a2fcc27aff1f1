import { describe, expect, it } from 'vitest';
import { makeBooking } from '@/test/booking-fixtures';
import { bookingStateLabel, formatDate, formatDuration, formatExpiresIn, lateFor } from './booking-format';

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

describe('a trip not returned by its end (issue 36)', () => {
  // Due Wednesday 25 November 2026, 17:00 in Johannesburg (15:00 UTC).
  const trip = makeBooking({ status: 'active', payment_status: 'paid', start_date: '2026-11-23', end_date: '2026-11-25', end_time: '17:00' });
  const at = (iso: string) => new Date(iso);
  it('is on trip up to the minute of its return, then late by the started hour, said to each side', () => {
    expect(bookingStateLabel(trip, 'owner', at('2026-11-25T15:00:00.000Z')).label).toBe('On trip · return Wed 25 Nov');
    expect(bookingStateLabel(trip, 'owner', at('2026-11-25T15:10:00.000Z'))).toEqual({ label: 'Not returned · 1 h late (due Wed 25 Nov, 17:00)', tone: 'danger' });
    expect(bookingStateLabel(trip, 'renter', at('2026-11-25T17:00:01.000Z')).label).toBe('Return overdue · 3 h late (due Wed 25 Nov, 17:00)');
  });
  it('counts days past two of them', () => {
    expect(lateFor(47 * 3_600_000)).toBe('47 h');
    expect(lateFor(48 * 3_600_000)).toBe('2 days');
    expect(lateFor(51 * 3_600_000 - 1)).toBe('2 days 3 h');
  });
});
