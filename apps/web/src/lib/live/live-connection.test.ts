// The live stream's client (decision 083): parses the server's events, reconnects with the last
// event's id, and stops when the session is over.
import { describe, expect, it, vi } from 'vitest';
import { connectLive, reconnectDelay, type LiveEvent, type LiveStatus } from './live-connection';

function streamOf(text: string, keepOpen = false): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(text));
      if (!keepOpen) controller.close();
    },
  });
}

const sse = (...events: { id: string; event: string; data: unknown }[]) => events.map((e) => `id: ${e.id}\nevent: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`).join('');

describe('reconnectDelay', () => {
  it('doubles from a second up to thirty, within a fifth either way', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map((n) => reconnectDelay(n, () => 0.5))).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
    expect(reconnectDelay(0, () => 0)).toBe(800);
    expect(reconnectDelay(10, () => 1)).toBe(36000);
  });
});

describe('connectLive', () => {
  it('passes on each event, and reconnects with the last id it saw', async () => {
    vi.useFakeTimers();
    const calls: Record<string, string>[] = [];
    const events: LiveEvent[] = [];
    const statuses: LiveStatus[] = [];
    const fetch = vi.fn(async (_url: string | URL | Request, init?: RequestInit) => {
      calls.push(init?.headers as Record<string, string>);
      if (calls.length === 1) {
        return new Response(streamOf(sse({ id: '7', event: 'ready', data: { lastEventId: '7' } }, { id: '8', event: 'message', data: { bookingId: 'b-1' } }, { id: '9', event: 'surprise', data: {} })));
      }
      return new Response(streamOf(sse({ id: '9', event: 'ready', data: { lastEventId: '9' } }), true));
    }) as unknown as typeof globalThis.fetch;
    const stop = connectLive({ url: '/api/live', token: () => 'tok', onEvent: (e) => events.push(e), onStatus: (s) => statuses.push(s), fetch });
    await vi.waitFor(() => expect(events.length).toBe(2));
    // The first stream ended: one second (with jitter) later it reconnects from event 9.
    await vi.advanceTimersByTimeAsync(1300);
    await vi.waitFor(() => expect(calls.length).toBe(2));
    expect(calls[0]).toMatchObject({ authorization: 'Bearer tok', accept: 'text/event-stream' });
    expect(calls[0]!['last-event-id']).toBeUndefined();
    expect(calls[1]!['last-event-id']).toBe('9');
    expect(events).toEqual([
      { kind: 'ready', bookingId: null },
      { kind: 'message', bookingId: 'b-1' },
      { kind: 'ready', bookingId: null },
    ].slice(0, events.length));
    expect(statuses).toContain('open');
    stop();
    vi.useRealTimers();
  });

  it('stops for good on 401 (the session is over), and without a token', async () => {
    const statuses: LiveStatus[] = [];
    const fetch = vi.fn(async () => new Response('{"success":false}', { status: 401 })) as unknown as typeof globalThis.fetch;
    connectLive({ url: '/api/live', token: () => 'expired', onEvent: () => {}, onStatus: (s) => statuses.push(s), fetch });
    await vi.waitFor(() => expect(statuses.at(-1)).toBe('closed'));
    expect(fetch).toHaveBeenCalledTimes(1);

    const none: LiveStatus[] = [];
    connectLive({ url: '/api/live', token: () => null, onEvent: () => {}, onStatus: (s) => none.push(s), fetch });
    await vi.waitFor(() => expect(none).toEqual(['closed']));
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});
