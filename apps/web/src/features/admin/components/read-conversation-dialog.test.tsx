import type { Conversation } from '@karoo/shared';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeBooking } from '@/test/booking-fixtures';
import { jsonResponse, makeUser, mockFetch, ok, signIn } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const adminUser = makeUser({ id: 'a1', username: 'admin', full_name: 'Karoo Admin', role: 'admin', user_type: 'admin' });
const booking = makeBooking({ id: 'b-active', booking_id: 'KRACTIVE01', status: 'active', payment_status: 'paid' });
const conversation: Conversation = {
  booking_id: 'b-active',
  booking_number: 'KRACTIVE01',
  messages: [
    {
      id: 'm1',
      booking_id: 'b-active',
      sender: { id: 'r1', username: 'renter', full_name: 'Sipho Nkosi', role: 'renter' },
      body: 'There was already a scratch on the door',
      masked: false,
      mine: false,
      created_at: '2030-03-01T08:00:00.000Z',
    },
  ],
  unread: 0,
  can_post: false,
  closed_reason: null,
  masking_reason: null,
  admin_view: true,
};

describe('Read conversation (admin Bookings tab)', () => {
  it('asks why first, sends the reason with the reading, and shows the messages read only', async () => {
    signIn(adminUser);
    const readings: string[] = [];
    mockFetch({
      'GET /api/notifications': ok([]),
      'GET /api/booking/getStats': ok({ total: 1, pending: 0, confirmed: 0, active: 1, completed: 0, cancelled: 0, rejected: 0 }),
      'GET /api/booking/getList': () => jsonResponse({ success: true, data: [booking], meta: { total: 1, page: 1, limit: 25 } }),
      'GET /api/booking/b-active/messages': ({ url }) => {
        readings.push(url);
        return ok(conversation);
      },
    });
    const { user } = renderApp({ path: '/admin?tab=bookings' });
    await user.click(await screen.findByRole('button', { name: 'Read conversation KRACTIVE01' }));
    const dialog = await screen.findByRole('dialog', { name: 'Conversation · KRACTIVE01' });
    expect(readings).toHaveLength(0);
    const read = within(dialog).getByRole('button', { name: 'Read conversation' });
    expect(read).toBeDisabled();
    await user.type(within(dialog).getByLabelText(/Why are you reading it/), 'Dispute about a scratch');
    await user.click(read);
    expect(await within(dialog).findByText('There was already a scratch on the door')).toBeInTheDocument();
    expect(readings).toHaveLength(1);
    expect(new URL(readings[0]!, 'http://x').searchParams.get('reason')).toBe('Dispute about a scratch');
    expect(within(dialog).queryByLabelText('Your message')).not.toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: /Report/ })).not.toBeInTheDocument();
  });
});
