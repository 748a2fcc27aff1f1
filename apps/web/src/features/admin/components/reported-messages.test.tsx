// Reported messages in the admin's Bookings tab (issue 21, decision 041): each open report with its
// booking, reporter, reason and the message as written; Read conversation opens the audited reader
// with "Report: <reason>" as the reason; Mark handled needs a note and sends it; then none are left.
import type { AdminMessageReport, Conversation } from '@karoo/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, makeUser, mockFetch, ok, signIn } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const adminUser = makeUser({ id: 'a1', username: 'admin', full_name: 'Karoo Admin', role: 'admin', user_type: 'admin' });

const cashReport: AdminMessageReport = {
  id: 'rep1',
  booking_id: 'b1',
  booking_number: 'KR000001AA',
  reporter: { id: 'r1', username: 'ruan' },
  reason: 'Asks to pay outside Karoo',
  created_at: '2030-03-05T14:00:00.000Z',
  message: {
    id: 'm1',
    sender: { id: 'h1', username: 'host_thabo', full_name: 'Thabo Mokoena' },
    body: 'Pay me cash, call 082 555 1234',
    created_at: '2030-03-05T13:00:00.000Z',
    report_count: 2,
  },
  resolved_at: null,
  resolution_note: null,
};

const conversation: Conversation = {
  booking_id: 'b1',
  booking_number: 'KR000001AA',
  messages: [],
  unread: 0,
  can_post: false,
  closed_reason: null,
  masking_reason: null,
  admin_view: true,
};

const page = (reports: AdminMessageReport[]) => jsonResponse({ success: true, data: reports, meta: { total: reports.length, page: 1, limit: 20 } });

describe('Reported messages', () => {
  it('lists an open report with the message as written, reads the conversation with the report as reason, and marks it handled with a required note', async () => {
    signIn(adminUser);
    let open = [cashReport];
    const resolved: unknown[] = [];
    const readings: string[] = [];
    mockFetch({
      'GET /api/notifications': ok([]),
      'GET /api/admin/messages/reports': () => page(open),
      'GET /api/booking/b1/messages': ({ url }) => {
        readings.push(url);
        return ok(conversation);
      },
      'POST /api/admin/messages/reports/rep1/resolve': ({ init }) => {
        resolved.push(JSON.parse(String(init?.body)));
        open = [];
        return ok({ ...cashReport, resolved_at: '2030-03-06T08:00:00.000Z', resolution_note: 'Warned the host' });
      },
    });
    const { user } = renderApp({ path: '/admin?tab=bookings' });
    const section = await screen.findByRole('region', { name: 'Reported messages' });
    const row = await within(section).findByTestId('message-report-row');
    expect(row).toHaveTextContent('Booking KR000001AA');
    expect(row).toHaveTextContent('Reported by ruan');
    expect(row).toHaveTextContent('reported 2 times');
    expect(row).toHaveTextContent('Reason: Asks to pay outside Karoo');
    expect(row).toHaveTextContent('Thabo Mokoena (host_thabo) wrote');
    expect(row).toHaveTextContent('Pay me cash, call 082 555 1234');

    await user.click(within(row).getByRole('button', { name: /^Read conversation KR000001AA/ }));
    const reader = await screen.findByRole('dialog', { name: 'Conversation · KR000001AA' });
    expect(within(reader).getByLabelText(/Why are you reading it/)).toHaveValue('Report: Asks to pay outside Karoo');
    await user.click(within(reader).getByRole('button', { name: 'Read conversation' }));
    await waitFor(() => expect(readings).toHaveLength(1));
    expect(new URL(readings[0]!, 'http://x').searchParams.get('reason')).toBe('Report: Asks to pay outside Karoo');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Conversation · KR000001AA' })).not.toBeInTheDocument());

    await user.click(within(row).getByRole('button', { name: /^Mark handled/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Mark the report on KR000001AA handled' });
    await user.click(within(dialog).getByRole('button', { name: 'Mark handled' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Say how the report was handled');
    expect(resolved).toEqual([]);
    await user.type(within(dialog).getByLabelText('What was done'), 'Warned the host');
    await user.click(within(dialog).getByRole('button', { name: 'Mark handled' }));
    await waitFor(() => expect(resolved).toEqual([{ note: 'Warned the host' }]));
    expect(await within(section).findByText('No reported messages.')).toBeInTheDocument();
  });

  it('says when there are none', async () => {
    signIn(adminUser);
    mockFetch({ 'GET /api/notifications': ok([]), 'GET /api/admin/messages/reports': () => page([]) });
    renderApp({ path: '/admin?tab=bookings' });
    const section = await screen.findByRole('region', { name: 'Reported messages' });
    expect(await within(section).findByText('No reported messages.')).toBeInTheDocument();
  });
});
