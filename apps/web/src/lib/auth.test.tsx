import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, renderHook, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { NotificationProvider, useNotification } from '@/components/ui/toast';
import { makeUser, mockFetch, ok, signIn } from '@/test/fixtures';
import { createTestQueryClient } from '@/test/render';
import { AuthProvider, useAuth } from './auth';

function wrapper({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={createTestQueryClient()}>
      <NotificationProvider>
        <AuthProvider autoRefresh={false}>{children}</AuthProvider>
      </NotificationProvider>
    </QueryClientProvider>
  );
}

describe('AuthProvider', () => {
  it('refuses to be used outside its provider', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(() => renderHook(() => useAuth())).toThrow('useAuth must be used within an AuthProvider');
    expect(() => renderHook(() => useNotification())).toThrow('useNotification must be used within a NotificationProvider');
  });

  it('restores a saved session', () => {
    signIn(makeUser(), 'saved-token');
    const { result } = renderHook(() => useAuth(), { wrapper });
    expect(result.current.user?.username).toBe('sipho');
    expect(result.current.token).toBe('saved-token');
    expect(result.current.isAuthenticated).toBe(true);
  });

  it('discards a saved user it cannot read, and logs why', () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    window.localStorage.setItem('currentUser', '{not json');
    const { result } = renderHook(() => useAuth(), { wrapper });
    expect(result.current.user).toBeNull();
    expect(window.localStorage.getItem('currentUser')).toBeNull();
    expect(logged).toHaveBeenCalled();
  });

  it('stores user and token at login, merges updates, and ignores updates when signed out', () => {
    const { result } = renderHook(() => useAuth(), { wrapper });
    act(() => result.current.updateUser({ phone_number: '+27 82 000 0000' }));
    expect(result.current.user).toBeNull();
    expect(window.localStorage.getItem('currentUser')).toBeNull();

    act(() => result.current.login(makeUser(), 'fresh-token'));
    expect(window.localStorage.getItem('authToken')).toBe('fresh-token');
    act(() => result.current.updateUser({ phone_number: '+27 82 000 0000' }));
    expect(result.current.user?.phone_number).toBe('+27 82 000 0000');
    expect(result.current.user?.email).toBe('sipho@example.co.za');
    expect(JSON.parse(window.localStorage.getItem('currentUser') ?? '{}').phone_number).toBe('+27 82 000 0000');
  });

  it('logs out on the server, then forgets the session', async () => {
    signIn(makeUser());
    window.localStorage.setItem('userData', '{}');
    const fetchMock = mockFetch({ 'POST /api/user/logout': ok(null) });
    const { result } = renderHook(() => useAuth(), { wrapper });

    await act(() => result.current.logout());

    expect(fetchMock).toHaveBeenCalledWith('/api/user/logout', expect.objectContaining({ method: 'POST' }));
    expect(result.current.user).toBeNull();
    expect(window.localStorage.getItem('authToken')).toBeNull();
    expect(window.localStorage.getItem('currentUser')).toBeNull();
    expect(window.localStorage.getItem('userData')).toBeNull();
  });

  it('refreshes the user from /api/user/me', async () => {
    signIn(makeUser({ verification_status: 'pending_verification' }));
    mockFetch({ 'GET /api/user/me': ok(makeUser({ verification_status: 'verified' })) });
    const { result } = renderHook(() => useAuth(), { wrapper });

    await act(() => result.current.refreshUser());

    expect(result.current.user?.verification_status).toBe('verified');
  });

  it('clears its state when any call answers 401', async () => {
    signIn(makeUser());
    mockFetch({ 'GET /api/user/me': new Response(JSON.stringify({ success: false, message: 'Expired' }), { status: 401 }) });
    function Probe() {
      const { user, refreshUser } = useAuth();
      return (
        <button type="button" onClick={() => void refreshUser().catch(() => undefined)}>
          {user ? user.username : 'signed out'}
        </button>
      );
    }
    render(<Probe />, { wrapper });
    act(() => screen.getByRole('button').click());
    await waitFor(() => expect(screen.getByRole('button')).toHaveTextContent('signed out'));
  });
});
