import type { Car } from '@karoo/shared';
import { describe, expect, it } from 'vitest';
import { canMarkReturned, canToggleAvailability, carStatusBadge, hostStats, priceEditValue, verificationBadge } from './fleet-rules';

const car = (overrides: Partial<Car> = {}) => ({ status: 'available', isRented: false, verification_status: 'verified', ...overrides }) as Car;

describe('priceEditValue', () => {
  it('applies only a price above 0 that differs from the current one', () => {
    expect(priceEditValue('950', 800)).toBe(950);
    expect(priceEditValue('1', 800)).toBe(1);
    expect(priceEditValue('0', 800)).toBeNull();
    expect(priceEditValue('-50', 800)).toBeNull();
    expect(priceEditValue('', 800)).toBeNull();
    expect(priceEditValue('   ', 800)).toBeNull();
    expect(priceEditValue('abc', 800)).toBeNull();
    expect(priceEditValue('800', 800)).toBeNull();
  });
});

describe('availability toggle and return', () => {
  it('locks the toggle while the car is rented or active', () => {
    expect(canToggleAvailability(car())).toBe(true);
    expect(canToggleAvailability(car({ status: 'offline' }))).toBe(true);
    expect(canToggleAvailability(car({ status: 'rented', isRented: true }))).toBe(false);
    expect(canToggleAvailability(car({ status: 'active' }))).toBe(false);
    expect(canToggleAvailability(car({ status: 'available', isRented: true }))).toBe(false);
  });

  it('offers Mark as Returned only while the car is rented', () => {
    expect(canMarkReturned(car({ status: 'rented', isRented: true }))).toBe(true);
    expect(canMarkReturned(car())).toBe(false);
    expect(canMarkReturned(car({ status: 'offline' }))).toBe(false);
  });
});

describe('badges', () => {
  it('names every status and marks unverified cars', () => {
    expect(carStatusBadge('available')).toEqual({ label: 'Available', tone: 'success' });
    expect(carStatusBadge('offline').label).toBe('Offline');
    expect(carStatusBadge('rented').label).toBe('Rented');
    expect(verificationBadge(car({ verification_status: 'pending_verification' }))).toEqual({ label: 'Pending verification', tone: 'warning' });
    expect(verificationBadge(car({ verification_status: 'rejected' }))).toEqual({ label: 'Rejected', tone: 'danger' });
    expect(verificationBadge(car())).toBeNull();
  });
});

describe('hostStats', () => {
  const fleet = [car(), car({ status: 'rented', isRented: true }), car({ status: 'offline' })];

  it('counts cars and rentals, and leaves the booking counters empty until the server\'s stats arrive', () => {
    expect(hostStats(fleet, null)).toEqual({ cars: 3, rented: 1, pendingRequests: null, confirmedBookings: null, totalEarnings: null });
  });

  it('takes the booking counters and the earnings from the server\'s stats of the host\'s cars', () => {
    expect(hostStats(fleet, { pending: 2, confirmed: 1, total_earnings: 2000 })).toEqual({ cars: 3, rented: 1, pendingRequests: 2, confirmedBookings: 1, totalEarnings: 2000 });
  });
});
