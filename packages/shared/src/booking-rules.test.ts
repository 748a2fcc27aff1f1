// Booking date rules of document 2 section 5 and decisions.md section 5: lengths, the zone's
// today, and validateBookingRequest's first failing check, in the seed's order and words.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addDays,
  BOOKING_RULE_MESSAGES as M,
  daysBetween,
  durationDays,
  daysSpan,
  durationHours,
  isValidDate,
  momentOf,
  rangesOverlap,
  validateBookingRequest,
  type BookingRequestInput,
  formatMoment,
  formatShortDay,
} from './booking-rules';
import { timeIn, todayIn } from './zoned-date';

const base: BookingRequestInput = {
  start_date: '2030-03-12',
  end_date: '2030-03-14',
  start_time: '09:00',
  end_time: '17:00',
  is_hourly_booking: false,
  blockedRanges: [],
  isOwnCar: false,
  isVerified: true,
  today: '2030-03-10',
  maxRentalDays: 30,
};
const check = (changes: Partial<BookingRequestInput>) => validateBookingRequest({ ...base, ...changes });

describe('dates and lengths', () => {
  it('counts calendar days end minus start, at least 1, whatever the times', () => {
    expect(durationDays('2030-03-01', '2030-03-03')).toBe(2);
    expect(durationDays('2030-03-01', '2030-03-01')).toBe(1);
    expect(durationDays('2030-02-28', '2030-03-01')).toBe(1);
    expect(durationDays('2028-02-28', '2028-03-01')).toBe(2);
  });

  it('counts hours rounded up, 1 to 24, across midnight', () => {
    expect(durationHours('2030-03-01', '09:00', '2030-03-01', '11:20')).toBe(3);
    expect(durationHours('2030-03-01', '20:00', '2030-03-02', '08:00')).toBe(12);
    expect(durationHours('2030-03-01', '10:00', '2030-03-01', '10:30')).toBe(1);
    expect(durationHours('2030-03-01', '06:00', '2030-03-02', '22:00')).toBe(24);
  });

  it('knows today and the time in Johannesburg (UTC+2), not the server\u2019s zone', () => {
    expect(todayIn(new Date('2030-03-09T22:30:00Z'))).toBe('2030-03-10');
    expect(todayIn(new Date('2030-03-09T21:59:00Z'))).toBe('2030-03-09');
    expect(timeIn(new Date('2030-03-09T22:30:00Z'))).toBe('00:30');
  });

  it('rejects impossible dates', () => {
    expect(isValidDate('2030-02-29')).toBe(false);
    expect(isValidDate('2028-02-29')).toBe(true);
    expect(isValidDate('2030-13-01')).toBe(false);
    expect(isValidDate('1/3/2030')).toBe(false);
  });

  const date = fc.integer({ min: 0, max: 3650 }).map((n) => addDays('2025-01-01', n));
  it('addDays and daysBetween agree (property)', () => {
    fc.assert(
      fc.property(date, fc.integer({ min: -400, max: 400 }), (d, n) => {
        expect(daysBetween(d, addDays(d, n))).toBe(n);
        expect(isValidDate(addDays(d, n))).toBe(true);
      }),
    );
  });

  it('overlap of inclusive ranges is symmetric and shares a date exactly when it says so (property)', () => {
    const range = fc.tuple(date, fc.integer({ min: 0, max: 20 })).map(([s, n]) => ({ start_date: s, end_date: addDays(s, n) }));
    fc.assert(
      fc.property(range, range, (a, b) => {
        expect(rangesOverlap(a, b)).toBe(rangesOverlap(b, a));
        let shared = false;
        for (let d = a.start_date; d <= a.end_date; d = addDays(d, 1)) if (d >= b.start_date && d <= b.end_date) shared = true;
        expect(rangesOverlap(a, b)).toBe(shared);
      }),
    );
  });

  it('a daily length is monotone in the end date and never below 1 (property)', () => {
    fc.assert(
      fc.property(date, fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 60 }), (start, a, b) => {
        const [short, long] = a <= b ? [a, b] : [b, a];
        expect(durationDays(start, addDays(start, long))).toBeGreaterThanOrEqual(durationDays(start, addDays(start, short)));
        expect(durationDays(start, addDays(start, short))).toBeGreaterThanOrEqual(1);
      }),
    );
  });
});

