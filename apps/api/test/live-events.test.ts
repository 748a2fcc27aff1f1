// GET /api/live (issue 37, decision 083): a person's stream of server-sent events. Two app
// instances on one database, as in production: each has its own cache bus (PostgreSQL's
// LISTEN/NOTIFY on a server; on the embedded database, where one process is the whole site, the
// two share one in-process bus). A message written through one instance reaches the other
// participant's stream on the other at once; a stranger's stream hears nothing of it; a reconnect
// with Last-Event-ID gets what it missed; heartbeats keep a quiet stream open; a stopping server
// ends its streams.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventSourceParserStream, type EventSourceMessage } from 'eventsource-parser/stream';
import pino from 'pino';
import { MESSAGE_POLL_MS } from '@karoo/shared';
import { LocalCacheBus, PostgresCacheBus, type CacheBus } from '../src/lib/cache-bus';
import { pruneOldRecords } from '../src/prune.job';
import { connectServer, type DatabaseHandle } from '../src/db/connection';
import { createSignedInUser, createTestApp, DAY, expectOk, openTestDatabase, type TestApp } from './helpers';
import { createTestBooking, createTestCar } from './helpers/vehicles';

type Signed = Awaited<ReturnType<typeof createSignedInUser>>;

const HEARTBEAT_MS = 300;
let a: TestApp;
let b: TestApp;
let originA: string;
let originB: string;
const buses: CacheBus[] = [];
let host: Signed;
let renter: Signed;
let stranger: Signed;

async function busFor(url: string | undefined, namespace: string): Promise<CacheBus> {
  if (!url) return (buses[0] ??= new LocalCacheBus());
  const bus = new PostgresCacheBus({ url, namespace, log: pino({ level: 'silent' }) });
  expect(await bus.listen()).toBe(true);
  buses.push(bus);
  return bus;
}

let database: DatabaseHandle;

beforeAll(async () => {
  const env = { LIVE_HEARTBEAT_MS: String(HEARTBEAT_MS) };
  // Both apps open the file's one database; it is closed after them.
  database = await openTestDatabase();
  const shared = async () => ({ ...database, close: async () => {} });
  const url = database.kind === 'postgres' ? database.url : undefined;
  const namespace = `live_${process.pid}_${Date.now()}`;
  a = await createTestApp({ env, openDatabase: shared, cacheBus: await busFor(url, namespace) });
  b = await createTestApp({ env, openDatabase: shared, cacheBus: await busFor(url, namespace) });
  originA = await a.app.listen({ port: 0, host: '127.0.0.1' });
  originB = await b.app.listen({ port: 0, host: '127.0.0.1' });
  host = await createSignedInUser(a.app, a.ctx, { role: 'host', verification_status: 'verified' });
  renter = await createSignedInUser(a.app, a.ctx, { verification_status: 'verified' });
  stranger = await createSignedInUser(a.app, a.ctx, { verification_status: 'verified' });
});

afterAll(async () => {
  await b?.close();
  await a?.close();
  for (const bus of buses) await bus.close();
  await database?.close();
});

interface Stream {
  status: number;
  events: EventSourceMessage[];
  comments: number;
  /** Resolves with the first event (already received or to come) that matches; the test's own timeout bounds the wait. */
  next: (match: (event: EventSourceMessage) => boolean) => Promise<EventSourceMessage & { at: number }>;
  ended: Promise<void>;
  close: () => void;
}

