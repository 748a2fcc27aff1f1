// The Finance tab's Refunds needing attention (issue 20): failed refunds with their booking, renter,
// amount, attempts and last error, a Retry that says what the provider answered, and one line when
// there are none.
import type { AdminRefundRow } from '@karoo/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fail, makeUser, mockFetch, ok, signIn } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const adminUser = makeUser({ id: 'a1', username: 'admin', full_name: 'Karoo Admin', role: 'admin', user_type: 'admin' });

const failedRefund: AdminRefundRow = {
  id: 'refund-1',
  booking_id: 'b1',
  booking_number: 'KR000001AA',
  renter_username: 'sipho',
  amount: 765,
  state: 'failed',
  reason: 'Refund of your cancelled trip, less the R 225 cancellation fee.',
  last_error: 'Card issuer unavailable',
  attempts: 5,
  requested_at: '2030-02-25T08:00:00.000Z',
  retried: false,
};

function mockRefunds(retry: () => Response) {
  let failed = [failedRefund];
  const calls = { list: [] as string[], retry: 0 };
  mockFetch({
    'GET /api/notifications': ok([]),
    'GET /api/admin/finance': fail(503, 'Finance is not part of this test.'),
    'GET /api/payments/admin/refunds': ({ url }) => {
      calls.list.push(url);
      return ok(failed);
    },
    'POST /api/payments/admin/refunds/refund-1/retry': () => {
      calls.retry += 1;
      const answer = retry();
      if (answer.ok) failed = [{ ...failedRefund, retried: true }];
      return answer;
    },
  });
  return calls;
}

describe('Finance: Refunds needing attention', () => {
  it('lists a failed refund; Retry asks the provider again and shows its answer', async () => {
    signIn(adminUser);
    const calls = mockRefunds(() => ok({ outcome: 'refunded' }, 'The refund was accepted by the payment provider.'));
    const { user } = renderApp({ path: '/admin?tab=finance' });

    const panel = await screen.findByRole('region', { name: 'Refunds needing attention' });
    const item = within(panel).getByTestId('failed-refund');
    expect(item).toHaveTextContent(/R\s765 to @sipho · booking KR000001AA/);
    expect(item).toHaveTextContent('5 attempts');
    expect(item).toHaveTextContent('Last error: Card issuer unavailable');
    expect(calls.list[0]).toContain('state=failed');

    await user.click(within(item).getByRole('button', { name: /^Retry the refund of R\s765 to sipho/ }));
    await waitFor(() => expect(calls.retry).toBe(1));
    expect(await screen.findByText('Refund accepted')).toBeInTheDocument();
    expect(await within(panel).findByRole('status')).toHaveTextContent('The refund was accepted by the payment provider.');
    // Asked again: no second Retry for the same refund.
    expect(await within(panel).findByText('Asked again')).toBeInTheDocument();
  });

  it('says when the provider refused again', async () => {
    signIn(adminUser);
    mockRefunds(() => ok({ outcome: 'failed' }, 'The payment provider refused the refund again.'));
    const { user } = renderApp({ path: '/admin?tab=finance' });
    const panel = await screen.findByRole('region', { name: 'Refunds needing attention' });
    await user.click(within(panel).getByRole('button', { name: /^Retry/ }));
    expect(await screen.findByText('Refund refused again')).toBeInTheDocument();
    expect(await within(panel).findByRole('status')).toHaveTextContent('The payment provider refused the refund again.');
  });

  it('is one line when nothing failed', async () => {
    signIn(adminUser);
    mockFetch({ 'GET /api/notifications': ok([]), 'GET /api/admin/finance': fail(503, 'Not part of this test.'), 'GET /api/payments/admin/refunds': ok([]) });
    renderApp({ path: '/admin?tab=finance' });
    expect(await screen.findByText('No failed refunds.')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Refunds needing attention' })).not.toBeInTheDocument();
  });
});
