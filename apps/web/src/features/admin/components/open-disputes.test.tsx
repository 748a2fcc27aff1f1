// Open disputes in the admin's Bookings tab (issue 21): each with its booking, who flagged what and
// the photos; Resolve needs a note and sends it; the list then says there are none.
import type { Dispute } from '@karoo/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { makeUser, mockFetch, ok, signIn } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const adminUser = makeUser({ id: 'a1', username: 'admin', full_name: 'Karoo Admin', role: 'admin', user_type: 'admin' });

const scratch: Dispute = {
  id: 'd1',
  booking_id: 'b1',
  booking_number: 'KR000001AA',
  kind: 'damage',
  description: 'A scratch on the left door',
  status: 'open',
  opened_by: { id: 'h1', username: 'host_thabo' },
  created_at: '2030-03-05T14:00:00.000Z',
  resolved_at: null,
  resolution_note: null,
  photos: [{ id: 'p1', slot: 'extra', url: '/api/trip-photos/p1' }],
};

describe('Open disputes', () => {
  it('lists an open dispute with its evidence and resolves it with a required note', async () => {
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:photo'), revokeObjectURL: vi.fn() }));
    signIn(adminUser);
    let open = [scratch];
    const resolved: unknown[] = [];
    mockFetch({
      'GET /api/notifications': ok([]),
      'GET /api/admin/disputes': () => ok(open),
      'GET /api/trip-photos/p1': new Response(new Blob(['x'], { type: 'image/jpeg' })),
      'PATCH /api/admin/disputes/d1/resolve': ({ init }) => {
        resolved.push(JSON.parse(String(init?.body)));
        open = [];
        return ok({ ...scratch, status: 'resolved' });
      },
    });
    const { user } = renderApp({ path: '/admin?tab=bookings' });
    const section = await screen.findByRole('region', { name: 'Open disputes' });
    const row = await within(section).findByTestId('dispute-row');
    expect(row).toHaveTextContent('KR000001AA · Damage');
    expect(row).toHaveTextContent('Flagged by host_thabo');
    expect(row).toHaveTextContent('A scratch on the left door');
    expect(await within(row).findByRole('img', { name: 'Extra photo of the car' })).toBeInTheDocument();

    await user.click(within(row).getByRole('button', { name: 'Resolve' }));
    const dialog = await screen.findByRole('dialog', { name: 'Resolve the dispute on KR000001AA' });
    await user.click(within(dialog).getByRole('button', { name: 'Resolve' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Say how it was resolved');
    expect(resolved).toEqual([]);
    await user.type(within(dialog).getByLabelText('Resolution note'), 'Renter paid for the repair');
    await user.click(within(dialog).getByRole('button', { name: 'Resolve' }));
    await waitFor(() => expect(resolved).toEqual([{ note: 'Renter paid for the repair' }]));
    expect(await within(section).findByText('No open disputes.')).toBeInTheDocument();
  });
});
