import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fail, mockFetch, ok } from '@/test/fixtures';
import { renderApp } from '@/test/render';

describe('ForgotPasswordPage', () => {
  it('validates the email address', async () => {
    mockFetch();
    const { user } = renderApp({ path: '/forgot-password' });

    await user.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect(await screen.findByText('Email is required')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Email'), 'nope');
    await user.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect(await screen.findByText('Please enter a valid email address')).toBeInTheDocument();
  });

  it('shows Check Your Email with the address and tips, and can start again', async () => {
    mockFetch({ 'POST /api/user/forgot-password': ok(null, 'If an account with that email exists, a password reset link has been sent to your email.') });
    const { user } = renderApp({ path: '/forgot-password' });

    await user.type(screen.getByLabelText('Email'), 'lindo@example.co.za');
    await user.click(screen.getByRole('button', { name: 'Send Reset Link' }));

    expect(await screen.findByRole('heading', { name: 'Check Your Email' })).toBeInTheDocument();
    expect(screen.getByText('lindo@example.co.za')).toBeInTheDocument();
    expect(screen.getByText(/expires in 1 hour/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Back to Login' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Try Different Email' }));
    expect(screen.getByLabelText('Email')).toHaveValue('');
  });

  it('shows the server message when rate limited (the per-minute limit; reset throttling itself answers the same 200), and a connection message when offline', async () => {
    mockFetch({ 'POST /api/user/forgot-password': fail(429, 'Too many requests. Please try again in 42 seconds.') });
    const first = renderApp({ path: '/forgot-password' });
    await first.user.type(screen.getByLabelText('Email'), 'lindo@example.co.za');
    await first.user.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect(await screen.findAllByText('Too many requests. Please try again in 42 seconds.')).not.toHaveLength(0);
    first.unmount();

    mockFetch({ 'POST /api/user/forgot-password': () => Promise.reject(new TypeError('Failed to fetch')) });
    const second = renderApp({ path: '/forgot-password' });
    await second.user.type(screen.getByLabelText('Email'), 'lindo@example.co.za');
    await second.user.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect(
      await screen.findAllByText('Unable to connect to the server. Please check your internet connection and try again.'),
    ).not.toHaveLength(0);
  });
});
