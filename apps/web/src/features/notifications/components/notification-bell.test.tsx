import type { Notification } from '@karoo/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeUser, mockFetch, ok, signIn } from '@/test/fixtures';
import { renderApp } from '@/test/render';

function note(overrides: Partial<Notification>): Notification {
  return { id: crypto.randomUUID(), title: 'Title', message: 'Message', type: 'info', link: null, read: false, createdAt: new Date().toISOString(), ...overrides };
}

describe('NotificationBell', () => {
  it('shows a red dot for unread notifications and lists them', async () => {
    signIn(makeUser());
    mockFetch({
      'GET /api/notifications': ok([note({ title: 'Account verified', message: 'You can now book cars.' }), note({ title: 'Old news', read: true })]),
    });
    const { user } = renderApp({ path: '/terms' });

    const bell = await screen.findByRole('button', { name: 'Notifications (1 unread)' });
    expect(screen.getByTestId('unread-dot')).toBeInTheDocument();
    await user.click(bell);
    expect(screen.getByText('Account verified')).toBeInTheDocument();
    expect(screen.getByText('You can now book cars.')).toBeInTheDocument();
    expect(screen.getAllByText('just now').length).toBe(2);
  });

  it('marks a notification read when clicked and follows its link', async () => {
    signIn(makeUser());
    const first = note({ id: '11111111-1111-4111-8111-111111111111', title: 'Account verified', link: '/terms' });
    let list = [first];
    const fetchMock = mockFetch({
      'GET /api/notifications': () => ok(list),
      [`PATCH /api/notifications/${first.id}/read`]: () => {
        list = [{ ...first, read: true }];
        return ok(list[0]);
      },
    });
    const { user, router } = renderApp({ path: '/privacy' });

    await user.click(await screen.findByRole('button', { name: /notifications/i }));
    await user.click(screen.getByRole('button', { name: /Account verified/ }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/terms'));
    expect(fetchMock.mock.calls.some(([url, init]) => url === `/api/notifications/${first.id}/read` && init?.method === 'PATCH')).toBe(true);
    expect(screen.queryByTestId('unread-dot')).not.toBeInTheDocument();
  });

  it('Clear All asks first, then empties the list', async () => {
    signIn(makeUser());
    let list = [note({ title: 'Booking request' })];
    mockFetch({
      'GET /api/notifications': () => ok(list),
      'DELETE /api/notifications': () => {
        list = [];
        return ok(null);
      },
    });
    const { user } = renderApp({ path: '/terms' });

    await user.click(await screen.findByRole('button', { name: /notifications/i }));
    await user.click(screen.getByRole('button', { name: 'Clear All' }));
    const dialog = screen.getByRole('dialog', { name: 'Clear all notifications?' });
    expect(list).toHaveLength(1);
    await user.click(within(dialog).getByRole('button', { name: 'Clear All' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Clear all notifications?' })).not.toBeInTheDocument());

    await user.click(screen.getByRole('button', { name: /notifications/i }));
    expect(await screen.findByText('No notifications')).toBeInTheDocument();
  });

  it('is not shown to guests', async () => {
    mockFetch();
    renderApp({ path: '/terms' });
    await screen.findByRole('heading', { name: 'Terms of Service' });
    expect(screen.queryByRole('button', { name: /notifications/i })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign In' })).toBeInTheDocument();
  });
});
