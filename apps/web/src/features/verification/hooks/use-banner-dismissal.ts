// The verification banner's "dismiss for an hour", remembered per user in localStorage.
import { BANNER_DISMISS_MS } from '@karoo/shared';
import { useCallback, useEffect, useState } from 'react';
import { readNumber, writeNumber } from '@/lib/session-storage';

export const dismissalKey = (username: string) => `verificationBannerDismissed:${username}`;

export function isBannerDismissed(username: string, now = Date.now()): boolean {
  const at = readNumber(dismissalKey(username));
  return at !== null && now - at < BANNER_DISMISS_MS && at <= now;
}

export function useBannerDismissal(username: string | undefined) {
  // Bumped when a dismissal is made or runs out, so the stored value is read again.
  const [tick, setTick] = useState(0);
  const dismissed = username ? isBannerDismissed(username) : false;

  useEffect(() => {
    if (!username) return;
    const at = readNumber(dismissalKey(username));
    if (at === null) return;
    const remaining = at + BANNER_DISMISS_MS - Date.now();
    if (remaining <= 0) return;
    const timer = setTimeout(() => setTick((t) => t + 1), remaining);
    return () => clearTimeout(timer);
  }, [username, tick]);

  const dismiss = useCallback(() => {
    if (!username) return;
    writeNumber(dismissalKey(username), Date.now());
    setTick((t) => t + 1);
  }, [username]);

  return { dismissed, dismiss };
}
