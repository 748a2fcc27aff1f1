import { ADMIN_REFRESH_MS, type AdminOverview } from '@karoo/shared';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fail, makeUser, mockFetch, ok, signIn } from '@/test/fixtures';
import { renderApp } from '@/test/render';
import { ACCESS_DENIED_TEXT } from './admin-panel-page';

const adminUser = makeUser({ id: 'a1', username: 'admin', full_name: 'Karoo Admin', role: 'admin', user_type: 'admin' });

const overview: AdminOverview = {
  counters: { total_users: 1234, total_cars: 61, total_bookings: 87, pending_user_verification: 3, pending_car_verification: 2, available_cars: 40, rented_cars: 9, maintenance_cars: 8 },
  recent_users: [
    { id: 'u1', username: 'naledi', full_name: 'Naledi Dlamini', email: 'naledi@example.co.za', role: 'customer', verification_status: 'pending_verification', created_at: '2026-11-20T08:00:00.000Z' },
    { id: 'u2', username: 'host_lerato', full_name: 'Lerato Mokoena', email: 'lerato@example.co.za', role: 'host', verification_status: 'verified', created_at: '2026-11-19T08:00:00.000Z' },
    { id: 'u3', username: 'sipho', full_name: 'Sipho Nkosi', email: 'sipho@example.co.za', role: 'customer', verification_status: 'verified', created_at: '2026-11-18T08:00:00.000Z' },
    { id: 'u4', username: 'thandi', full_name: '', email: 'thandi@example.co.za', role: 'customer', verification_status: 'pending_upload', created_at: '2026-11-17T08:00:00.000Z' },
    { id: 'u5', username: 'admin', full_name: 'Karoo Admin', email: 'admin@karoo.co.za', role: 'admin', verification_status: 'verified', created_at: '2026-11-16T08:00:00.000Z' },
  ],
  debug: {
    api_version: '0.1.0',
    commit: 'abc1234',
    node_version: 'v22.11.0',
    database: 'embedded PGlite',
    mail: 'outbox',
    payments: 'sandbox',
    uptime_seconds: 7_500,
    server_time: '2026-11-23T10:00:00.000Z',
  },
};

function mockOverview(answer: () => Response = () => ok(overview)) {
  let calls = 0;
  const fetchMock = mockFetch({
    'GET /api/notifications': ok([]),
    'GET /api/admin/mail': ok([]),
    'GET /api/admin/audit': () => new Response(JSON.stringify({ success: true, data: [], meta: { total: 0, page: 1, limit: 25 } })),
    'GET /api/admin/overview': () => {
      calls += 1;
      return answer();
    },
  });
  return { fetchMock, calls: () => calls };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('AdminPanelPage', () => {
  it('shows the Dashboard tab: the debug box, the five counters and the 5 newest users', async () => {
    signIn(adminUser);
    mockOverview();
    const { router } = renderApp({ path: '/admin' });
    expect(await screen.findByRole('heading', { name: 'Admin Panel' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Refresh' })).toBeInTheDocument();

    const tab = screen.getByRole('tab', { name: 'Dashboard' });
    expect(tab).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tabpanel')).toHaveAccessibleName('Dashboard');

    const list = await screen.findByLabelText('Platform counters');
    const value = (label: string) => within(list).getByText(label).closest('dt')!.parentElement!.querySelector('dd')!.textContent;
    expect(value('Total Users')).toBe((1234).toLocaleString('en-ZA'));
    expect(value('Total Cars')).toBe('61');
    expect(value('Total Bookings')).toBe('87');
    expect(value('Pending User Verification')).toBe('3');
    expect(value('Pending Car Verification')).toBe('2');

    const debug = screen.getByRole('region', { name: 'Debug Info' });
    for (const text of ['0.1.0', 'abc1234', 'v22.11.0', 'embedded PGlite', 'outbox', 'sandbox', '2 h 5 min']) {
      expect(within(debug).getByText(text)).toBeInTheDocument();
    }

    const recent = screen.getByRole('region', { name: 'Recent Activity' });
    const items = within(recent).getAllByRole('listitem');
    expect(items).toHaveLength(5);
    expect(items[0]).toHaveTextContent('Naledi Dlamini');
    expect(items[0]).toHaveTextContent('@naledi');
    expect(items[0]).toHaveTextContent('naledi@example.co.za');
    expect(within(items[0]!).getByText('Customer')).toBeInTheDocument();
    expect(within(items[0]!).getByText('Pending verification')).toBeInTheDocument();
    expect(items[0]).toHaveTextContent('Joined 20 November 2026');
    expect(within(items[1]!).getByText('Host')).toBeInTheDocument();
    // A user without a full name is shown by username.
    expect(items[3]).toHaveTextContent('thandi @thandi');
    expect(within(items[3]!).getByText('Documents needed')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin');
  });

  it('keeps the tab in the URL and moves with the arrow keys', async () => {
    signIn(adminUser);
    mockOverview();
    const { router, user } = renderApp({ path: '/admin?tab=nonsense' });
    const tab = await screen.findByRole('tab', { name: 'Dashboard' });
    expect(tab).toHaveAttribute('aria-selected', 'true');
    expect(tab).toHaveAttribute('tabindex', '0');
    tab.focus();
    await user.keyboard('{ArrowRight}');
    await waitFor(() => expect(router.state.location.search).toBe('?tab=users'));
    const users = screen.getByRole('tab', { name: 'Users' });
    expect(users).toHaveFocus();
    expect(users).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{Home}');
    await waitFor(() => expect(router.state.location.search).toBe('?tab=dashboard'));
    expect(tab).toHaveFocus();
    expect(tab).toHaveAttribute('aria-selected', 'true');
  });

  it('reloads the current tab on Refresh and every 30 seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    signIn(adminUser);
    const { calls } = mockOverview();
    const { user } = renderApp({ path: '/admin', userEventOptions: { advanceTimers: vi.advanceTimersByTime } });
    await screen.findByLabelText('Platform counters');
    expect(calls()).toBe(1);

    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(calls()).toBe(2));

    await act(async () => {
      await vi.advanceTimersByTimeAsync(ADMIN_REFRESH_MS);
    });
    await waitFor(() => expect(calls()).toBe(3));
  });

  it('shows an error with a retry when the dashboard cannot load', async () => {
    signIn(adminUser);
    let failing = true;
    mockOverview(() => (failing ? fail(500, 'Something went wrong on our side.') : ok(overview)));
    const { user } = renderApp({ path: '/admin' });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The dashboard could not be loaded');
    failing = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByLabelText('Platform counters')).toBeInTheDocument();
  });

  it("shows document 3's Access Denied text to an admin whose username does not contain 'admin', and loads nothing", async () => {
    signIn(makeUser({ username: 'ops_lead', full_name: 'Ops Lead', role: 'admin', user_type: 'admin' }));
    const { calls } = mockOverview();
    renderApp({ path: '/admin' });
    expect(await screen.findByRole('heading', { name: 'Access Denied' })).toBeInTheDocument();
    expect(screen.getByText(ACCESS_DENIED_TEXT)).toBeInTheDocument();
    expect(ACCESS_DENIED_TEXT).toBe("You don't have permission to access the admin panel. Only administrators can view this page.");
    expect(screen.getByText('@ops_lead')).toBeInTheDocument();
    expect(screen.queryByRole('tablist')).not.toBeInTheDocument();
    expect(calls()).toBe(0);
  });
});
