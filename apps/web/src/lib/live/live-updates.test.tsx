// What each live event refreshes (decision 083): the bell's notices, one booking's conversation as
// its participants read it (never an administrator's audited reading), the unread counts.
import { QueryClientProvider, type QueryKey } from '@tanstack/react-query';
import { render, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { NotificationProvider } from '@/components/ui/toast';
import { makeUser, signIn } from '@/test/fixtures';
import { createTestQueryClient } from '@/test/render';
import { AuthProvider } from '../auth';
import { queryKeys } from '../query-keys';
import type { LiveOptions } from './live-connection';
import { LiveUpdates } from './live-updates';

const connections: LiveOptions[] = [];
vi.mock('./live-connection', () => ({
  connectLive: (options: LiveOptions) => {
    connections.push(options);
    return () => undefined;
  },
}));

const KEYS: Record<string, QueryKey> = {
  notices: queryKeys.notifications.of('sipho'),
  unread: queryKeys.messages.unread(),
  tripOne: queryKeys.messages.conversation('b-1'),
  tripTwo: queryKeys.messages.conversation('b-2'),
  adminReading: queryKeys.messages.conversation('b-1', 'Dispute 12'),
};

async function setUp() {
  signIn(makeUser(), 'tok');
  const client = createTestQueryClient();
  for (const key of Object.values(KEYS)) client.setQueryData(key, {});
  render(
    <QueryClientProvider client={client}>
      <NotificationProvider>
        <AuthProvider autoRefresh={false}>
          <LiveUpdates />
        </AuthProvider>
      </NotificationProvider>
    </QueryClientProvider>,
  );
  await waitFor(() => expect(connections.length).toBeGreaterThan(0));
  const live = connections.at(-1)!;
  const invalidated = () => Object.entries(KEYS).filter(([, key]) => client.getQueryState(key)?.isInvalidated).map(([name]) => name).sort();
  return { live, invalidated };
}

describe('LiveUpdates', () => {
  it('opens the stream with the saved token once someone is signed in', async () => {
    const { live } = await setUp();
    expect(live.url).toBe('/api/live');
    expect(live.token()).toBe('tok');
  });

  it('a message refreshes that conversation and the unread counts, not another booking\u2019s nor an administrator\u2019s reading', async () => {
    const { live, invalidated } = await setUp();
    live.onEvent({ kind: 'message', bookingId: 'b-1' });
    await waitFor(() => expect(invalidated()).toEqual(['tripOne', 'unread']));
  });

  it('a notice refreshes the bell, and the conversation of its booking', async () => {
    const { live, invalidated } = await setUp();
    live.onEvent({ kind: 'notification', bookingId: 'b-2' });
    await waitFor(() => expect(invalidated()).toEqual(['notices', 'tripTwo']));
  });

  it('ready (a new or reopened stream) refreshes everything a participant reads', async () => {
    const { live, invalidated } = await setUp();
    live.onEvent({ kind: 'ready', bookingId: null });
    await waitFor(() => expect(invalidated()).toEqual(['notices', 'tripOne', 'tripTwo', 'unread']));
  });
});
