// The signed-in session for the whole app: who is signed in, their token, and the ways to start,
// refresh, update and end a session. Every feature reads it through useAuth(). The user is kept
// fresh from GET /api/user/me on load and when the window regains focus, so changes made by an
// admin (verification) show without signing in again.
import type { User } from '@karoo/shared';
import { useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useNotification } from '@/components/ui/toast';
import { apiClient, setUnauthorizedHandler } from './api-client';
import * as session from './session-storage';

/** Focus refreshes are skipped when the last refresh is more recent than this. */
const FOCUS_REFRESH_MIN_MS = 30_000;

export interface AuthContextValue {
  user: User | null;
  token: string | null;
  isAuthenticated: boolean;
  /** Stores the session after a successful sign-in and greets the user. */
  login: (user: User, token: string) => void;
  /** Ends the session on the server (best effort) and in the browser. */
  logout: () => Promise<void>;
  /** Merges fields into the signed-in user and saves it; does nothing when nobody is signed in. */
  updateUser: (fields: Partial<User>) => void;
  /** Reloads the signed-in user from the server; resolves to null when nobody is signed in. */
  refreshUser: () => Promise<User | null>;
  /** Forgets the session in this browser without calling the server. */
  clearSession: () => void;
  /**
   * False while a server-rendered page hydrates: the server cannot know the browser's session, so
   * the first render is the same for everyone and the header leaves its account corner empty
   * rather than show "Sign In" to someone signed in (decision 044). True from the first effect on.
   */
  isSessionKnown: boolean;
}

const AuthContext = createContext<AuthContextValue | null>(null);

export function fetchCurrentUser(signal?: AbortSignal): Promise<User> {
  return apiClient.get<User>('/user/me', { signal }).then((result) => result.data);
}

export interface AuthProviderProps {
  children: ReactNode;
  /** Called after a 401 ended the session outside /login; the app sends the user to /login. */
  onSessionExpired?: () => void;
  /** Refresh the user from the server on mount and on focus (tests turn it off). */
  autoRefresh?: boolean;
  /** The page is hydrated from server HTML: the saved session is read right after the first render. */
  hydrating?: boolean;
}

export function AuthProvider({ children, onSessionExpired, autoRefresh = true, hydrating = false }: AuthProviderProps) {
  const notify = useNotification();
  const queryClient = useQueryClient();
  const [user, setUser] = useState<User | null>(() => (hydrating ? null : session.getSavedUser()));
  const [token, setToken] = useState<string | null>(() => (hydrating ? null : session.getToken()));
  const [isSessionKnown, setSessionKnown] = useState(!hydrating);
  // Before the browser paints the hydrated page: the saved session, as a client-rendered page starts with.
  useLayoutEffect(() => {
    if (isSessionKnown) return;
    setUser(session.getSavedUser());
    setToken(session.getToken());
    setSessionKnown(true);
  }, [isSessionKnown]);
  const lastRefresh = useRef(0);
  const onExpiredRef = useRef(onSessionExpired);
  useEffect(() => {
    onExpiredRef.current = onSessionExpired;
  });

  const clearSession = useCallback(() => {
    session.clearSession();
    setUser(null);
    setToken(null);
    queryClient.clear();
  }, [queryClient]);

  // A 401 anywhere: the api-client has already cleared storage; clear React state and leave.
  useEffect(
    () =>
      setUnauthorizedHandler(({ redirect }) => {
        setUser(null);
        setToken(null);
        queryClient.clear();
        if (redirect) onExpiredRef.current?.();
      }),
    [queryClient],
  );

  const login = useCallback(
    (nextUser: User, nextToken: string) => {
      session.saveToken(nextToken);
      session.saveUser(nextUser);
      queryClient.clear();
      lastRefresh.current = Date.now();
      setToken(nextToken);
      setUser(nextUser);

      const name = nextUser.full_name || nextUser.username;
      switch (nextUser.verification_status) {
        case 'pending_verification':
          notify.warning(
            'Account Pending Verification',
            'Some features may be limited until your account is approved. You will be prompted to upload your documents and bank details.',
            8000,
          );
          break;
        case 'rejected':
          notify.warning('Verification Rejected', `Welcome back, ${name}. Please update your documents on your profile so we can review them again.`, 8000);
          break;
        case 'pending_upload':
          notify.info('Welcome Back!', `Good to see you, ${name}. Complete your registration on your profile to unlock bookings.`, 6000);
          break;
        default:
          notify.success('Welcome Back!', `Good to see you again, ${name}.`);
      }
    },
    [notify, queryClient],
  );

  const logout = useCallback(async () => {
    try {
      if (session.getToken()) await apiClient.post<null>('/user/logout');
    } catch {
      // The session ends in this browser whatever the server said (it may already be expired).
    }
    clearSession();
    notify.info('Signed out', 'You have been signed out of Karoo.', 4000);
  }, [clearSession, notify]);

  const updateUser = useCallback((fields: Partial<User>) => {
    setUser((current) => {
      if (!current) return current;
      const merged = { ...current, ...fields };
      session.saveUser(merged);
      return merged;
    });
  }, []);

  const refreshUser = useCallback(async () => {
    if (!session.getToken()) return null;
    lastRefresh.current = Date.now();
    const fresh = await fetchCurrentUser();
    // Signed out meanwhile (logout or 401): do not bring the user back.
    if (!session.getToken()) return null;
    session.saveUser(fresh);
    setUser(fresh);
    return fresh;
  }, []);

  useEffect(() => {
    if (!autoRefresh) return;
    const refreshQuietly = () => {
      refreshUser().catch(() => {
        // Offline or server trouble: keep the saved user; a 401 has been handled by the api-client.
      });
    };
    refreshQuietly();
    const onFocus = () => {
      if (document.visibilityState === 'hidden') return;
      if (Date.now() - lastRefresh.current >= FOCUS_REFRESH_MIN_MS) refreshQuietly();
    };
    window.addEventListener('focus', onFocus);
    document.addEventListener('visibilitychange', onFocus);
    return () => {
      window.removeEventListener('focus', onFocus);
      document.removeEventListener('visibilitychange', onFocus);
    };
  }, [autoRefresh, refreshUser]);

  const value = useMemo<AuthContextValue>(
    () => ({ user, token, isAuthenticated: !!user, login, logout, updateUser, refreshUser, clearSession, isSessionKnown }),
    [user, token, login, logout, updateUser, refreshUser, clearSession, isSessionKnown],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const context = useContext(AuthContext);
  if (!context) throw new Error('useAuth must be used within an AuthProvider');
  return context;
}
