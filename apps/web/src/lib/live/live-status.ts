// Whether the live stream is open (decision 083): while it is, the notices, conversations and
// unread counts are fetched again on its events, and their polling stops; while it is not (a
// proxy that refuses streams, an old browser, the network away) they poll as before.
import { useSyncExternalStore } from 'react';
import type { LiveStatus } from './live-connection';

let status: LiveStatus = 'closed';
const listeners = new Set<() => void>();

export function setLiveStatus(next: LiveStatus): void {
  if (next === status) return;
  status = next;
  // Readable from outside (the end-to-end tests wait for an open stream before they watch it).
  if (typeof document !== 'undefined') document.documentElement.dataset.live = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** True while the stream is open. */
export function useLiveOpen(): boolean {
  return useSyncExternalStore(subscribe, () => status === 'open', () => false);
}

/** A query's polling interval: none while the stream is open, `ms` otherwise. */
export function useFallbackPolling(ms: number): number | false {
  return useLiveOpen() ? false : ms;
}
