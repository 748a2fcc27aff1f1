import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeUser, mockFetch, ok, signIn } from '@/test/fixtures';
import { renderApp } from '@/test/render';

describe('route guards', () => {
  it('sends a guest from a signed-in route to /login and remembers where they were going', async () => {
    mockFetch();
    const { router } = renderApp({ path: '/profile?tab=documents' });

    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.state).toEqual({ from: { pathname: '/profile', search: '?tab=documents', hash: '' } });
    expect(screen.getByLabelText('Username or Email')).toBeInTheDocument();
  });

  it('brings the guest back to that page after signing in', async () => {
    const sipho = makeUser();
    mockFetch({
      'POST /api/user/login': ok({ user: sipho, token: 'new-token' }, 'Login successful'),
      'GET /api/user/me': ok(sipho),
      'GET /api/user/sipho/verification-status': ok({ verification_status: 'verified', documents: {}, missing: [] }),
      'GET /api/notifications': ok([]),
    });
    const { router, user } = renderApp({ path: '/my-bookings' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));

    await user.type(screen.getByLabelText('Username or Email'), 'sipho');
    await user.type(screen.getByLabelText('Password', { selector: 'input' }), 'Demo@1234');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/my-bookings'));
    expect(window.localStorage.getItem('authToken')).toBe('new-token');
  });

  it.each(['/host-dashboard', '/earnings', '/admin', '/api-playground', '/api-test'])(
    'sends a signed-in customer away from %s to the home page',
    async (path) => {
      signIn(makeUser());
      mockFetch({ 'GET /api/notifications': ok([]) });
      const { router } = renderApp({ path });
      await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    },
  );

  it('lets a host open the host routes and an admin the admin routes', async () => {
    signIn(makeUser({ username: 'host_thabo', role: 'host', user_type: 'host' }));
    mockFetch({ 'GET /api/notifications': ok([]) });
    const host = renderApp({ path: '/earnings' });
    expect(await screen.findByRole('heading', { name: 'Earnings' })).toBeInTheDocument();
    expect(host.router.state.location.pathname).toBe('/earnings');
    host.unmount();

    signIn(makeUser({ username: 'admin', role: 'admin', user_type: 'admin' }));
    const admin = renderApp({ path: '/admin' });
    expect(await screen.findByRole('heading', { name: 'Admin Panel' })).toBeInTheDocument();
    expect(admin.router.state.location.pathname).toBe('/admin');
  });

  it('redirects /list-car to /become-host and /signin to /login, and shows Page not found elsewhere', async () => {
    mockFetch();
    const listCar = renderApp({ path: '/list-car' });
    await waitFor(() => expect(listCar.router.state.location.pathname).toBe('/become-host'));
    listCar.unmount();

    const signin = renderApp({ path: '/signin' });
    await waitFor(() => expect(signin.router.state.location.pathname).toBe('/login'));
    signin.unmount();

    // The wizard sends guests to /signin with where to come back to; the redirect keeps it.
    const fromWizard = renderApp({ path: '/' });
    await fromWizard.router.navigate('/signin', { state: { from: { pathname: '/become-host', search: '', hash: '' } } });
    await waitFor(() => expect(fromWizard.router.state.location.pathname).toBe('/login'));
    expect(fromWizard.router.state.location.state).toEqual({ from: { pathname: '/become-host', search: '', hash: '' } });
    fromWizard.unmount();

    renderApp({ path: '/no-such-page' });
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
  });
});
