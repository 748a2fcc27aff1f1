import type { BookingMessage, Conversation } from '@karoo/shared';
import { MASKING_REASON, PHONE_HIDDEN } from '@karoo/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeBooking } from '@/test/booking-fixtures';
import { fail, makeUser, mockFetch, ok, signIn } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const booking = makeBooking({ id: 'b1', booking_id: 'KRMSG00001', status: 'pending', payment_status: 'unpaid' });

function message(overrides: Partial<BookingMessage>): BookingMessage {
  return {
    id: 'm1',
    booking_id: 'b1',
    sender: { id: 'h1', username: 'host', full_name: 'Thandi Host', role: 'host' },
    body: 'Hello',
    masked: false,
    mine: false,
    created_at: '2030-03-01T08:00:00.000Z',
    ...overrides,
  };
}

function conversation(overrides: Partial<Conversation> = {}): Conversation {
  return {
    booking_id: 'b1',
    booking_number: 'KRMSG00001',
    messages: [message({ body: `Call me on ${PHONE_HIDDEN}`, masked: true })],
    unread: 1,
    can_post: true,
    closed_reason: null,
    masking_reason: MASKING_REASON,
    admin_view: false,
    ...overrides,
  };
}

function setUp(extra: Parameters<typeof mockFetch>[0] = {}, current = conversation()) {
  signIn(makeUser());
  const fetchMock = mockFetch({
    'GET /api/booking/getAll': ok([booking]),
    'GET /api/review/getAll': ok([]),
    'GET /api/notifications': ok([]),
    'GET /api/messages/unread': ok({ total: 2, bookings: [{ booking_id: 'b1', unread: 2 }] }),
    'GET /api/booking/b1/messages': ok(current),
    'POST /api/booking/b1/messages/read': ok(null),
    ...extra,
  });
  return { fetchMock, ...renderApp({ path: '/my-bookings' }) };
}

const calls = (fetchMock: ReturnType<typeof mockFetch>, method: string, path: string) =>
  fetchMock.mock.calls.filter(([url, init]) => String(url).split('?')[0] === path && (init?.method ?? 'GET').toUpperCase() === method);

describe('BookingMessages', () => {
  it('shows the unread count on the card and in the bell, and the conversation with why contact details are hidden', async () => {
    const { user, fetchMock } = setUp();
    const card = await screen.findByTestId('booking-card');
    expect(await within(card).findByTestId('message-unread')).toHaveTextContent('2 unread');
    expect(screen.getByRole('button', { name: /Notifications \(2 unread messages\)/ })).toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: /Messages/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Messages · KRMSG00001' });
    expect(await within(dialog).findByText(`Call me on ${PHONE_HIDDEN}`)).toBeInTheDocument();
    expect(within(dialog).getByText(MASKING_REASON)).toBeInTheDocument();
    // Reading the dialog marks the conversation read.
    await waitFor(() => expect(calls(fetchMock, 'POST', '/api/booking/b1/messages/read')).toHaveLength(1));
  });

  it('sends a message and clears the box; the server\u2019s refusal is shown in its own words', async () => {
    let refuse = false;
    const { user, fetchMock } = setUp({
      'POST /api/booking/b1/messages': () => (refuse ? fail(429, 'You can send at most 10 messages a minute. Wait a moment and try again.') : ok(message({ id: 'm2', body: 'See you at 8', mine: true }))),
    });
    await user.click(await screen.findByRole('button', { name: /Messages/ }));
    const box = await screen.findByLabelText('Your message');
    await user.type(box, 'See you at 8');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(box).toHaveValue(''));
    expect(JSON.parse(String(calls(fetchMock, 'POST', '/api/booking/b1/messages')[0]![1]!.body))).toEqual({ body: 'See you at 8' });
    refuse = true;
    await user.type(box, 'Again');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText(/at most 10 messages a minute/)).toBeInTheDocument();
    expect(box).toHaveValue('Again');
  });

  it('is read only once the booking has been closed for 30 days', async () => {
    const { user } = setUp({}, conversation({ can_post: false, closed_reason: 'This booking closed more than 30 days ago, so its conversation is read only.', masking_reason: null }));
    await user.click(await screen.findByRole('button', { name: /Messages/ }));
    expect(await screen.findByText(/closed more than 30 days ago/)).toBeInTheDocument();
    expect(screen.queryByLabelText('Your message')).not.toBeInTheDocument();
  });

  it('reports the other person\u2019s message with a reason', async () => {
    const { user, fetchMock } = setUp({ 'POST /api/messages/m1/report': ok({ id: 'r1', message_id: 'm1', reason: 'Asks for cash', created_at: '2030-03-01T08:00:00.000Z' }) });
    await user.click(await screen.findByRole('button', { name: /Messages/ }));
    await user.click(await screen.findByRole('button', { name: /Report this message from Thandi Host/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Report this message' });
    await user.type(within(dialog).getByLabelText('What is wrong with it?'), 'Asks for cash');
    await user.click(within(dialog).getByRole('button', { name: 'Report' }));
    expect(await screen.findByText('Message Reported')).toBeInTheDocument();
    expect(JSON.parse(String(calls(fetchMock, 'POST', '/api/messages/m1/report')[0]![1]!.body))).toEqual({ reason: 'Asks for cash' });
  });
});
