// True while a media query matches (e.g. the 640 px mobile breakpoint of document 1).
import { MOBILE_BREAKPOINT_PX } from '@karoo/shared';
import { useSyncExternalStore } from 'react';

export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      if (typeof window.matchMedia !== 'function') return () => {};
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => (typeof window.matchMedia === 'function' ? window.matchMedia(query).matches : false),
    () => false,
  );
}

const MOBILE_QUERY = `(max-width: ${MOBILE_BREAKPOINT_PX - 1}px)`;

/** Below 640 px: phones. */
export function useIsMobile(): boolean {
  return useMediaQuery(MOBILE_QUERY);
}

const noSubscription = () => () => {};

/** False on the server and while a server-rendered page hydrates, true after: for what only a browser can draw (the map). */
export function useIsClient(): boolean {
  return useSyncExternalStore(noSubscription, () => true, () => false);
}

/** Whether the screen is below 640 px right now: for event handlers, which need no re-render when it changes. */
export function isMobileNow(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia(MOBILE_QUERY).matches;
}
