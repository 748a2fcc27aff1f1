import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fail, makeUser, mockFetch, ok } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const INVALID = 'This sign-in link is invalid, already used or expired. Please ask for a new one.';

describe('SignInLinkPage', () => {
  it('uses the link once, signs in and lands where a sign-in lands (a host on the host dashboard)', async () => {
    const host = makeUser({ username: 'host_thabo', role: 'host' });
    const fetchMock = mockFetch({
      'POST /api/user/sign-in-with-link': ok({ user: host, token: 'session-token' }),
      'GET /api/notifications': ok([]),
    });
    const { router } = renderApp({ path: '/sign-in-link?token=mailed-token' });

    await waitFor(() => expect(router.state.location.pathname).toBe('/host-dashboard'));
    const calls = fetchMock.mock.calls.filter(([url]) => String(url).endsWith('/api/user/sign-in-with-link'));
    expect(calls).toHaveLength(1);
    expect(JSON.parse(String(calls[0]?.[1]?.body))).toEqual({ token: 'mailed-token' });
    expect(window.localStorage.getItem('currentUser')).toContain('host_thabo');
  });

  it('says why a used or expired link cannot sign in, and leads back to the sign-in page', async () => {
    mockFetch({ 'POST /api/user/sign-in-with-link': fail(400, INVALID) });
    const { user, router } = renderApp({ path: '/sign-in-link?token=used-token' });

    expect(await screen.findByRole('alert')).toHaveTextContent(INVALID);
    expect(screen.getByRole('heading', { name: "This link can't sign you in" })).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Go to Sign In' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });

  it('without a token, says the link is invalid and calls nothing', async () => {
    const fetchMock = mockFetch();
    renderApp({ path: '/sign-in-link' });
    expect(await screen.findByRole('alert')).toHaveTextContent(INVALID);
    expect(fetchMock.mock.calls.filter(([url]) => String(url).includes('sign-in-with-link'))).toHaveLength(0);
  });
});
