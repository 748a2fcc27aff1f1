import type { AuditEntry } from '@karoo/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeUser, mockFetch, signIn } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const adminUser = makeUser({ id: 'a1', username: 'admin', full_name: 'Karoo Admin', role: 'admin', user_type: 'admin' });

const entry = (overrides: Partial<AuditEntry>): AuditEntry => ({
  id: crypto.randomUUID(),
  admin: { id: 'a1', username: 'admin' },
  action: 'car.updated',
  target_type: 'car',
  target_id: 'c1',
  target_label: 'toyota-corolla-123456',
  before: { status: 'available' },
  after: { status: 'maintenance' },
  reason: null,
  created_at: '2026-11-23T08:15:00.000Z',
  ...overrides,
});

/** Two pages of the log (27 actions); the URLs asked for. */
function mockAuditApi() {
  const urls: string[] = [];
  mockFetch({
    'GET /api/notifications': () => new Response(JSON.stringify({ success: true, data: [] })),
    'GET /api/admin/audit': ({ url }) => {
      urls.push(url);
      const page = new URL(url, 'http://x').searchParams.get('page') ?? '1';
      const data =
        page === '1'
          ? [entry({}), entry({ action: 'user.rejected', target_type: 'user', target_label: 'naledi', before: { verification_status: 'pending_verification' }, after: { verification_status: 'rejected' }, reason: 'Blurry ID' })]
          : [entry({ action: 'settings.changed', target_type: 'settings', target_label: 'Platform settings', before: { platform_fee: 25 }, after: { platform_fee: 20 } })];
      return new Response(JSON.stringify({ success: true, data, meta: { total: 27, page: Number(page), limit: 25 } }));
    },
  });
  return urls;
}

describe('Audit Log tab', () => {
  it('lists actions with before and after, filters and pages on the server', async () => {
    signIn(adminUser);
    const urls = mockAuditApi();
    const { user, router } = renderApp({ path: '/admin?tab=audit' });

    const rows = await screen.findAllByTestId('audit-row');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByText('Edited a car')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('available')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('maintenance')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Reason: Blurry ID')).toBeInTheDocument();
    expect(screen.getByText('27 actions · page 1 of 2')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(within(screen.getAllByTestId('audit-row')[0]!).getByText('Changed the settings')).toBeInTheDocument());
    expect(urls.at(-1)).toContain('page=2');

    await user.selectOptions(screen.getByLabelText('Object'), 'user');
    await waitFor(() => expect(urls.at(-1)).toContain('target_type=user'));
    expect(urls.at(-1)).toContain('page=1');
    await user.type(screen.getByLabelText('Username, car or booking'), 'naledi');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(urls.at(-1)).toContain('target=naledi'));
    // The view is the URL's (the object filter under its column's name), so a reload keeps it.
    expect(router.state.location.search).toBe('?tab=audit&object=user&q=naledi');
  });

  it('opens the view a URL names: action, object, search and page', async () => {
    signIn(adminUser);
    const urls = mockAuditApi();
    renderApp({ path: '/admin?tab=audit&action=settings.changed&object=settings&q=Platform&page=2' });
    await screen.findAllByTestId('audit-row');
    expect(Object.fromEntries(new URL(urls[0]!, 'http://x').searchParams)).toEqual({ page: '2', limit: '25', target: 'Platform', action: 'settings.changed', target_type: 'settings' });
    expect(screen.getByLabelText('Action')).toHaveValue('settings.changed');
    expect(screen.getByLabelText('Object')).toHaveValue('settings');
    expect(screen.getByText('27 actions · page 2 of 2')).toBeInTheDocument();
  });
});
