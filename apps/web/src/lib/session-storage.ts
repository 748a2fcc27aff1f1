// The browser-side session: the signed-in user and the API token, kept in localStorage under the
// keys document 1 names (currentUser, authToken; userData is a legacy key that is only cleared).
import type { User } from '@karoo/shared';

export const TOKEN_KEY = 'authToken';
export const USER_KEY = 'currentUser';
export const LEGACY_USER_KEY = 'userData';

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    // Storage can be disabled (private modes, blocked cookies); the app then works without persistence.
    return null;
  }
}

export function getToken(): string | null {
  return storage()?.getItem(TOKEN_KEY) ?? null;
}

export function saveToken(token: string): void {
  storage()?.setItem(TOKEN_KEY, token);
}

/** The saved user, or null. A value that cannot be parsed is discarded and logged. */
export function getSavedUser(): User | null {
  const raw = storage()?.getItem(USER_KEY);
  if (!raw) return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (parsed && typeof parsed === 'object' && typeof (parsed as { username?: unknown }).username === 'string') {
      return parsed as User;
    }
    throw new Error('Saved user has no username');
  } catch (error) {
    console.error('Discarding the saved user: it could not be read.', error);
    storage()?.removeItem(USER_KEY);
    return null;
  }
}

export function saveUser(user: User): void {
  storage()?.setItem(USER_KEY, JSON.stringify(user));
}

/** Removes everything a session leaves in the browser. */
export function clearSession(): void {
  const store = storage();
  if (!store) return;
  store.removeItem(TOKEN_KEY);
  store.removeItem(USER_KEY);
  store.removeItem(LEGACY_USER_KEY);
}

/** A per-user key for small UI preferences (e.g. the verification banner's dismissal). */
export function readNumber(key: string): number | null {
  const raw = storage()?.getItem(key);
  const value = raw == null ? NaN : Number(raw);
  return Number.isFinite(value) ? value : null;
}

export function writeNumber(key: string, value: number): void {
  storage()?.setItem(key, String(value));
}
