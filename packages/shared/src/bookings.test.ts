// The booking status machine and its expiry rule, as the server and the web both read them.
import { describe, expect, it } from 'vitest';
import { BOOKING_STATUSES, BOOKING_TRANSITION_ACTORS, bookingExpiresAt, canActorTransition, canTransition } from './bookings';
import { midnightAfter as midnightAfterStart } from './zoned-date';

describe('status machine', () => {
  it('allows exactly the changes of decisions.md section 5', () => {
    const allowed = BOOKING_STATUSES.flatMap((from) => BOOKING_STATUSES.filter((to) => canTransition(from, to)).map((to) => `${from}->${to}`));
    expect(allowed.sort()).toEqual(
      ['pending->confirmed', 'pending->rejected', 'pending->cancelled', 'confirmed->cancelled', 'confirmed->active', 'active->completed', 'active->cancelled'].sort(),
    );
    expect(Object.keys(BOOKING_TRANSITION_ACTORS).sort()).toEqual(allowed.sort());
    expect(canTransition('Pending', 'CONFIRMED')).toBe(true);
  });

  it('says who may make each change', () => {
    expect(canActorTransition('pending', 'confirmed', 'owner')).toBe(true);
    expect(canActorTransition('pending', 'confirmed', 'admin')).toBe(true);
    expect(canActorTransition('pending', 'confirmed', 'renter')).toBe(false);
    expect(canActorTransition('pending', 'cancelled', 'renter')).toBe(true);
    expect(canActorTransition('confirmed', 'cancelled', 'owner')).toBe(false);
    expect(canActorTransition('confirmed', 'active', 'admin')).toBe(false);
    expect(canActorTransition('confirmed', 'active', 'payment')).toBe(true);
    expect(canActorTransition('active', 'completed', 'renter')).toBe(false);
    expect(canActorTransition('completed', 'cancelled', 'admin')).toBe(false);
  });
});

describe('expiry', () => {
  it('midnight after the start date is 22:00 UTC of the start date (Johannesburg is UTC+2)', () => {
    expect(midnightAfterStart('2030-03-10').toISOString()).toBe('2030-03-10T22:00:00.000Z');
    expect(midnightAfterStart('2030-12-31').toISOString()).toBe('2030-12-31T22:00:00.000Z');
  });

  it('pending: 48 h after creation or that midnight; confirmed-unpaid: 24 h after acceptance; others never', () => {
    const base = { payment_status: 'unpaid', start_date: '2030-04-01', created_at: '2030-03-10T08:00:00Z', confirmed_at: null };
    expect(bookingExpiresAt({ ...base, status: 'pending' })?.toISOString()).toBe('2030-03-12T08:00:00.000Z');
    expect(bookingExpiresAt({ ...base, status: 'pending', start_date: '2030-03-10' })?.toISOString()).toBe('2030-03-10T22:00:00.000Z');
    expect(bookingExpiresAt({ ...base, status: 'confirmed', confirmed_at: '2030-03-11T08:00:00Z' })?.toISOString()).toBe('2030-03-12T08:00:00.000Z');
    expect(bookingExpiresAt({ ...base, status: 'confirmed', payment_status: 'paid' })).toBeNull();
    for (const status of ['active', 'completed', 'cancelled', 'rejected']) expect(bookingExpiresAt({ ...base, status })).toBeNull();
  });
});
