import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fail, makeUser, mockFetch, ok } from '@/test/fixtures';
import { renderApp } from '@/test/render';

function passwordField() {
  return screen.getByLabelText('Password', { selector: 'input' });
}

describe('LoginPage', () => {
  it('asks for both fields before calling the server', async () => {
    const fetchMock = mockFetch();
    const { user } = renderApp({ path: '/login' });

    await user.click(screen.getByRole('button', { name: 'Sign In' }));

    expect(await screen.findByText('Username or email is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('after a failed login shows Invalid credentials on both fields and a Login Failed toast', async () => {
    mockFetch({ 'POST /api/user/login': fail(401, 'Invalid credentials') });
    const { user, router } = renderApp({ path: '/login' });

    await user.type(screen.getByLabelText('Username or Email'), 'sipho');
    await user.type(passwordField(), 'wrong-password');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));

    const fieldErrors = await screen.findAllByText('Invalid credentials', { selector: '[role="alert"]:not([aria-live])' });
    expect(fieldErrors).toHaveLength(2);
    expect(screen.getByLabelText('Username or Email')).toHaveAttribute('aria-invalid', 'true');
    expect(passwordField()).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText('Login Failed')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
  });

  it('shows the server message when sign-in is throttled', async () => {
    mockFetch({ 'POST /api/user/login': fail(429, 'Too many failed sign-in attempts. Please try again in 15 minutes.') });
    const { user } = renderApp({ path: '/login' });

    await user.type(screen.getByLabelText('Username or Email'), 'sipho');
    await user.type(passwordField(), 'whatever');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));

    expect(await screen.findAllByText('Too many failed sign-in attempts. Please try again in 15 minutes.')).not.toHaveLength(0);
  });

  it('offers a sign-in link by email when password sign-in is refused for now, and sends it for the name typed', async () => {
    const capped = 'Too many failed sign-in attempts on this account: password sign-in is paused. Ask for a sign-in link by email to get in.';
    const sent = 'If an account matches, a sign-in link is on its way to its email address. It works once, within 15 minutes.';
    const fetchMock = mockFetch({
      'POST /api/user/login': fail(429, capped),
      'POST /api/user/request-sign-in-link': ok(null, sent),
    });
    const { user } = renderApp({ path: '/login' });

    await user.type(screen.getByLabelText('Username or Email'), 'sipho');
    await user.type(passwordField(), 'whatever');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));

    const alert = (await screen.findAllByRole('alert')).find((node) => node.textContent?.includes(capped));
    expect(alert).toBeDefined();
    await user.click(screen.getByRole('button', { name: 'Email me a sign-in link' }));

    expect(await screen.findByText('Check your email')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(sent);
    expect(screen.queryByRole('button', { name: 'Email me a sign-in link' })).not.toBeInTheDocument();
    const linkCall = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/api/user/request-sign-in-link'));
    expect(JSON.parse(String(linkCall?.[1]?.body))).toEqual({ username: 'sipho' });
  });

  it('says so in the page when the sign-in link cannot be requested, and lets the user try again', async () => {
    let calls = 0;
    mockFetch({
      'POST /api/user/login': fail(429, 'Too many failed sign-in attempts. Please try again in 15 minutes.'),
      'POST /api/user/request-sign-in-link': () => {
        calls += 1;
        return calls === 1 ? Promise.reject(new TypeError('Failed to fetch')) : ok(null, 'If an account matches, a sign-in link is on its way.');
      },
    });
    const { user } = renderApp({ path: '/login' });
    await user.type(screen.getByLabelText('Username or Email'), 'sipho');
    await user.type(passwordField(), 'whatever');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));

    await user.click(await screen.findByRole('button', { name: 'Email me a sign-in link' }));
    expect(await screen.findByText('The sign-in link could not be requested. Please check your connection and try again.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Email me a sign-in link' }));
    expect(await screen.findByText('Check your email')).toBeInTheDocument();
  });

  it('offers no sign-in link for a wrong password', async () => {
    mockFetch({ 'POST /api/user/login': fail(401, 'Invalid credentials') });
    const { user } = renderApp({ path: '/login' });
    await user.type(screen.getByLabelText('Username or Email'), 'sipho');
    await user.type(passwordField(), 'wrong-password');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Login Failed')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Email me a sign-in link' })).not.toBeInTheDocument();
  });

  it('explains a network failure with the message of the error catalogue', async () => {
    mockFetch({ 'POST /api/user/login': () => Promise.reject(new TypeError('Failed to fetch')) });
    const { user } = renderApp({ path: '/login' });

    await user.type(screen.getByLabelText('Username or Email'), 'sipho');
    await user.type(passwordField(), 'whatever');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));

    expect(await screen.findAllByText('An error occurred during login. Please try again.')).not.toHaveLength(0);
  });

  it('signs in with remember me, greets a verified user and goes to /cars', async () => {
    const sipho = makeUser();
    const fetchMock = mockFetch({
      'POST /api/user/login': ok({ user: sipho, token: 'tok' }),
      'GET /api/notifications': ok([]),
    });
    const { user, router } = renderApp({ path: '/login' });

    await user.type(screen.getByLabelText('Username or Email'), 'sipho');
    await user.type(passwordField(), 'Demo@1234');
    await user.click(screen.getByLabelText(/Remember me/));
    await user.click(screen.getByRole('button', { name: 'Sign In' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/cars'));
    expect(JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body))).toEqual({ username: 'sipho', password: 'Demo@1234', remember: true });
    expect(screen.getByText('Welcome Back!')).toBeInTheDocument();
    expect(JSON.parse(window.localStorage.getItem('currentUser') ?? '{}')).toMatchObject({ username: 'sipho' });
  });

  it('warns a user whose account is pending verification and sends admins and hosts to their pages', async () => {
    const naledi = makeUser({ username: 'naledi', verification_status: 'pending_verification' });
    mockFetch({ 'POST /api/user/login': ok({ user: naledi, token: 'tok' }), 'GET /api/notifications': ok([]) });
    const first = renderApp({ path: '/login' });
    await first.user.type(screen.getByLabelText('Username or Email'), 'naledi');
    await first.user.type(passwordField(), 'Demo@1234');
    await first.user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Account Pending Verification')).toBeInTheDocument();
    first.unmount();
    window.localStorage.clear();

    const admin = makeUser({ username: 'admin', role: 'admin' });
    mockFetch({ 'POST /api/user/login': ok({ user: admin, token: 'tok' }), 'GET /api/notifications': ok([]) });
    const second = renderApp({ path: '/login' });
    await second.user.type(screen.getByLabelText('Username or Email'), 'admin');
    await second.user.type(passwordField(), 'Demo@1234');
    await second.user.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(second.router.state.location.pathname).toBe('/admin'));
  });

  it('after deleting the account the heading says so, and no "Welcome back" stands above it', async () => {
    mockFetch();
    renderApp({ path: '/login?deleted=1' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Your account has been deleted' })).toBeInTheDocument();
    expect(screen.queryByText('Welcome back')).not.toBeInTheDocument();
    expect(screen.getAllByText('Your account has been deleted')).toHaveLength(1);
    expect(screen.getByRole('status')).toHaveTextContent('A confirmation of what was deleted');
  });

  it('greets a returning member with "Welcome back", and a new one without it', async () => {
    mockFetch();
    const { router } = renderApp({ path: '/login' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome back' })).toBeInTheDocument();
    void router.navigate('/login', { state: { registered: true } });
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in to your new account' })).toBeInTheDocument();
    expect(screen.queryByText('Welcome back')).not.toBeInTheDocument();
  });

  it('shows the pending-verification notice after registration', () => {
    mockFetch();
    const { router } = renderApp({ path: '/login' });
    void router.navigate('/login', { state: { registered: true } });
    return waitFor(() => expect(screen.getByText(/pending verification/i)).toBeInTheDocument());
  });
});
