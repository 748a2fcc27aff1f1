import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fail, mockFetch, ok } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const newPassword = () => screen.getByLabelText('New Password', { selector: 'input' });
const confirmPassword = () => screen.getByLabelText('Confirm Password', { selector: 'input' });

describe('ResetPasswordPage', () => {
  it('without a token, says the link is invalid and goes to /forgot-password', async () => {
    const fetchMock = mockFetch();
    const { router } = renderApp({ path: '/reset-password' });

    await waitFor(() => expect(router.state.location.pathname).toBe('/forgot-password'));
    expect(screen.getByText('Invalid Link')).toBeInTheDocument();
    expect(screen.getByText('No reset token provided. Please request a new password reset.')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('with an expired token, shows the server message and goes to /forgot-password', async () => {
    mockFetch({ 'GET /api/user/verify-reset-token/old': fail(400, 'This reset link is invalid or has expired. Please request a new one.') });
    const { router } = renderApp({ path: '/reset-password?token=old' });

    expect(screen.getByText('Verifying your reset link...')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/forgot-password'));
    expect(screen.getByText('Invalid or Expired Link')).toBeInTheDocument();
  });

  it('when the server cannot be reached, explains and goes to /forgot-password', async () => {
    mockFetch({ 'GET /api/user/verify-reset-token/abc': () => Promise.reject(new TypeError('Failed to fetch')) });
    const { router } = renderApp({ path: '/reset-password?token=abc' });

    await waitFor(() => expect(router.state.location.pathname).toBe('/forgot-password'));
    expect(screen.getByText('Unable to verify reset link. Please check your internet connection and try again.')).toBeInTheDocument();
  });

  it('applies the reset rules, rates the strength and finishes on the success screen', async () => {
    const fetchMock = mockFetch({
      'GET /api/user/verify-reset-token/good': ok(null, 'Reset link is valid'),
      'POST /api/user/reset-password': ok(null, 'Your password has been reset.'),
    });
    const { user, router } = renderApp({ path: '/reset-password?token=good' });

    await user.type(await screen.findByLabelText('New Password', { selector: 'input' }), 'password');
    expect(screen.getByText('Weak')).toBeInTheDocument();
    await user.type(confirmPassword(), 'password');
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByText('Password must contain at least one letter and one number')).toBeInTheDocument();

    await user.clear(newPassword());
    await user.type(newPassword(), 'NewSecret42!');
    expect(screen.getByText('Strong')).toBeInTheDocument();
    await user.clear(confirmPassword());
    await user.type(confirmPassword(), 'NewSecret41!');
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByText('Passwords do not match')).toBeInTheDocument();

    await user.clear(confirmPassword());
    await user.type(confirmPassword(), 'NewSecret42!');
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));

    expect(await screen.findByText(/all other reset links were invalidated/)).toBeInTheDocument();
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({ token: 'good', newPassword: 'NewSecret42!' });
    await user.click(screen.getByRole('button', { name: 'Continue to Login' }));
    expect(router.state.location.pathname).toBe('/login');
  });

  it('refuses a common password', async () => {
    mockFetch({ 'GET /api/user/verify-reset-token/good': ok(null) });
    const { user } = renderApp({ path: '/reset-password?token=good' });

    await user.type(await screen.findByLabelText('New Password', { selector: 'input' }), 'Password123');
    await user.type(confirmPassword(), 'Password123');
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));

    expect(await screen.findByText('Password is too common. Please choose a stronger password.')).toBeInTheDocument();
  });
});
