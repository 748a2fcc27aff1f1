import { formatRand } from '@karoo/shared';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { emptySummary, makeEarning } from '@/test/booking-fixtures';
import { makeCar } from '@/test/car-fixtures';
import { makeUser, mockFetch, ok, signIn } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const host = makeUser({ id: 'host-1', username: 'host_thabo', full_name: 'Thabo Mokoena', role: 'host' });
const money = (amount: number) => (_: string, el: Element | null) => el?.children.length === 0 && el.textContent === formatRand(amount);

function cars(count: number) {
  return Array.from({ length: count }, (_, i) => makeCar({ id: `car-${i}`, car_username: `car-${i}`, car_owner: 'host_thabo' }));
}

describe('EarningsPage', () => {
  it('shows the empty state linking to /list-car', async () => {
    signIn(host);
    mockFetch({
      'GET /api/earnings/earning/getSummary': ok(emptySummary),
      'GET /api/earnings/earning/getCarOwnerProfit/host_thabo': ok([]),
      'GET /api/car/getCarList': () => new Response(JSON.stringify({ success: true, data: [], meta: { total: 0, page: 1, limit: 48 } })),
      'GET /api/notifications': ok([]),
    });
    renderApp({ path: '/earnings' });
    expect(await screen.findByRole('link', { name: 'List Your First Car' })).toHaveAttribute('href', '/list-car');
  });

  it('shows the stored totals, earnings by car, 10 recent completed bookings and View All', async () => {
    signIn(host);
    const earnings = Array.from({ length: 12 }, (_, i) =>
      makeEarning({ booking_id: `KR0000${String(i).padStart(2, '0')}AA`, completed_at: `2026-10-${String(i + 10).padStart(2, '0')}T10:00:00.000Z` }),
    );
    earnings.push(makeEarning({ booking_id: 'KRPAIDONLY', status: 'active' }));
    mockFetch({
      'GET /api/earnings/earning/getSummary': ok({
        total_revenue: 12345.5,
        rental_income: 10000,
        host_fee: 2500,
        total_earnings: 7500,
        app_fee: 4845.5,
        bookings: 13,
        by_car: [{ car_username: 'volkswagen-polo-123456', car_name: 'Volkswagen Polo', gross: 12345.5, car_owner_earnings: 7500, app_fee: 4845.5, bookings: 13 }],
        by_month: [],
      }),
      'GET /api/earnings/earning/getCarOwnerProfit/host_thabo': ok(earnings),
      'GET /api/car/getCarList': () => new Response(JSON.stringify({ success: true, data: cars(3), meta: { total: 3, page: 1, limit: 48 } })),
      'GET /api/notifications': ok([]),
    });
    const { user } = renderApp({ path: '/earnings' });

    const summary = await screen.findByRole('region', { name: 'Earnings summary' });
    expect(within(summary).getByText(money(12345.5))).toBeInTheDocument();
    expect(within(summary).getAllByText(money(7500)).length).toBe(1);
    // The platform fee a host pays is the fee kept from their rental income, not Karoo's whole share.
    expect(within(summary).getByText(money(2500))).toBeInTheDocument();
    expect(within(summary).getByText(`Kept from your rental income of ${formatRand(10000)}`.replace(/\s/g, ' '))).toBeInTheDocument();
    expect(within(summary).queryByText(/% of revenue/)).not.toBeInTheDocument();
    expect(within(summary).getByText('3')).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Earnings by car' })).getByText('Volkswagen Polo')).toBeInTheDocument();

    expect(screen.getAllByTestId('earning-row')).toHaveLength(10);
    // Each row compares the host's earnings with the rental they come from (subtotal + pickup fee).
    const [first] = earnings;
    expect(within(screen.getAllByTestId('earning-row')[0]!).getByText(`of ${formatRand(first!.subtotal + first!.pickup_fee)} rental · fee ${first!.commission_rate}%`.replace(/\s/g, ' '))).toBeInTheDocument();
    expect(screen.queryByText('KRPAIDONLY', { exact: false })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'View All 12 Bookings' }));
    expect(screen.getAllByTestId('earning-row')).toHaveLength(12);
    expect(screen.getAllByText('Payout pending').length).toBe(12);
  });
});
