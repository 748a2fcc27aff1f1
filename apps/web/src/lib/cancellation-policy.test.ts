// The cancellation policy in the renter's words, worked out by hand on a fixed clock: Sunday 20
// January 2030, 10:00 in Johannesburg (08:00 UTC).
import { formatRand } from '@karoo/shared';
import { describe, expect, it } from 'vitest';
import { bookedTripPolicy, GENERAL_CANCELLATION_POLICY, paidTripPolicy, policyTripOf, type PolicyTrip } from './cancellation-policy';

const NOW = new Date('2030-01-20T08:00:00Z');

// Fri 25 Jan 2030, 10:00; 4 days at R 800 = R 3 200 rental.
const longTrip: PolicyTrip = { isHourly: false, startDate: '2030-01-25', startTime: '10:00', durationDays: 4, subtotalCents: 320_000 };

describe('the policy before dates are chosen', () => {
  it('names the rules in words', () => {
    expect(GENERAL_CANCELLATION_POLICY).toBe(
      "Free cancellation until 24 hours before the trip starts (booked less than 25 hours ahead: for 1 hour after paying). After that, cancelling costs one day's average price (half of one day's for trips of one or two days, half the rental for hourly trips); the rest is refunded.",
    );
  });
});

describe('a trip being booked (paid now)', () => {
  it('is free until 24 hours before the start, then costs one day of a long trip', () => {
    expect(bookedTripPolicy(longTrip, NOW)).toBe(`Free cancellation until Thu 24 Jan, 10:00. After that, cancelling costs ${formatRand(800)}; the rest is refunded.`);
  });

  it('costs half of one day of a two-day trip, and half the rental of an hourly one', () => {
    const short = { ...longTrip, durationDays: 2, subtotalCents: 100_000 }; // R 500 a day: half is R 250
    expect(bookedTripPolicy(short, NOW)).toMatch(new RegExp(`cancelling costs ${formatRand(250)};`));
    const hourly = { ...longTrip, isHourly: true, durationDays: 1, startTime: '12:00', subtotalCents: 45_000 }; // R 450: half is R 225
    expect(bookedTripPolicy(hourly, NOW)).toBe(`Free cancellation until Thu 24 Jan, 12:00. After that, cancelling costs ${formatRand(225)}; the rest is refunded.`);
  });

  it('gives a trip starting within 25 hours one free hour from paying', () => {
    // Starts Mon 21 Jan, 09:00: 23 hours away, so free until 11:00 today rather than 09:00 today.
    expect(bookedTripPolicy({ ...longTrip, startDate: '2030-01-21', startTime: '09:00' }, NOW)).toMatch(/^Free cancellation until Sun 20 Jan, 11:00\./);
    // Starts in 30 minutes: free until the start.
    expect(bookedTripPolicy({ ...longTrip, startDate: '2030-01-20', startTime: '10:30' }, NOW)).toMatch(/^Free cancellation until Sun 20 Jan, 10:30\./);
    // 24 h 30 min away (Mon 21 Jan, 10:30): the hour from paying (11:00) outlasts the 24 hours (10:30).
    expect(bookedTripPolicy({ ...longTrip, startDate: '2030-01-21', startTime: '10:30' }, NOW)).toMatch(/^Free cancellation until Sun 20 Jan, 11:00\./);
    // 26 hours away (Mon 21 Jan, 12:00): the usual 24 hours before.
    expect(bookedTripPolicy({ ...longTrip, startDate: '2030-01-21', startTime: '12:00' }, NOW)).toMatch(/^Free cancellation until Sun 20 Jan, 12:00\./);
  });

  it('says nothing of a start already passed', () => {
    expect(bookedTripPolicy({ ...longTrip, startDate: '2030-01-20', startTime: '09:00' }, NOW)).toBeNull();
  });
});

describe('a paid trip (My Bookings)', () => {
  const paid = { ...longTrip, startDate: '2030-01-21', startTime: '09:00', paidAt: new Date('2030-01-10T08:00:00Z') };

  it('reads the real payment time', () => {
    expect(paidTripPolicy(paid, new Date('2030-01-15T08:00:00Z'))).toBe(`Free cancellation until Sun 20 Jan, 09:00. After that, cancelling costs ${formatRand(800)}; the rest is refunded.`);
    // Paid 20 minutes ago, 23 h 20 min before the start: the free hour runs from the payment.
    expect(paidTripPolicy({ ...paid, paidAt: new Date('2030-01-20T07:40:00Z') }, NOW)).toMatch(/^Free cancellation until Sun 20 Jan, 10:40\./);
  });

  it('says when the free window ended and what cancelling costs now', () => {
    expect(paidTripPolicy(paid, NOW)).toBe(`Free cancellation ended Sun 20 Jan, 09:00. Cancelling now costs ${formatRand(800)}; the rest is refunded.`);
  });

  it('says nothing once the trip has started', () => {
    expect(paidTripPolicy(paid, new Date('2030-01-21T07:00:00Z'))).toBeNull();
  });
});

it('reads a booking answer in cents', () => {
  expect(policyTripOf({ is_hourly_booking: false, duration_days: 4, subtotal: 3200.5, start_date: '2030-01-25', start_time: '10:00' })).toEqual({
    isHourly: false,
    durationDays: 4,
    subtotalCents: 320_050,
    startDate: '2030-01-25',
    startTime: '10:00',
  });
});
