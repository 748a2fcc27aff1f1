import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fail, makeUser, mockFetch, ok } from '@/test/fixtures';
import { renderApp } from '@/test/render';

type Ui = ReturnType<typeof renderApp>['user'];

const passwordField = () => screen.getByLabelText('Password', { selector: 'input' });

async function fillStep1(user: Ui, values: Partial<Record<'name' | 'email' | 'username' | 'password' | 'confirm', string>> = {}) {
  const v = { name: 'Ama Dube', email: 'ama@example.co.za', username: 'amadube', password: 'Karoo2026!', confirm: 'Karoo2026!', ...values };
  await user.type(screen.getByLabelText('Full Name'), v.name);
  await user.type(screen.getByLabelText('Email'), v.email);
  await user.type(screen.getByLabelText('Username'), v.username);
  await user.type(passwordField(), v.password);
  await user.type(screen.getByLabelText('Confirm Password', { selector: 'input' }), v.confirm);
}

describe('RegisterPage', () => {
  it('blocks Continue with the messages of the shared schema', async () => {
    mockFetch();
    const { user } = renderApp({ path: '/register' });

    await user.click(screen.getByRole('button', { name: 'Continue' }));

    for (const message of ['Full name is required', 'Email is required', 'Username is required', 'Password is required', 'Please confirm your password']) {
      expect(await screen.findByText(message)).toBeInTheDocument();
    }
    expect(screen.queryByRole('button', { name: 'Create Account' })).not.toBeInTheDocument();
    expect(screen.getByText('Step 1 of 2')).toBeInTheDocument();
  });

  it('checks email format, username length, password length and the confirmation', async () => {
    mockFetch();
    const { user } = renderApp({ path: '/register' });

    await fillStep1(user, { email: 'not-an-email', username: 'am', password: 'abc', confirm: 'abd' });
    await user.click(screen.getByRole('button', { name: 'Continue' }));

    expect(await screen.findByText('Please enter a valid email address')).toBeInTheDocument();
    expect(screen.getByText('Username must be at least 3 characters')).toBeInTheDocument();
    expect(screen.getByText('Password must be at least 6 characters')).toBeInTheDocument();
    expect(screen.getByText("Passwords don't match")).toBeInTheDocument();
  });

  it('moves to Terms & Privacy, and Previous keeps what was typed', async () => {
    mockFetch();
    const { user } = renderApp({ path: '/register' });

    await fillStep1(user);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Step 2 of 2')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Terms & Privacy' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Previous' }));
    expect(screen.getByLabelText('Full Name')).toHaveValue('Ama Dube');
    expect(screen.getByLabelText('Email')).toHaveValue('ama@example.co.za');
    expect(screen.getByLabelText('Username')).toHaveValue('amadube');
    expect(passwordField()).toHaveValue('Karoo2026!');
  });

  it('Continue brings step 2 to the top of the page with its heading focused; Previous does the same for step 1', async () => {
    mockFetch();
    const scrollTo = vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
    const { user } = renderApp({ path: '/register' });
    await fillStep1(user);
    scrollTo.mockClear();

    await user.click(screen.getByRole('button', { name: 'Continue' }));
    const step2 = await screen.findByRole('heading', { name: 'Terms & Privacy' });
    await waitFor(() => expect(step2).toHaveFocus());
    expect(scrollTo).toHaveBeenLastCalledWith({ top: 0 });

    scrollTo.mockClear();
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Account Details' })).toHaveFocus());
    expect(scrollTo).toHaveBeenLastCalledWith({ top: 0 });
  });

  it('requires both checkboxes, whose links open the legal pages in a new tab', async () => {
    const fetchMock = mockFetch();
    const { user } = renderApp({ path: '/register' });
    await fillStep1(user);
    await user.click(screen.getByRole('button', { name: 'Continue' }));

    await user.click(await screen.findByRole('button', { name: 'Create Account' }));

    expect(await screen.findByText('You must accept the terms and conditions')).toBeInTheDocument();
    expect(screen.getByText('You must accept the privacy policy')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
    const form = within(screen.getByRole('form', { name: 'Terms & Privacy' }));
    const terms = form.getByRole('link', { name: 'Terms of Service' });
    expect(terms).toHaveAttribute('href', '/terms');
    expect(terms).toHaveAttribute('target', '_blank');
    expect(form.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/privacy');
    expect(form.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('target', '_blank');
  });

  it('creates the account with role user and goes to /login with the pending-verification notice', async () => {
    const fetchMock = mockFetch({
      'POST /api/user/register': ok(makeUser({ username: 'amadube' }), 'Account created. Your account is pending verification.'),
    });
    const { user, router } = renderApp({ path: '/register' });
    await fillStep1(user);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await user.click(await screen.findByRole('checkbox', { name: /terms/i }));
    await user.click(screen.getByRole('checkbox', { name: /privacy/i }));
    await user.click(screen.getByRole('button', { name: 'Create Account' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body))).toEqual({
      full_name: 'Ama Dube',
      email: 'ama@example.co.za',
      username: 'amadube',
      password: 'Karoo2026!',
      terms_accepted: true,
      privacy_accepted: true,
      // The marketing opt-in is sent as it was left: unticked (decision 049).
      marketing_opt_in: false,
      role: 'user',
    });
    expect(screen.getByText('Registration Successful!')).toBeInTheDocument();
    expect(await screen.findByText(/Your account is pending verification. Sign in/)).toBeInTheDocument();
  });

  it('shows a taken username on its field, back on step 1, and a Registration Failed toast', async () => {
    mockFetch({
      'POST /api/user/register': fail(409, 'Username is already taken', { username: 'Username is already taken' }),
    });
    const { user } = renderApp({ path: '/register' });
    await fillStep1(user);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await user.click(await screen.findByRole('checkbox', { name: /terms/i }));
    await user.click(screen.getByRole('checkbox', { name: /privacy/i }));
    await user.click(screen.getByRole('button', { name: 'Create Account' }));

    expect(await screen.findByText('Registration Failed')).toBeInTheDocument();
    expect(screen.getByLabelText('Username')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getAllByText('Username is already taken').length).toBeGreaterThanOrEqual(1);
  });

  it('reports an unreachable server as a network error', async () => {
    mockFetch({ 'POST /api/user/register': () => Promise.reject(new TypeError('Failed to fetch')) });
    const { user } = renderApp({ path: '/register' });
    await fillStep1(user);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await user.click(await screen.findByRole('checkbox', { name: /terms/i }));
    await user.click(screen.getByRole('checkbox', { name: /privacy/i }));
    await user.click(screen.getByRole('button', { name: 'Create Account' }));

    expect(await screen.findByText('Network Error')).toBeInTheDocument();
    expect(screen.getByText('Please check if the server is running and try again.')).toBeInTheDocument();
  });
});
