import { formatRand } from '@karoo/shared';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { emptySummary, makeBooking } from '@/test/booking-fixtures';
import { makeCar } from '@/test/car-fixtures';
import { makeUser, mockFetch, ok, signIn } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const stats = { total: 6, by_status: {}, pending: 2, confirmed: 1, active: 1, completed: 2, cancelled: 0, rejected: 0, total_revenue: 0, total_earnings: 0, total_app_fee: 0 };
const bookings = Array.from({ length: 6 }, (_, i) =>
  makeBooking({ id: `b${i}`, booking_id: `KRABCDEFG${i}`, status: i === 0 ? 'active' : 'completed', created_at: `2026-10-0${i + 1}T10:00:00.000Z` }),
);
const list = (cars: unknown[], total: number) => () => new Response(JSON.stringify({ success: true, data: cars, meta: { total, page: 1, limit: 48 } }));

describe('DashboardPage', () => {
  it('welcomes a customer with bookings, available cars, recent activity, the status summary and Trust and Safety', async () => {
    signIn(makeUser());
    mockFetch({
      'GET /api/booking/getAll': ok(bookings),
      'GET /api/booking/getStats': ok(stats),
      'GET /api/car/getCarList': list([], 42),
      'GET /api/notifications': ok([]),
    });
    renderApp({ path: '/dashboard' });
    expect(await screen.findByRole('heading', { name: 'Welcome back, Sipho Nkosi' })).toBeInTheDocument();
    expect(await screen.findByText('1 paid (17%)')).toBeInTheDocument();
    expect(await screen.findByText('42')).toBeInTheDocument();
    const recent = screen.getByRole('region', { name: 'Recent Activity' });
    expect(within(recent).getAllByRole('listitem')).toHaveLength(5);
    expect(within(recent).getAllByText('#KRABCDEF')).toHaveLength(5);
    const summary = screen.getByRole('region', { name: 'Booking Status' });
    expect(within(summary).getByText('Requested').nextSibling).toHaveTextContent('2');
    for (const text of ['Verified Users', 'Insured Vehicles', '24/7 Support']) expect(screen.getByText(text)).toBeInTheDocument();
    expect(screen.queryByText('Fleet Size')).not.toBeInTheDocument();
  });

  it('counts from the server\'s stats (never a capped list), asking for the viewer\'s own bookings', async () => {
    signIn(makeUser({ username: 'admin', full_name: 'Karoo Admin', role: 'admin' }));
    const seen: string[] = [];
    const own = { ...stats, total: 0, pending: 0, confirmed: 0, active: 0, completed: 0 };
    mockFetch({
      'GET /api/booking/getAll': ({ url }) => (seen.push(url), new Response(JSON.stringify({ success: true, data: [] }))),
      'GET /api/booking/getStats': ({ url }) => (seen.push(url), new Response(JSON.stringify({ success: true, data: own }))),
      'GET /api/car/getCarList': list([], 42),
      'GET /api/notifications': ok([]),
    });
    renderApp({ path: '/dashboard' });
    expect(await screen.findByText('0 paid (0%)')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Statistics' })).toHaveTextContent(/^Total Bookings00 paid \(0%\)/);
    expect(within(screen.getByRole('region', { name: 'Booking Status' })).getByText('Completed').nextSibling).toHaveTextContent('0');
    expect(seen.every((url) => url.includes('scope=mine'))).toBe(true);
  });

  it('shows a host the fleet size, earnings and a preview of 3 cars', async () => {
    signIn(makeUser({ username: 'host_thabo', full_name: '', role: 'host' }));
    const cars = Array.from({ length: 4 }, (_, i) =>
      makeCar({ id: `c${i}`, car_username: `c${i}`, car_owner: 'host_thabo', car_make: 'Kia', car_model: `Model${i}`, status: i === 0 ? 'rented' : 'available' }),
    );
    mockFetch({
      'GET /api/booking/getAll': ok([]),
      'GET /api/booking/getStats': ok(stats),
      'GET /api/car/getCarList': list(cars, 4),
      'GET /api/earnings/earning/getSummary': ok({ ...emptySummary, total_earnings: 1234.5 }),
      'GET /api/notifications': ok([]),
    });
    renderApp({ path: '/dashboard' });
    expect(await screen.findByRole('heading', { name: 'Welcome back, host_thabo' })).toBeInTheDocument();
    expect(await screen.findByText('1 rented now')).toBeInTheDocument();
    expect(await screen.findByText((_, el) => el?.children.length === 0 && el.textContent === formatRand(1234.5))).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Your Fleet' })).getAllByRole('listitem')).toHaveLength(3);
  });
});
