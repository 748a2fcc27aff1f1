import type { AdminMail, AdminOverview } from '@karoo/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fail, makeUser, mockFetch, ok, signIn } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const adminUser = makeUser({ id: 'a1', username: 'admin', full_name: 'Karoo Admin', role: 'admin', user_type: 'admin' });

const overview: AdminOverview = {
  counters: { total_users: 1, total_cars: 0, total_bookings: 0, pending_user_verification: 0, pending_car_verification: 0, available_cars: 0, rented_cars: 0, maintenance_cars: 0 },
  recent_users: [],
  debug: {
    api_version: '0.1.0',
    commit: 'abc1234',
    node_version: 'v24.0.0',
    database: 'PostgreSQL',
    mail: 'SMTP',
    payments: 'sandbox',
    uptime_seconds: 60,
    server_time: '2026-11-23T10:00:00.000Z',
  },
};

const failedMail: AdminMail = {
  id: '4f0c2d4e-1111-4222-8333-444455556666',
  to: 'naledi@example.co.za',
  subject: 'Booking accepted',
  status: 'failed',
  attempts: 6,
  last_error: 'Mailbox busy, try again later',
  next_attempt_at: null,
  sent_at: null,
  created_at: '2026-11-22T08:00:00.000Z',
  message_id: '<4f0c2d4e-1111-4222-8333-444455556666@karoo.co.za>',
};

function mockMail(options: { retry?: () => Response } = {}) {
  let failed = [failedMail];
  const calls = { list: 0, retry: [] as string[] };
  const fetchMock = mockFetch({
    'GET /api/notifications': ok([]),
    'GET /api/admin/overview': ok(overview),
    'GET /api/admin/mail': () => {
      calls.list += 1;
      return ok(failed);
    },
    [`POST /api/admin/mail/${failedMail.id}/retry`]: ({ url }) => {
      calls.retry.push(url);
      const answer = options.retry?.();
      if (answer) return answer;
      failed = [];
      return ok({ ...failedMail, status: 'pending', attempts: 0 });
    },
  });
  return { fetchMock, calls };
}

describe('Dashboard: Failed mail', () => {
  it('lists failed mail with recipient, subject, attempts and last error; Retry queues it again', async () => {
    signIn(adminUser);
    const { fetchMock, calls } = mockMail();
    const { user } = renderApp({ path: '/admin' });

    const section = await screen.findByRole('region', { name: 'Failed mail' });
    const item = await within(section).findByRole('listitem');
    expect(item).toHaveTextContent('Booking accepted');
    expect(item).toHaveTextContent('To naledi@example.co.za');
    expect(item).toHaveTextContent('6 attempts');
    expect(item).toHaveTextContent('Last error: Mailbox busy, try again later');
    const listUrl = fetchMock.mock.calls.map(([input]) => String(input)).find((u) => u.includes('/api/admin/mail'));
    expect(listUrl).toContain('status=failed');

    await user.click(within(item).getByRole('button', { name: /^Retry/ }));
    await waitFor(() => expect(calls.retry).toHaveLength(1));
    expect(await screen.findByText('Mail queued')).toBeInTheDocument();
    // The list reloads: nothing has failed any more.
    expect(await within(section).findByText(/No failed mail/)).toBeInTheDocument();
    expect(calls.list).toBeGreaterThanOrEqual(2);
  });

  it('says so when nothing failed', async () => {
    signIn(adminUser);
    mockFetch({ 'GET /api/notifications': ok([]), 'GET /api/admin/overview': ok(overview), 'GET /api/admin/mail': ok([]) });
    renderApp({ path: '/admin' });
    const section = await screen.findByRole('region', { name: 'Failed mail' });
    expect(await within(section).findByText(/No failed mail/)).toBeInTheDocument();
    expect(within(section).queryByRole('button', { name: /^Retry/ })).not.toBeInTheDocument();
  });

  it('shows the server message when a retry is refused', async () => {
    signIn(adminUser);
    mockMail({ retry: () => fail(409, 'Only failed mail can be sent again.') });
    const { user } = renderApp({ path: '/admin' });
    const section = await screen.findByRole('region', { name: 'Failed mail' });
    await user.click(await within(section).findByRole('button', { name: /^Retry/ }));
    expect(await screen.findByText('Only failed mail can be sent again.')).toBeInTheDocument();
  });
});