/** Opens the person's stream as the browser does (fetch with the bearer token, Last-Event-ID on a reconnect). */
async function openStream(origin: string, who: Signed | null, lastEventId?: string): Promise<Stream> {
  const abort = new AbortController();
  const headers: Record<string, string> = { accept: 'text/event-stream', ...(who ? who.headers : {}), ...(lastEventId ? { 'last-event-id': lastEventId } : {}) };
  const response = await fetch(`${origin}/api/live`, { headers, signal: abort.signal });
  const events: (EventSourceMessage & { at: number })[] = [];
  const waiting: { match: (e: EventSourceMessage) => boolean; resolve: (e: EventSourceMessage & { at: number }) => void }[] = [];
  const stream: Stream = {
    status: response.status,
    events,
    comments: 0,
    next: (match) => {
      const found = events.find(match);
      return found ? Promise.resolve(found) : new Promise((resolve) => waiting.push({ match, resolve }));
    },
    ended: Promise.resolve(),
    close: () => abort.abort(),
  };
  if (response.status !== 200 || !response.body) return stream;
  const reader = response.body
    .pipeThrough(new TextDecoderStream())
    .pipeThrough(new EventSourceParserStream({ onComment: () => void (stream.comments += 1) }))
    .getReader();
  stream.ended = (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        const event = { ...value, at: performance.now() };
        events.push(event);
        for (const w of waiting.splice(0)) {
          if (w.match(event)) w.resolve(event);
          else waiting.push(w);
        }
      }
    } catch {
      // Aborted by the test.
    }
  })();
  await stream.next((e) => e.event === 'ready');
  return stream;
}

const data = (event: EventSourceMessage) => JSON.parse(event.data) as { bookingId: string | null };

async function conversation() {
  const car = await createTestCar(a.ctx, host.user);
  return createTestBooking(a.ctx, car, renter.user, { start: '2030-04-01', days: 2, status: 'confirmed' });
}

const post = (app: TestApp, who: Signed, bookingId: string, body: string) =>
  app.app.inject({ method: 'POST', url: `/api/booking/${bookingId}/messages`, headers: who.headers, payload: { body } });

