// Paid payouts in the admin Finance tab (issue 18): a paid payout is final; "Reverse" asks for the
// reason in a dialog (the server's own rule), sends it, and the list shows what the server answers.
import type { AdminFinance } from '@karoo/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, makeUser, mockFetch, ok, signIn } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const adminUser = makeUser({ id: 'a1', username: 'admin', full_name: 'Karoo Admin', role: 'admin', user_type: 'admin' });
const zero = {
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
};
const paid = {
  booking_id: 'b9',
  booking_number: 'KT0009',
  host_id: 'h1',
  host_username: 'host_thabo',
  host_name: 'Thabo Mokoena',
  car_name: 'VW Polo',
  amount: 1125,
  payout_reference: 'EFT-77',
  paid_at: '2026-11-21T10:00:00.000Z',
};
const base: AdminFinance = {
  period: { from: null, to: null },
  totals: zero,
  fee_structure: { platform_fee: 25, platformCommission: 10 },
  top_cars: [],
  recent_transactions: [],
  month_over_month: { this_month: '2026-11', last_month: '2026-10', current: zero, previous: zero },
  payouts: [],
  paid_payouts: [paid],
  payout_reversals: [],
};

describe('Paid payouts', () => {
  it('Reverse asks for the reason, sends it, and the payout moves to the reversals and what is owed', async () => {
    signIn(adminUser);
    let answer: AdminFinance = base;
    const posts: { url: string; body: unknown }[] = [];
    mockFetch({
      'GET /api/notifications': ok([]),
      'GET /api/earnings/admin/finance': () => jsonResponse({ success: true, data: answer }),
      'POST /api/earnings/admin/payouts/b9/reverse': ({ url, init }) => {
        posts.push({ url, body: JSON.parse(String(init?.body)) });
        answer = {
          ...base,
          payouts: [{ host_id: 'h1', host_username: 'host_thabo', host_name: 'Thabo Mokoena', bookings: 1, amount_owed: 1125, booking_ids: ['b9'] }],
          paid_payouts: [],
          payout_reversals: [
            { id: 'r1', booking_id: 'b9', booking_number: 'KT0009', host_username: 'host_thabo', amount: 1125, payout_reference: 'EFT-77', paid_at: paid.paid_at, reason: 'Paid to the wrong account', reversed_by: 'admin', reversed_at: '2026-11-22T09:00:00.000Z' },
          ],
        };
        return ok({}, 'Payout reversed');
      },
    });
    const { user } = renderApp({ path: '/admin?tab=finance' });
    const row = await screen.findByTestId('finance-paid-payout');
    expect(row).toHaveTextContent('KT0009');
    expect(row).toHaveTextContent('Ref EFT-77');
    await user.click(within(row).getByRole('button', { name: 'Reverse payout of KT0009' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reverse payout' });
    expect(dialog).toHaveAccessibleDescription(/paid to Thabo Mokoena \(@host_thabo\) for KT0009, reference EFT-77/);

    // No reason: the dialog says so and sends nothing.
    await user.click(within(dialog).getByRole('button', { name: 'Reverse payout' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Please give the reason for the reversal.');
    const field = within(dialog).getByLabelText('Reason (required)');
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAccessibleDescription('Please give the reason for the reversal.');
    expect(field).toHaveFocus();
    expect(posts).toHaveLength(0);

    await user.type(field, '  Paid to the wrong account ');
    await user.click(within(dialog).getByRole('button', { name: 'Reverse payout' }));
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]!.body).toEqual({ reason: 'Paid to the wrong account' });
    expect(await screen.findByText('Payout reversed')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByTestId('finance-payout-reversal')).toHaveTextContent('Paid to the wrong account');
    expect(screen.queryByTestId('finance-paid-payout')).not.toBeInTheDocument();
    expect(screen.getByTestId('finance-payout')).toHaveTextContent('host_thabo');
  });
});
