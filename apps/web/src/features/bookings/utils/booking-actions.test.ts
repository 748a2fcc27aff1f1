import { describe, expect, it } from 'vitest';
import { makeBooking } from '@/test/booking-fixtures';
import { bookingActions, hasStarted, roleOf } from './booking-actions';

const now = new Date('2030-03-02T10:00:00Z');

describe('bookingActions', () => {
  it.each([
    ['pending', 'unpaid', 'owner', ['accept', 'reject']],
    ['pending', 'unpaid', 'renter', ['cancel']],
    ['confirmed', 'unpaid', 'renter', ['pay', 'cancel']],
    ['confirmed', 'unpaid', 'owner', []],
    ['active', 'paid', 'renter', []],
    ['active', 'paid', 'owner', ['return', 'report-no-show']],
    ['completed', 'paid', 'owner', []],
    ['completed', 'paid', 'renter', ['review']],
    ['cancelled', 'unpaid', 'renter', []],
    ['cancelled', 'unpaid', 'owner', []],
    ['rejected', 'unpaid', 'renter', []],
    ['rejected', 'unpaid', 'owner', []],
  ] as const)('%s (%s) as %s: %j', (status, payment_status, role, expected) => {
    expect(bookingActions(makeBooking({ status, payment_status, start_date: '2030-03-01' }), role, { now })).toEqual(expected);
  });

  it('hides Mark as Returned until the rental has started, and offers either side to cancel the paid trip until then', () => {
    const upcoming = makeBooking({ status: 'active', payment_status: 'paid', start_date: '2030-03-05' });
    expect(bookingActions(upcoming, 'owner', { now })).toEqual(['cancel-trip']);
    expect(bookingActions(upcoming, 'renter', { now })).toEqual(['cancel-trip']);
  });

  it('turns the host\u2019s Cancel trip into Report a no-show at the pickup time (Johannesburg), not at midnight', () => {
    // 09:00 in Johannesburg is 07:00 UTC.
    const today = makeBooking({ status: 'active', payment_status: 'paid', start_date: '2030-03-02', start_time: '09:00' });
    const before = new Date('2030-03-02T06:59:00Z');
    const after = new Date('2030-03-02T07:00:00Z');
    expect(bookingActions(today, 'owner', { now: before })).toEqual(['return', 'cancel-trip']);
    expect(bookingActions(today, 'renter', { now: before })).toEqual(['cancel-trip']);
    expect(bookingActions(today, 'owner', { now: after })).toEqual(['return', 'report-no-show']);
    expect(bookingActions(today, 'renter', { now: after })).toEqual([]);
  });

  it('hides Leave a review once the trip is reviewed', () => {
    expect(bookingActions(makeBooking({ status: 'completed', payment_status: 'paid' }), 'renter', { reviewed: true })).toEqual([]);
  });
});

describe('roleOf', () => {
  it('is owner for the car owner and renter otherwise', () => {
    const booking = makeBooking({ car_owner: 'host_thabo', user_username: 'sipho' });
    expect(roleOf(booking, { username: 'host_thabo' })).toBe('owner');
    expect(roleOf(booking, { username: 'sipho' })).toBe('renter');
  });

  it('is nothing for someone who is neither (an admin seeing another user\u2019s trip), so no renter actions are offered', () => {
    const booking = makeBooking({ car_owner: 'host_thabo', user_username: 'sipho' });
    expect(roleOf(booking, { username: 'admin' })).toBeNull();
    expect(roleOf(booking, null)).toBeNull();
  });
});

describe('hasStarted', () => {
  it('uses the Johannesburg calendar day', () => {
    // 23:30 UTC on 1 March is already 2 March in Johannesburg.
    expect(hasStarted('2030-03-02', new Date('2030-03-01T23:30:00Z'))).toBe(true);
    expect(hasStarted('2030-03-02', new Date('2030-03-01T21:30:00Z'))).toBe(false);
  });
});

describe('the review window', () => {
  it('offers Leave a review for 14 days after the trip completed, then no more (the server refuses later too)', () => {
    const completed = makeBooking({ status: 'completed', payment_status: 'paid', completed_at: '2030-03-01T10:00:00.000Z' });
    expect(bookingActions(completed, 'renter', { now: new Date('2030-03-15T09:59:00.000Z') })).toContain('review');
    expect(bookingActions(completed, 'renter', { now: new Date('2030-03-15T10:00:00.000Z') })).not.toContain('review');
    expect(bookingActions(completed, 'renter', { now: new Date('2030-03-02T10:00:00.000Z'), reviewed: true })).not.toContain('review');
  });
});
