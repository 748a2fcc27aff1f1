// The signed-in person's live stream (GET /api/live, server-sent events; decision 083). A fetch
// with the bearer token (EventSource cannot send one), read through eventsource-parser. It
// reconnects by itself with the id of the last event it saw (Last-Event-ID), so the server sends
// what it missed; it waits longer after each failure (1 s up to 30 s), and while the browser is
// offline it waits for the connection to come back. A stream silent for longer than
// SILENT_LIMIT_MS (the server sends a heartbeat every 20 s) is taken for dead (a laptop woke up,
// the phone changed networks) and opened again. A 401 ends it: the session is over.
import { EventSourceParserStream } from 'eventsource-parser/stream';

export type LiveKind = 'ready' | 'notification' | 'message' | 'message_read';
export interface LiveEvent {
  kind: LiveKind;
  bookingId: string | null;
}
export type LiveStatus = 'connecting' | 'open' | 'closed';

export interface LiveOptions {
  url: string;
  token: () => string | null;
  onEvent: (event: LiveEvent) => void;
  onStatus: (status: LiveStatus) => void;
  /** Injected in tests. */
  fetch?: typeof fetch;
}

const KINDS: readonly LiveKind[] = ['ready', 'notification', 'message', 'message_read'];
const FIRST_WAIT_MS = 1_000;
const LONGEST_WAIT_MS = 30_000;
/** A stream that stayed open this long starts the next wait afresh. */
const HEALTHY_MS = 10_000;
/** Nothing at all (not even a heartbeat) for this long: the connection is dead. */
export const SILENT_LIMIT_MS = 60_000;

/** The wait before reconnect attempt `attempt` (0, 1, ...): doubling, capped, with a little jitter so instances' clients spread out. */
export function reconnectDelay(attempt: number, random = Math.random): number {
  const base = Math.min(LONGEST_WAIT_MS, FIRST_WAIT_MS * 2 ** attempt);
  return Math.round(base * (0.8 + 0.4 * random()));
}

function parse(kind: string | undefined, data: string): LiveEvent | null {
  if (!kind || !(KINDS as readonly string[]).includes(kind)) return null;
  try {
    const body = JSON.parse(data) as { bookingId?: unknown };
    return { kind: kind as LiveKind, bookingId: typeof body.bookingId === 'string' ? body.bookingId : null };
  } catch {
    return { kind: kind as LiveKind, bookingId: null };
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

function online(signal: AbortSignal): Promise<void> {
  if (typeof navigator === 'undefined' || navigator.onLine !== false) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      window.removeEventListener('online', done);
      signal.removeEventListener('abort', done);
      resolve();
    };
    window.addEventListener('online', done, { once: true });
    signal.addEventListener('abort', done, { once: true });
  });
}

/** Opens the stream and keeps it open until the returned function is called. */
export function connectLive(options: LiveOptions): () => void {
  const stop = new AbortController();
  const doFetch = options.fetch ?? fetch;
  let lastEventId: string | null = null;

  const run = async () => {
    let attempt = 0;
    while (!stop.signal.aborted) {
      await online(stop.signal);
      const token = options.token();
      if (!token || stop.signal.aborted) break;
      options.onStatus('connecting');
      let openedAt = 0;
      // This attempt's own abort: the watchdog ends it without ending the whole connection.
      const attemptAbort = new AbortController();
      const endAttempt = () => attemptAbort.abort();
      stop.signal.addEventListener('abort', endAttempt, { once: true });
      let watchdog: ReturnType<typeof setTimeout> | undefined;
      const heard = () => {
        clearTimeout(watchdog);
        watchdog = setTimeout(endAttempt, SILENT_LIMIT_MS);
      };
      try {
        heard();
        const response = await doFetch(options.url, {
          headers: { accept: 'text/event-stream', authorization: `Bearer ${token}`, ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
          signal: attemptAbort.signal,
          cache: 'no-store',
        });
        if (response.status === 401 || response.status === 403) break;
        if (response.ok && response.body) {
          const reader = response.body
            .pipeThrough(new TextDecoderStream())
            .pipeThrough(new EventSourceParserStream({ onComment: heard }))
            .getReader();
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            heard();
            if (value.id) lastEventId = value.id;
            const event = parse(value.event, value.data);
            if (!event) continue;
            if (event.kind === 'ready') {
              openedAt = Date.now();
              options.onStatus('open');
            }
            options.onEvent(event);
          }
        } else {
          await response.body?.cancel().catch(() => undefined);
        }
      } catch {
        // Network gone, server restarting, silent too long, or stopped: handled below.
      } finally {
        clearTimeout(watchdog);
        stop.signal.removeEventListener('abort', endAttempt);
        attemptAbort.abort();
      }
      if (stop.signal.aborted) break;
      options.onStatus('connecting');
      if (openedAt && Date.now() - openedAt >= HEALTHY_MS) attempt = 0;
      await sleep(reconnectDelay(attempt), stop.signal);
      attempt += 1;
    }
    options.onStatus('closed');
  };
  void run();
  return () => stop.abort();
}
