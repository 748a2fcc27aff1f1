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
        by_car: [{ car_username: 'volkswagen-polo-123456', car_name: 'Volkswagen Polo', car_year: 2021, car_color: 'White', car_plate_number: 'CA 123-456', gross: 12345.5, car_owner_earnings: 7500, app_fee: 4845.5, bookings: 13 }],
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
    expect(within(screen.getByRole('region', { name: 'Earnings by car' })).getByText('2021 Volkswagen Polo')).toBeInTheDocument();

    expect(screen.getAllByTestId('earning-row')).toHaveLength(10);
    // Each row compares the host's earnings with the rental they come from (subtotal + pickup fee).
    const [first] = earnings;
    expect(within(screen.getAllByTestId('earning-row')[0]!).getByText(`of ${formatRand(first!.subtotal + first!.pickup_fee)} rental · fee ${first!.commission_rate}%`.replace(/\s/g, ' '))).toBeInTheDocument();
    expect(screen.queryByText('KRPAIDONLY', { exact: false })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'View All 12 Bookings' }));
    expect(screen.getAllByTestId('earning-row')).toHaveLength(12);
    expect(screen.getAllByText('Payout pending').length).toBe(12);
  });

  it('tells two cars of one model apart, counts only the listed cars as listed, and invoices name the car, the renter, the host and the host fee at its rate', async () => {
    signIn(host);
    const polo = (plate: string, color: string, year: number) => ({ car_username: `volkswagen-polo-${plate}`, car_name: 'Volkswagen Polo', car_year: year, car_color: color, car_plate_number: plate, gross: 3168, car_owner_earnings: 2160, app_fee: 1008, bookings: 1 });
    const fleet = [
      makeCar({ id: 'c1', car_owner: 'host_thabo', verification_status: 'verified', status: 'available' }),
      makeCar({ id: 'c2', car_owner: 'host_thabo', verification_status: 'verified', status: 'available' }),
      makeCar({ id: 'c3', car_owner: 'host_thabo', verification_status: 'pending_verification', status: 'available' }),
      makeCar({ id: 'c4', car_owner: 'host_thabo', verification_status: 'verified', status: 'offline' }),
    ];
    mockFetch({
      'GET /api/earnings/earning/getSummary': ok({
        ...emptySummary,
        total_revenue: 6336,
        rental_income: 5760,
        host_fee: 1440,
        total_earnings: 4320,
        app_fee: 2016,
        bookings: 2,
        by_car: [polo('CA 560-338', 'Silver', 2019), polo('GP 12-34 AB', 'White', 2021)],
      }),
      'GET /api/earnings/earning/getCarOwnerProfit/host_thabo': ok([makeEarning({ booking_id: 'KR000001AA', subtotal: 2880, gross: 3168, car_owner_earnings: 2160, app_fee: 1008 })]),
      'GET /api/car/getCarList': () => new Response(JSON.stringify({ success: true, data: fleet, meta: { total: 4, page: 1, limit: 48 } })),
      'GET /api/notifications': ok([]),
      'POST /api/earnings/earning/createInvoicePerCar/KR000001AA': ok({
        id: 'inv-1',
        invoice_number: 'INV-2026-000001',
        invoice_car_username: 'volkswagen-polo-560338',
        car_username: 'volkswagen-polo-560338',
        car_name: '2019 Volkswagen Polo',
        car: { make: 'Volkswagen', model: 'Polo', year: 2019, color: 'Silver', plate_number: 'CA 560-338' },
        renter: { username: 'sipho', full_name: 'Sipho Nkosi' },
        host: { username: 'host_thabo', full_name: 'Thabo Mokoena' },
        booking_id: 'KR000001AA',
        booking_number: 'KR000001AA',
        start_date: '2026-10-01',
        end_date: '2026-10-04',
        total_amount: 3168,
        rental_income: 2880,
        pickup_fee: 0,
        host_fee: 720,
        host_fee_rate: 25,
        car_owner_earnings: 2160,
        app_fee: 1008,
        line_items: [
          { description: 'Rental (3 days)', amount: 2880 },
          { description: 'Service fee (10%)', amount: 288 },
          { description: 'Insurance', amount: 0 },
          { description: 'Pickup fee', amount: 0 },
        ],
        issued_at: '2026-10-05T08:00:00.000Z',
      }),
    });
    const { user } = renderApp({ path: '/earnings' });

    const byCar = await screen.findByRole('region', { name: 'Earnings by car' });
    expect(within(byCar).getByText('2019 Volkswagen Polo')).toBeInTheDocument();
    expect(within(byCar).getByText('2021 Volkswagen Polo')).toBeInTheDocument();
    expect(within(byCar).getByText('CA 560-338')).toBeInTheDocument();
    expect(within(byCar).getByText('GP 12-34 AB')).toBeInTheDocument();
    // Four cars, two of them listed: one awaits verification, one is switched off.
    expect(screen.getByText('2 listed on Karoo, 2 not listed (awaiting verification or switched off)')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Invoice for booking KR000001AA' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invoice INV-2026-000001' });
    expect(within(dialog).getByText('2019 Volkswagen Polo')).toBeInTheDocument();
    expect(within(dialog).getByText('Silver · plate CA 560-338')).toBeInTheDocument();
    expect(within(dialog).getByText('Sipho Nkosi')).toBeInTheDocument();
    expect(within(dialog).getByText('Thabo Mokoena')).toBeInTheDocument();
    expect(within(dialog).queryByText(/volkswagen-polo-560338/)).not.toBeInTheDocument();
    // The host fee is 25% of the R 2 880 rental (R 720), not Karoo's whole share with the renter's service fee (R 1 008).
    expect(within(dialog).getByText('Host fee (25% of rental)').nextSibling?.textContent).toBe(`-${formatRand(720)}`);
    expect(within(dialog).queryByText((_, el) => el?.children.length === 0 && !!el.textContent?.includes(formatRand(1008)))).not.toBeInTheDocument();
    expect(within(dialog).queryByText(/Platform fee/)).not.toBeInTheDocument();
    expect(within(dialog).getByText('Your earnings', { selector: 'th' }).nextSibling?.textContent).toBe(formatRand(2160));
  });

  it('lists the cancelled trips that moved the host\u2019s money: a share of a late cancellation\u2019s fee, a penalty; a free cancellation is not listed', async () => {
    signIn(host);
    mockFetch({
      'GET /api/earnings/earning/getSummary': ok({ ...emptySummary, total_revenue: 800, rental_income: 800, host_fee: 200, total_earnings: 600, app_fee: 200, bookings: 3, penalties: 250 }),
      'GET /api/earnings/earning/getCarOwnerProfit/host_thabo': ok([
        makeEarning({ booking_id: 'KRLATEFEE', status: 'cancelled', gross: 800, car_owner_earnings: 600, app_fee: 200, cancellation_fee: 800, refunded: 960, completed_at: null }),
        makeEarning({ booking_id: 'KRHOSTCAN', status: 'cancelled', gross: 0, car_owner_earnings: 0, app_fee: 0, penalty: 250, refunded: 1760, completed_at: null }),
        makeEarning({ booking_id: 'KRFREECAN', status: 'cancelled', gross: 0, car_owner_earnings: 0, app_fee: 0, refunded: 1760, completed_at: null }),
      ]),
      'GET /api/car/getCarList': () => new Response(JSON.stringify({ success: true, data: cars(1), meta: { total: 1, page: 1, limit: 48 } })),
      'GET /api/notifications': ok([]),
    });
    renderApp({ path: '/earnings' });

    const cancelled = await screen.findByRole('region', { name: 'Cancelled trips' });
    const rows = within(cancelled).getAllByTestId('cancelled-trip');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('KRLATEFEE');
    expect(rows[0]).toHaveTextContent(formatRand(600).replace(/\s/g, ' '));
    expect(rows[0]).toHaveTextContent(`Your share of the ${formatRand(800)} cancellation fee`.replace(/\s/g, ' '));
    expect(rows[1]).toHaveTextContent('KRHOSTCAN');
    expect(rows[1]).toHaveTextContent(`−${formatRand(250)}`.replace(/\s/g, ' '));
    expect(screen.queryByText('KRFREECAN', { exact: false })).not.toBeInTheDocument();
    // Cancelled trips are not among the completed ones (no invoice for them).
    expect(screen.queryAllByTestId('earning-row')).toHaveLength(0);
    const summary = screen.getByRole('region', { name: 'Earnings summary' });
    expect(within(summary).getByText(/in cancellation penalties comes off your payouts/)).toBeInTheDocument();
  });
});
