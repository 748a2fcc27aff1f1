// Keeps the signed-in person's notices and conversations current from the live stream (decision
// 083): each event names what changed, and the matching queries are fetched again through the API.
// The stream's code loads once someone is signed in (public pages never carry it).
import { useQueryClient, type Query } from '@tanstack/react-query';
import { useEffect } from 'react';
import { API_BASE } from '../api-client';
import { useAuth } from '../auth';
import { queryKeys } from '../query-keys';
import { getToken } from '../session-storage';
import type { LiveEvent } from './live-connection';
import { setLiveStatus } from './live-status';

export function LiveUpdates() {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const username = user?.username;

  useEffect(() => {
    if (!username) return;
    let stop: (() => void) | null = null;
    let cancelled = false;
    // An administrator's reading of a conversation is audited each time: never read again by itself.
    const participantsReading = (bookingId?: string) => ({
      predicate: (query: Query) =>
        query.queryKey[0] === 'messages' &&
        (query.queryKey[1] !== 'conversation' || (query.queryKey[3] === null && (!bookingId || query.queryKey[2] === bookingId))),
    });
    const onEvent = (event: LiveEvent) => {
      if (event.kind === 'ready') {
        // Opened or reopened: whatever happened while it was closed is read again.
        void queryClient.invalidateQueries({ queryKey: queryKeys.notifications.all });
        void queryClient.invalidateQueries(participantsReading());
        return;
      }
      if (event.kind === 'notification') {
        void queryClient.invalidateQueries({ queryKey: queryKeys.notifications.all });
        // A notice about a booking may change its conversation too (paid: contact details shown).
        if (event.bookingId) void queryClient.invalidateQueries({ ...participantsReading(event.bookingId), queryKey: queryKeys.messages.conversationsOf(event.bookingId) });
        return;
      }
      if (event.bookingId) void queryClient.invalidateQueries({ ...participantsReading(event.bookingId), queryKey: queryKeys.messages.conversationsOf(event.bookingId) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.messages.unread() });
    };
    void import('./live-connection').then(({ connectLive }) => {
      if (cancelled) return;
      stop = connectLive({ url: `${API_BASE}/live`, token: getToken, onEvent, onStatus: setLiveStatus });
    });
    return () => {
      cancelled = true;
      stop?.();
      setLiveStatus('closed');
    };
  }, [username, queryClient]);

  return null;
}