describe('GET /api/live', () => {
  it('brings a message written through the other instance to the other participant at once, with its notice', async () => {
    const booking = await conversation();
    const stream = await openStream(originA, renter);
    try {
      const sent = performance.now();
      expectOk(await post(b, host, booking.id, 'The car is washed and ready.'), 201);
      const message = await stream.next((e) => e.event === 'message');
      expect(data(message)).toEqual({ bookingId: booking.id });
      // Faster than the polling it replaces (the conversation is fetched again on this event).
      expect(message.at - sent).toBeLessThan(MESSAGE_POLL_MS);
      expect(data(await stream.next((e) => e.event === 'notification'))).toEqual({ bookingId: booking.id });
      // The event names what to fetch, never the message.
      expect(stream.events.map((e) => e.data).join('')).not.toContain('washed');
    } finally {
      stream.close();
    }
  });

  it("never carries another person's events", async () => {
    const booking = await conversation();
    const strangers = await openStream(originA, stranger);
    const renters = await openStream(originB, renter);
    try {
      expectOk(await post(a, host, booking.id, 'Pickup at 09:00?'), 201);
      await renters.next((e) => e.event === 'notification');
      // The stranger's stream was open on the same instance all along: it got its `ready` only.
      await openStream(originA, stranger).then((s) => s.close());
      expect(strangers.events.map((e) => e.event)).toEqual(['ready']);
    } finally {
      strangers.close();
      renters.close();
    }
  });

  it('tells the writer the other party read the message', async () => {
    const booking = await conversation();
    expectOk(await post(a, renter, booking.id, 'Can I collect at 08:00?'), 201);
    const hosts = await openStream(originA, renter);
    try {
      expectOk(await b.app.inject({ method: 'POST', url: `/api/booking/${booking.id}/messages/read`, headers: host.headers }));
      expect(data(await hosts.next((e) => e.event === 'message_read'))).toEqual({ bookingId: booking.id });
      // Reading again changes nothing and says nothing.
      const count = hosts.events.length;
      expectOk(await b.app.inject({ method: 'POST', url: `/api/booking/${booking.id}/messages/read`, headers: host.headers }));
      expectOk(await post(a, host, booking.id, 'Yes, 08:00 is fine.'), 201);
      await hosts.next((e) => e.event === 'notification' && hosts.events.indexOf(e) >= count);
      expect(hosts.events.slice(count).map((e) => e.event)).not.toContain('message_read');
    } finally {
      hosts.close();
    }
  });

  it('replays what a reconnecting stream missed, from its Last-Event-ID', async () => {
    const booking = await conversation();
    const first = await openStream(originA, renter);
    const ready = first.events[0]!;
    first.close();
    await first.ended;
    expectOk(await post(b, host, booking.id, 'First, while you were away.'), 201);
    expectOk(await post(b, host, booking.id, 'Second, while you were away.'), 201);
    const again = await openStream(originA, renter, ready.id);
    try {
      const message = await again.next((e) => e.event === 'message');
      expect(BigInt(message.id!)).toBeGreaterThan(BigInt(ready.id!));
      await again.next((e) => e.event === 'message' && e !== message);
      // Each event once, in order.
      const ids = again.events.slice(1).map((e) => BigInt(e.id!));
      expect([...ids].sort((x, y) => (x < y ? -1 : 1))).toEqual(ids);
      expect(new Set(ids).size).toBe(ids.length);
    } finally {
      again.close();
    }
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)('sends an event whose transaction committed after a later one was sent (ids are given at insert, not at commit)', async () => {
    const booking = await conversation();
    const stream = await openStream(originA, renter);
    // A second connection holds a transaction that has written the renter's event and not committed.
    const other = connectServer({ url: database.url!, ...(database.schema ? { schema: database.schema } : {}), max: 1 });
    try {
      const slow = other.db.transaction().execute(async (trx) => {
        const row = await trx.insertInto('live_events').values({ user_id: renter.user.id, kind: 'notification', booking_id: booking.id, created_at: a.clock.now() }).returning('id').executeTakeFirstOrThrow();
        // Meanwhile a later event is written, committed and sent.
        expectOk(await post(b, host, booking.id, 'Written after, committed first.'), 201);
        await stream.next((e) => e.event === 'message');
        return String(row.id);
      });
      const earlier = await slow;
      await a.ctx.cacheBus.publish('live', { users: [renter.user.id] });
      const late = await stream.next((e) => e.id === earlier);
      expect(late.event).toBe('notification');
      const message = stream.events.find((e) => e.event === 'message')!;
      expect(BigInt(late.id!)).toBeLessThan(BigInt(message.id!));
    } finally {
      stream.close();
      await other.close();
    }
  });

  it('ignores a Last-Event-ID that is not one of ours and starts from now', async () => {
    const stream = await openStream(originA, renter, "1; DROP TABLE live_events");
    try {
      expect(stream.events[0]!.event).toBe('ready');
      expect(stream.events).toHaveLength(1);
    } finally {
      stream.close();
    }
  });

  it('keeps a quiet stream open with heartbeats', async () => {
    const stream = await openStream(originA, stranger);
    try {
      while (stream.comments < 2) await new Promise((resolve) => setTimeout(resolve, HEARTBEAT_MS / 2));
      expect(stream.events.map((e) => e.event)).toEqual(['ready']);
    } finally {
      stream.close();
    }
  });

  it('needs a sign-in', async () => {
    expect((await openStream(originA, null)).status).toBe(401);
  });

  it('keeps what streams were told for a day, then the daily clean-up removes it', async () => {
    const booking = await conversation();
    expectOk(await post(a, host, booking.id, 'Old news soon.'), 201);
    const count = async () => Number((await a.db.selectFrom('live_events').select((eb) => eb.fn.countAll().as('n')).where('booking_id', '=', booking.id).executeTakeFirstOrThrow()).n);
    expect(await count()).toBeGreaterThan(0);
    a.clock.advance(DAY + 1000);
    expect((await pruneOldRecords(a.ctx)).liveEvents).toBeGreaterThan(0);
    expect(await count()).toBe(0);
  });

  it('ends its open streams when the server stops', async () => {
    const extra = await createTestApp({ env: { LIVE_HEARTBEAT_MS: String(HEARTBEAT_MS) }, openDatabase: async () => ({ ...database, close: async () => {} }) });
    const origin = await extra.app.listen({ port: 0, host: '127.0.0.1' });
    const stream = await openStream(origin, renter);
    await extra.close();
    await stream.ended;
    expect(stream.events.map((e) => e.event)).toEqual(['ready']);
  });
});
