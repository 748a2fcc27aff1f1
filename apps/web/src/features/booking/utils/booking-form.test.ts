import { describe, expect, it } from 'vitest';
import { BLOCKER_HINTS, bookingLength, initialBookingForm, submitBlocker, TIME_SLOTS, toCreateBookingBody } from './booking-form';

const daily = { ...initialBookingForm(), startDate: '2026-03-04', endDate: '2026-03-07' };

describe('booking form rules', () => {
  it('time choices run 06:00 to 22:00; defaults 09:00 and 17:00', () => {
    expect(TIME_SLOTS[0]).toBe('06:00');
    expect(TIME_SLOTS.at(-1)).toBe('22:00');
    expect(initialBookingForm()).toMatchObject({ mode: 'daily', startTime: '09:00', endTime: '17:00', startDate: '', endDate: '' });
  });

  it('Book Now is disabled without dates, without times, while sending, or hourly under 1 hour', () => {
    expect(submitBlocker(initialBookingForm(), false)).toBe('dates');
    expect(submitBlocker({ ...daily, endDate: '' }, false)).toBe('dates');
    expect(submitBlocker({ ...daily, startTime: '' }, false)).toBe('times');
    expect(submitBlocker(daily, true)).toBe('pending');
    expect(submitBlocker(daily, false)).toBeNull();
    const hourly = { ...daily, mode: 'hourly' as const, endDate: '2026-03-04', startTime: '10:00', endTime: '10:30' };
    expect(submitBlocker(hourly, false)).toBe('under-one-hour');
    expect(submitBlocker({ ...hourly, endTime: '11:00' }, false)).toBeNull();
    // Same day, return before pickup: the server's message, not "under an hour", and no price.
    const backwards = { ...hourly, startTime: '14:00', endTime: '13:00' };
    expect(submitBlocker(backwards, false)).toBe('end-time-not-after-start');
    expect(BLOCKER_HINTS['end-time-not-after-start']).toBe('End time must be after start time.');
    expect(bookingLength(backwards)).toBeNull();
    expect(submitBlocker({ ...hourly, startTime: '14:00', endTime: '14:00' }, false)).toBe('end-time-not-after-start');
  });

  it('counts days (same day = 1) and hours (rounded up)', () => {
    expect(bookingLength(daily)).toEqual({ days: 3, hours: 0, minutes: 0 });
    expect(bookingLength({ ...daily, endDate: '2026-03-04' })?.days).toBe(1);
    expect(bookingLength({ ...daily, mode: 'hourly', endDate: '2026-03-04', startTime: '09:00', endTime: '11:15' })).toEqual({ days: 1, hours: 3, minutes: 135 });
    expect(bookingLength(initialBookingForm())).toBeNull();
  });

  it('sends the documented fields; prices are left to the server', () => {
    expect(toCreateBookingBody('vw-polo-1', { ...daily, pickupOptionId: 'pickup_a', insuranceOptionId: null }, '  child seat ')).toEqual({
      car_username: 'vw-polo-1',
      start_date: '2026-03-04',
      end_date: '2026-03-07',
      start_time: '09:00',
      end_time: '17:00',
      is_hourly_booking: false,
      pickup_option: 'pickup_a',
      insurance_option: null,
      special_requirements: 'child seat',
    });
  });
});
