import { FINANCE_CSV_HEADER, formatRand, type AdminFinance, type FinanceTotals } from '@karoo/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, makeUser, mockFetch, ok, signIn } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import { monthChange } from './finance-tab';

const adminUser = makeUser({ id: 'a1', username: 'admin', full_name: 'Karoo Admin', role: 'admin', user_type: 'admin' });

const totals = (over: Partial<FinanceTotals>): FinanceTotals => ({
  gross: 0,
  host_earnings: 0,
  platform_revenue: 0,
  service_fees: 0,
  insurance: 0,
  host_fees: 0,
  host_fee_rates: [],
  service_fee_rates: [],
  bookings: 0,
  charged: 0,
  refunds: 0,
  cancellation_fees: 0,
  penalties: 0,
  paid_out: 0,
  ...over,
});

const finance: AdminFinance = {
  period: { from: null, to: null },
  totals: totals({ gross: 12345.67, host_earnings: 9000, platform_revenue: 3345.67, service_fees: 1100, insurance: 245.67, host_fees: 2000, bookings: 7, charged: 14000, refunds: 1800, cancellation_fees: 145.67, penalties: 250, paid_out: 6000 }),
  fee_structure: { platform_fee: 25, platformCommission: 10 },
  top_cars: [{ car_username: 'polo-jhb', car_name: 'VW Polo', car_year: 2021, car_color: 'White', car_plate_number: 'GP 12-34 AB', gross: 5000, car_owner_earnings: 3600, app_fee: 1400, bookings: 3 }],
  recent_transactions: [
    {
      id: 'b1:2026-11-20',
      booking_id: 'b1',
      booking_number: 'KT0001',
      car_username: 'polo-jhb',
      car_name: 'VW Polo',
      renter_username: 'sipho',
      host_username: 'host_thabo',
      date: '2026-11-20T10:00:00.000Z',
      day: '2026-11-20',
      charged: 1650,
      refunded: 0,
      gross: 1650,
      service_fee: 150,
      insurance: 0,
      host_fee: 375,
      cancellation_fee: 0,
      host_earnings: 1125,
      app_fee: 525,
      penalty: 0,
      paid_out: 0,
      status: 'completed',
      payout_status: 'pending',
      host_share: 1125,
    },
  ],
  month_over_month: {
    this_month: '2026-11',
    last_month: '2026-10',
    current: totals({ gross: 1500, platform_revenue: 450, host_earnings: 1050, bookings: 2 }),
    previous: totals({ gross: 1000, platform_revenue: 500, host_earnings: 500, bookings: 2 }),
  },
  payouts: [{ host_id: 'h1', host_username: 'host_thabo', host_name: 'Thabo Mokoena', bookings: 2, amount_owed: 2250, booking_ids: ['b1', 'b2'] }],
  paid_payouts: [],
  payout_reversals: [],
};

function mockFinanceApi() {
  const urls: string[] = [];
  const patches: { url: string; body: unknown }[] = [];
  const patch = ({ url, init }: { url: string; init?: RequestInit }) => {
    patches.push({ url, body: JSON.parse(String(init?.body)) });
    return ok({}, 'Payout updated');
  };
  mockFetch({
    'GET /api/notifications': ok([]),
    'GET /api/earnings/admin/finance': ({ url }) => {
      urls.push(url);
      return jsonResponse({ success: true, data: finance });
    },
    'PATCH /api/earnings/earning/updatePayout/b1': patch,
    'PATCH /api/earnings/earning/updatePayout/b2': patch,
  });
  return { urls, patches };
}

describe('monthChange', () => {
  it('computes the change from the data', () => {
    expect(monthChange(1500, 1000)).toBe('+50% from last month');
    expect(monthChange(450, 500)).toBe('-10% from last month');
    expect(monthChange(0, 0)).toBe('No change from last month');
    expect(monthChange(10, 0)).toMatch(/New this month/);
  });
});

