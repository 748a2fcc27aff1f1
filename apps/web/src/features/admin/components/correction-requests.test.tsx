// Correction requests in the admin's Users tab (decision 049): each open request shows who, which
// detail, the current and asked value and why; Approve asks for a note and sends the decision.
import type { AdminCorrectionRequest } from '@karoo/shared';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeUser, mockFetch, ok, signIn } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import { CorrectionRequests } from './correction-requests';

const request: AdminCorrectionRequest = {
  id: 'c1',
  field: 'id_number',
  current_value: '9001015800085',
  proposed_value: '8001015009087',
  reason: 'A digit is wrong',
  status: 'open',
  decided_at: null,
  decision_note: null,
  created_at: '2030-05-01T08:00:00.000Z',
  user: { id: 'u1', username: 'sipho', full_name: 'Sipho Nkosi', verification_status: 'verified' },
};

describe('CorrectionRequests', () => {
  it('lists an open request and approves it with a note', async () => {
    signIn(makeUser({ id: 'a1', username: 'admin', role: 'admin', user_type: 'admin' }));
    let open = [request];
    const fetch = mockFetch({
      'GET /api/admin/privacy/corrections': () => ok(open),
      'POST /api/admin/privacy/corrections/c1/decision': () => {
        open = [];
        return ok({ ...request, status: 'approved', decision_note: 'Checked against the ID', decided_at: '2030-05-01T09:00:00.000Z' });
      },
    });
    const { user } = renderApp({ routes: [{ path: '/', element: <CorrectionRequests /> }] });
    const row = await screen.findByTestId('correction-request-row');
    expect(row).toHaveTextContent('Sipho Nkosi (sipho): ID number');
    expect(row).toHaveTextContent('9001015800085 → 8001015009087');
    expect(row).toHaveTextContent('Why: A digit is wrong');
    await user.click(within(row).getByRole('button', { name: 'Approve the ID number correction of sipho' }));
    await user.click(await screen.findByRole('button', { name: 'Approve' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Write a note for the person');
    await user.type(screen.getByLabelText('Note for the person'), 'Checked against the ID');
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('No open correction requests.')).toBeInTheDocument();
    const post = fetch.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({ decision: 'approve', note: 'Checked against the ID' });
  });
});
