import { describe, expect, it } from 'vitest';
import { makeUser } from '@/test/fixtures';
import { navLinks } from './nav-links';

const labels = (...args: Parameters<typeof navLinks>) => navLinks(...args).map((link) => link.label);

describe('navLinks', () => {
  it('shows guests Home and Browse Vehicles', () => {
    expect(labels(null)).toEqual(['Home', 'Browse Vehicles']);
  });

  it('shows admins only the Admin Panel', () => {
    expect(labels(makeUser({ username: 'admin', role: 'admin' }))).toEqual(['Admin Panel']);
  });

  it('adds Dashboard, My Bookings and Become a Host for users not pending verification', () => {
    expect(labels(makeUser())).toEqual(['Home', 'Browse Vehicles', 'Dashboard', 'My Bookings', 'Become a Host']);
    expect(labels(makeUser({ verification_status: 'pending_verification' }))).toEqual(['Home', 'Browse Vehicles']);
  });

  it('gives hosts Add a Vehicle, Host Dashboard and Earnings', () => {
    expect(labels(makeUser({ username: 'host_thabo', role: 'host' }))).toEqual([
      'Home',
      'Browse Vehicles',
      'Dashboard',
      'My Bookings',
      'Add a Vehicle',
      'Host Dashboard',
      'Earnings',
    ]);
  });
});