describe('Finance tab', () => {
  it('shows the cards, fee structure, top cars, transactions and payouts from the answer', async () => {
    signIn(adminUser);
    mockFinanceApi();
    renderApp({ path: '/admin?tab=finance' });

    const revenue = await screen.findByTestId('finance-card-platform_revenue');
    expect(within(revenue).getByTestId('finance-card-value').textContent).toBe(formatRand(3345.67));
    expect(within(revenue).getByText('-10% from last month')).toBeInTheDocument();
    expect(within(screen.getByTestId('finance-card-gross')).getByText('+50% from last month')).toBeInTheDocument();
    expect(within(screen.getByTestId('finance-card-bookings')).getByTestId('finance-card-value')).toHaveTextContent('7');
    expect(screen.queryByText('+12% from last month')).not.toBeInTheDocument();
    expect(screen.getByText('25%')).toBeInTheDocument();
    expect(screen.getByText('10%')).toBeInTheDocument();
    expect(screen.getAllByTestId('finance-top-car')).toHaveLength(1);
    const row = screen.getByTestId('finance-transaction');
    expect(row).toHaveTextContent('KT0001');
    expect(row).toHaveTextContent('Completed');
    expect(row).toHaveTextContent(formatRand(1650).replace(/\s/g, ' '));
    expect(within(row).getAllByRole('cell').map((c) => c.textContent)).toHaveLength(11);
    expect(screen.getByTestId('finance-payout').textContent).toContain(formatRand(2250));
    // The money in and out: the ledger's sums of the period, as the server answers them.
    const flow = screen.getByRole('region', { name: 'Money in and out' });
    for (const [key, amount] of [['charged', 14000], ['refunds', 1800], ['cancellation_fees', 145.67], ['penalties', 250], ['paid_out', 6000]] as const) {
      expect(within(flow).getByTestId(`finance-flow-${key}`)).toHaveTextContent(formatRand(amount).replace(/\s/g, ' '));
    }
    expect(FINANCE_CSV_HEADER[0]).toBe('date');
  });

  it('marks a payout pending only where the ledger holds a share for the host: a trip refunded in full has no payout badge', async () => {
    signIn(adminUser);
    const line = finance.recent_transactions[0]!;
    const refunded = { ...line, id: 'b2:2026-11-21', booking_id: 'b2', booking_number: 'KT0002', status: 'cancelled', host_earnings: -1125, host_share: 0 };
    const body = { ...finance, recent_transactions: [line, refunded] };
    mockFetch({ 'GET /api/notifications': ok([]), 'GET /api/earnings/admin/finance': () => jsonResponse({ success: true, data: body }) });
    renderApp({ path: '/admin?tab=finance' });
    const rows = await screen.findAllByTestId('finance-transaction');
    expect(rows[0]).toHaveTextContent('Payout pending');
    expect(rows[1]).toHaveTextContent('KT0002');
    expect(rows[1]).not.toHaveTextContent(/Payout|Paid out/);
  });

  it('names the fees at the rates they were taken at, never today\u2019s setting', async () => {
    signIn(adminUser);
    // Today's host fee is 20%, but this period's fees were taken at 25% (one rate), then at 20% and 25%.
    const answer = (over: Partial<FinanceTotals>) => ({ ...finance, fee_structure: { platform_fee: 20, platformCommission: 10 }, totals: totals({ host_fees: 2000, service_fees: 1100, ...over }) });
    let body = answer({ host_fee_rates: [25], service_fee_rates: [10] });
    mockFetch({ 'GET /api/notifications': ok([]), 'GET /api/earnings/admin/finance': () => jsonResponse({ success: true, data: body }) });
    const { user } = renderApp({ path: '/admin?tab=finance' });
    const breakdown = await screen.findByRole('region', { name: 'Revenue breakdown' });
    expect(within(breakdown).getByText('Host fees (25% of rental and pickup)')).toBeInTheDocument();
    expect(within(breakdown).getByText('Service fees (renters, 10%)')).toBeInTheDocument();
    expect(within(breakdown).queryByText(/20%/)).not.toBeInTheDocument();

    body = answer({ host_fee_rates: [20, 25], service_fee_rates: [10] });
    await user.type(screen.getByLabelText('From'), '2026-01-01');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await within(breakdown).findByText("Host fees (taken at each booking's rate: 20% and 25%)")).toBeInTheDocument();
    // The top cars tell two cars of one model apart.
    expect(screen.getByTestId('finance-top-car')).toHaveTextContent('2021 VW PoloGP 12-34 AB · White · 3 bookings');
  });

  it('the period sends from and to', async () => {
    signIn(adminUser);
    const { urls } = mockFinanceApi();
    const { user } = renderApp({ path: '/admin?tab=finance' });
    await screen.findByTestId('finance-card-gross');
    await user.type(screen.getByLabelText('From'), '2026-10-01');
    await user.type(screen.getByLabelText('To'), '2026-10-31');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(urls.some((u) => u.includes('from=2026-10-01') && u.includes('to=2026-10-31'))).toBe(true));
  });

  it('Mark paid asks for a reference and records every unpaid booking of the host', async () => {
    signIn(adminUser);
    const { patches } = mockFinanceApi();
    const { user } = renderApp({ path: '/admin?tab=finance' });
    await user.click(within(await screen.findByTestId('finance-payout')).getByRole('button', { name: 'Mark paid' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Mark paid' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(/payout reference/);
    await user.type(within(dialog).getByLabelText('Payout reference'), 'EFT-42');
    await user.click(within(dialog).getByRole('button', { name: 'Mark paid' }));
    await waitFor(() => expect(patches).toHaveLength(2));
    expect(patches.map((p) => p.url.split('?')[0])).toEqual(['/api/earnings/earning/updatePayout/b1', '/api/earnings/earning/updatePayout/b2']);
    expect(patches[0]!.body).toEqual({ payout_status: 'paid', payout_reference: 'EFT-42' });
  });
});
