// The host's Payouts card (decision 069): the next payout, or that nothing is owed, and each
// transfer with its reference and, for a failed one, the bank's reason in full (not cut off).
import { screen, within } from '@testing-library/react';
import { formatRand, type HostPayouts } from '@karoo/shared';
import { describe, expect, it } from 'vitest';
import { renderApp } from '@/test/render';
import { mockFetch, ok } from '@/test/fixtures';
import { PayoutsCard } from './payouts-card';

const account = { bank_code: '051001', bank_name: 'Standard Bank', account_number_last4: '1111', account_name: 'S NAIDOO', confirmed_at: '2027-01-24T06:00:00Z', hold_until: null };
const transfer = (state: 'success' | 'failed', reference: string, failure_reason: string | null) => ({
  id: reference,
  host_id: 'h1',
  host_username: 'thandeka',
  amount: 450,
  state,
  reference,
  transfer_code: null,
  failure_reason,
  bank_name: 'Standard Bank',
  account_number_last4: '1111',
  bookings: ['KRWJAK2EX5'],
  created_at: '2027-01-27T07:00:00Z',
  settled_at: null,
  retried: state === 'failed',
});

function payouts(overrides: Partial<HostPayouts> = {}): HostPayouts {
  return {
    account,
    schedule: { schedule: 'trip', weekday: 5, month_day: 25, label: 'After each trip (next business day)' },
    next_payout: { amount: 0, day: '2027-01-27', lines: [], held_reason: null },
    upcoming: [],
    transfers: [],
    statement_months: [],
    ...overrides,
  } as HostPayouts;
}

describe('PayoutsCard', () => {
  it('says nothing is owed rather than "R 0 on Wed 27 Jan", and shows a failed transfer with the whole reason', async () => {
    mockFetch({
      'GET /api/payouts': ok(payouts({ transfers: [transfer('success', 'KAROO-PO-2', null), transfer('failed', 'KAROO-PO-1', 'The bank refused the credit (account dormant).')], statement_months: ['2027-01'] })),
      'GET /api/payouts/banks': ok([]),
    });
    renderApp({ routes: [{ path: '/', element: <PayoutsCard /> }] });
    expect(await screen.findByTestId('next-payout')).toHaveTextContent('Nothing is owed to you now.');
    const failed = screen.getByText(/KAROO-PO-1/);
    expect(failed).toHaveTextContent('KAROO-PO-1 · Standard Bank ····1111 · The bank refused the credit (account dormant).');
    expect(failed).not.toHaveClass('truncate');
    expect(within(failed.closest('li')!).getByText('Failed')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Statement 2027-01' })).toBeInTheDocument();
  });

  it('shows the amount and the day when something is owed', async () => {
    mockFetch({
      'GET /api/payouts': ok(payouts({ next_payout: { amount: 4210, day: '2027-01-29', lines: [{ kind: 'trip', booking_number: 'KR1', label: 'KR1 Toyota Corolla', amount: 4210 }], held_reason: null } })),
      'GET /api/payouts/banks': ok([]),
    });
    renderApp({ routes: [{ path: '/', element: <PayoutsCard /> }] });
    const next = await screen.findByTestId('next-payout');
    expect(next.textContent).toMatch(new RegExp(`^${formatRand(4210)} on Fri 29 Jan`));
  });
});
