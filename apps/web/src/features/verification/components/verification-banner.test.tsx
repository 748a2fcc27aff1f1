import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fail, makeUser, mockFetch, ok, signIn } from '@/test/fixtures';
import { renderApp } from '@/test/render';

const PENDING = "Verification in process - we're awaiting your documents and information";
const INCOMPLETE = /Complete your profile verification/;

function statusAnswer(missing: string[]) {
  return ok({ verification_status: 'pending_upload', documents: {}, missing });
}

describe('VerificationBanner', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is hidden for guests', async () => {
    mockFetch();
    renderApp({ path: '/terms' });
    await screen.findByRole('heading', { name: 'Terms of Service' });
    expect(screen.queryByTestId('verification-banner')).not.toBeInTheDocument();
  });

  it('is hidden for verified users and for admins', async () => {
    signIn(makeUser({ verification_status: 'verified' }));
    mockFetch({ 'GET /api/notifications': ok([]) });
    const verified = renderApp({ path: '/terms' });
    await screen.findByRole('heading', { name: 'Terms of Service' });
    expect(screen.queryByTestId('verification-banner')).not.toBeInTheDocument();
    verified.unmount();

    signIn(makeUser({ username: 'admin', role: 'admin', verification_status: 'pending_upload' }));
    renderApp({ path: '/terms' });
    await screen.findByRole('heading', { name: 'Terms of Service' });
    expect(screen.queryByTestId('verification-banner')).not.toBeInTheDocument();
  });

  it('is hidden on /profile', async () => {
    signIn(makeUser({ verification_status: 'pending_verification' }));
    mockFetch({ 'GET /api/notifications': ok([]), 'GET /api/user/me': ok(makeUser({ verification_status: 'pending_verification' })) });
    renderApp({ path: '/profile' });
    await screen.findByRole('button', { name: 'Edit Profile' });
    expect(screen.queryByText(PENDING)).not.toBeInTheDocument();
  });

  it('tells a pending user their verification is in process, with Upload Documents linking to /profile', async () => {
    signIn(makeUser({ verification_status: 'pending_verification' }));
    mockFetch({ 'GET /api/notifications': ok([]) });
    renderApp({ path: '/terms' });

    expect(await screen.findByText(PENDING)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Upload Documents' })).toHaveAttribute('href', '/profile');
  });

  it('tells a rejected user to update their documents', async () => {
    signIn(makeUser({ verification_status: 'rejected' }));
    mockFetch({ 'GET /api/notifications': ok([]) });
    renderApp({ path: '/terms' });

    expect(await screen.findByText('Verification rejected - please update your documents')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Update Documents' })).toHaveAttribute('href', '/profile');
  });

  it('lists at most 3 missing items, then "and N more"', async () => {
    signIn(makeUser({ verification_status: 'pending_upload' }));
    mockFetch({
      'GET /api/notifications': ok([]),
      'GET /api/user/sipho/verification-status': statusAnswer(['Phone number', 'Address', 'ID number', 'Bank code', 'Verification Documents']),
    });
    renderApp({ path: '/terms' });

    expect(await screen.findByText('Complete your profile verification - 5 item(s) needed')).toBeInTheDocument();
    expect(screen.getByText(/Phone number, Address, ID number/)).toBeInTheDocument();
    expect(screen.getByText(/and 2 more/)).toBeInTheDocument();
    expect(screen.queryByText(/Bank code/)).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Complete Profile' })).toHaveAttribute('href', '/profile');
  });

  it('lists Verification Documents when the status check fails', async () => {
    signIn(makeUser({ verification_status: 'pending_upload' }));
    mockFetch({
      'GET /api/notifications': ok([]),
      'GET /api/user/sipho/verification-status': fail(500, 'Something went wrong'),
    });
    renderApp({ path: '/terms' });

    expect(await screen.findByText('Complete your profile verification - 1 item(s) needed')).toBeInTheDocument();
    expect(screen.getByText('Verification Documents')).toBeInTheDocument();
  });

  it('stays dismissed for one hour, for that user only', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    vi.setSystemTime(new Date('2025-08-16T08:00:00Z'));
    signIn(makeUser({ username: 'naledi', verification_status: 'pending_verification' }));
    mockFetch({ 'GET /api/notifications': ok([]) });
    const first = renderApp({ path: '/terms', userEventOptions: { advanceTimers: vi.advanceTimersByTime } });

    await screen.findByText(PENDING);
    await first.user.click(screen.getByRole('button', { name: /Dismiss verification reminder/ }));
    expect(screen.queryByText(PENDING)).not.toBeInTheDocument();
    first.unmount();

    // Still dismissed after a reload 59 minutes later.
    vi.setSystemTime(new Date('2025-08-16T08:59:00Z'));
    const reload = renderApp({ path: '/terms' });
    await screen.findByRole('heading', { name: 'Terms of Service' });
    expect(screen.queryByText(PENDING)).not.toBeInTheDocument();

    // Another user on the same browser is not affected.
    reload.unmount();
    signIn(makeUser({ username: 'thandi', verification_status: 'pending_verification' }));
    const other = renderApp({ path: '/terms' });
    expect(await screen.findByText(PENDING)).toBeInTheDocument();
    other.unmount();

    // Back as the first user: the banner returns once the hour is over, without a reload.
    signIn(makeUser({ username: 'naledi', verification_status: 'pending_verification' }));
    renderApp({ path: '/terms' });
    await screen.findByRole('heading', { name: 'Terms of Service' });
    expect(screen.queryByText(PENDING)).not.toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(60 * 1000);
    });
    await waitFor(() => expect(screen.getByText(PENDING)).toBeInTheDocument());
  });

  it('shows nothing while the list of missing items is empty', async () => {
    signIn(makeUser({ verification_status: 'pending_upload' }));
    mockFetch({ 'GET /api/notifications': ok([]), 'GET /api/user/sipho/verification-status': statusAnswer([]) });
    renderApp({ path: '/terms' });
    await screen.findByRole('heading', { name: 'Terms of Service' });
    await waitFor(() => expect(screen.queryByText(INCOMPLETE)).not.toBeInTheDocument());
  });
});