describe('validateBookingRequest: the first failing check, in the seed\u2019s order', () => {
  it('passes a good request', () => {
    expect(check({})).toBeNull();
    expect(check({ start_date: '2030-03-10', end_date: '2030-03-10' })).toBeNull();
  });

  it('1. dates held by a holding booking come first', () => {
    const blocked = [daysSpan('2030-03-14', '2030-03-16')];
    expect(check({ blockedRanges: blocked })).toEqual(M.dates_unavailable);
    expect(check({ blockedRanges: blocked, isOwnCar: true, isVerified: false, start_date: '2030-03-01', end_date: '2030-03-20' })).toMatchObject({
      title: 'Dates Unavailable',
      message: 'One or more selected dates are already booked or have pending requests. Please choose different dates.',
      status: 409,
    });
    expect(check({ blockedRanges: [daysSpan('2030-03-15', '2030-03-16')] })).toBeNull();
  });

  it('1. holds are time ranges: an hourly trip holds only its hours, touching ends do not overlap, the buffer widens the trip', () => {
    const morning = [{ from: momentOf('2030-03-12', '09:00'), to: momentOf('2030-03-12', '12:00') }];
    const hourly = (start_time: string, end_time: string, bufferMinutes = 0) =>
      check({ is_hourly_booking: true, start_date: '2030-03-12', end_date: '2030-03-12', start_time, end_time, blockedRanges: morning, bufferMinutes })?.code ?? null;
    expect(hourly('12:00', '17:00')).toBeNull();
    expect(hourly('11:59', '17:00')).toBe('dates_unavailable');
    expect(hourly('06:00', '09:00')).toBeNull();
    expect(hourly('06:00', '09:01')).toBe('dates_unavailable');
    // An hour's buffer after a 06:00-08:00 trip reaches 09:00 exactly: touching, accepted; a minute more is not.
    expect(hourly('06:00', '08:00', 60)).toBeNull();
    expect(hourly('06:00', '08:01', 60)).toBe('dates_unavailable');
    // Without times yet, an hourly day is checked whole.
    expect(check({ is_hourly_booking: true, start_date: '2030-03-12', end_date: '2030-03-12', start_time: null, end_time: null, blockedRanges: morning })?.code).toBe('dates_unavailable');
    // A daily trip from the 10th 09:00 to the 12th 09:00 ends as the morning trip starts.
    expect(check({ start_date: '2030-03-10', end_date: '2030-03-12', start_time: '09:00', end_time: '09:00', blockedRanges: morning })).toBeNull();
  });

  it('2. own car, 3. verification, 4. start in the past, 5. end before start', () => {
    expect(check({ isOwnCar: true, isVerified: false })).toMatchObject({ title: 'Cannot Book Own Car', message: 'You cannot book your own car.', status: 403 });
    expect(check({ isVerified: false, start_date: '2030-03-01' })).toMatchObject({ title: 'Verification Required', status: 403 });
    expect(check({ start_date: '2030-03-09', end_date: '2030-03-08' })).toMatchObject({ title: 'Invalid Date', message: 'Start date cannot be in the past.' });
    expect(check({ end_date: '2030-03-11' })).toMatchObject({ title: 'Invalid Date', message: 'End date must be after start date.' });
  });

  it('applies the hourly rules in order', () => {
    const hourly = (start_date: string, end_date: string, start_time: string | null, end_time: string | null) =>
      check({ is_hourly_booking: true, start_date, end_date, start_time, end_time })?.title ?? null;
    expect(hourly('2030-03-12', '2030-03-12', null, '12:00')).toBe('Missing Times');
    expect(hourly('2030-03-12', '2030-03-14', '09:00', '10:00')).toBe('Invalid Booking');
    expect(hourly('2030-03-12', '2030-03-12', '12:00', '12:00')).toBe('Invalid Time');
    expect(hourly('2030-03-12', '2030-03-12', '12:00', '12:45')).toBe('Invalid Duration');
    expect(hourly('2030-03-12', '2030-03-13', '09:00', '09:30')).toBe('Duration Too Long');
    expect(hourly('2030-03-12', '2030-03-13', '20:00', '08:00')).toBeNull();
    expect(hourly('2030-03-12', '2030-03-12', '09:00', '10:00')).toBeNull();
  });

  it('then the maximum length and the opening hours', () => {
    expect(check({ end_date: '2030-04-12' })).toMatchObject({ title: 'Booking Too Long', message: 'Bookings cannot be longer than 30 days.' });
    expect(check({ end_date: '2030-04-11' })).toBeNull();
    expect(check({ start_time: '05:59' })).toMatchObject({ message: 'Pickup and return times must be between 06:00 and 22:00.' });
    expect(check({ end_time: '22:00' })).toBeNull();
  });

  it('any request that passes has a length within the limits (property)', () => {
    const time = fc.integer({ min: 0, max: 47 }).map((h) => `${String(Math.floor(h / 2)).padStart(2, '0')}:${h % 2 ? '30' : '00'}`);
    fc.assert(
      fc.property(fc.integer({ min: -3, max: 60 }), fc.integer({ min: -3, max: 40 }), time, time, fc.boolean(), (offset, length, st, et, isHourly) => {
        const start_date = addDays(base.today, offset);
        const end_date = addDays(start_date, length);
        const failure = check({ start_date, end_date, start_time: st, end_time: et, is_hourly_booking: isHourly });
        if (failure) return;
        expect(start_date >= base.today).toBe(true);
        if (isHourly) {
          const hours = durationHours(start_date, st, end_date, et);
          expect(hours).toBeGreaterThanOrEqual(1);
          expect(hours).toBeLessThanOrEqual(24);
        } else {
          expect(durationDays(start_date, end_date)).toBeLessThanOrEqual(30);
          expect(end_date >= start_date).toBe(true);
        }
      }),
    );
  });
});

describe('formatShortDay and formatMoment (running text, Johannesburg)', () => {
  const now = new Date('2026-11-26T10:00:00Z');
  it('names the weekday, the day without a leading zero and the month; the year only when it is not this year', () => {
    expect(formatShortDay('2026-12-08', now)).toBe('Tue 8 Dec');
    expect(formatShortDay('2027-01-05', now)).toBe('Tue 5 Jan 2027');
    expect(formatShortDay('not a date', now)).toBe('not a date');
  });
  it('reads an instant on the Johannesburg clock, so 22:30 UTC is already the next day', () => {
    expect(formatMoment('2026-12-09T12:00:00.000Z', now)).toBe('Wed 9 Dec, 14:00');
    expect(formatMoment('2026-12-09T22:30:00.000Z', now)).toBe('Thu 10 Dec, 00:30');
    expect(formatMoment('2026-12-31T22:30:00.000Z', now)).toBe('Fri 1 Jan 2027, 00:30');
  });
});
