// GET /api/live: the signed-in person's stream of server-sent events (issue 37, decision 083),
// through @fastify/sse. It opens with `ready` (its id the newest event the person has), then sends
// each new event as it is recorded: `notification`, `message` (in one of their conversations) and
// `message_read` (the other party read theirs), each with the booking it concerns. A client that
// reconnects with Last-Event-ID gets every event after that one first. The events name what to
// fetch again, never the notice or message itself: the browser reads those through the API, under
// its own access rules. A heartbeat comment every LIVE_HEARTBEAT_MS (20 s) keeps proxies from
// closing a quiet stream; a stream ends after LIVE_STREAM_MAX_MS, so that the browser signs in to
// it again (a session revoked meanwhile is then refused).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context';
import { RESYNC } from '../../lib/cache-bus';
import { currentUser, routesFor } from '../../plugins/auth';
import { fileAnswer } from '../../plugins/openapi';
import { latestLiveEventId, LIVE_LOOKBACK_MS, LIVE_TOPIC, liveEventsAfter } from './live-events';

const tags = ['Notifications'];
/** Events sent per read while catching up. */
const BATCH = 200;
const EVENT_ID = /^\d{1,18}$/;
/** A stream's longest life; the browser reconnects at once with its last event id. */
export const LIVE_STREAM_MAX_MS = 15 * 60_000;
/** After a failed read (the database away), the next try. */
const RETRY_MS = 2_000;

export function liveRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return routesFor('signed-in', async (app) => {
    // Open streams end when the server stops, so a rolling restart does not wait on them (the
    // browser reconnects to another instance with its Last-Event-ID).
    const open = new Set<() => void>();
    let closing = false;
    app.addHook('preClose', async () => {
      closing = true;
      for (const end of [...open]) end();
    });

    app.get(
      '/live',
      {
        sse: { kind: 'only' },
        config: fileAnswer("The person's live events (text/event-stream)", ['text/event-stream']),
        schema: {
          tags,
          summary: 'Own live events (server-sent events)',
          description:
            'A `text/event-stream` of the signed-in person\'s events: `ready` first (id: the newest event), then `notification`, `message` and `message_read`, each `{ "bookingId": … }` with its id. Send `Last-Event-ID` on a reconnect to receive the events missed since. Fetch the notifications or the conversation again on each event. The stream ends after 15 minutes: reconnect with the last id.',
        },
      },
      async (request, reply) => {
        const user = currentUser(request);
        // Gone before we start (the client left during the sign-in check): nothing to hold open.
        const gone = () => closing || reply.raw.destroyed || request.raw.destroyed || !reply.sse.isConnected;
        if (gone()) return;
        const header = reply.sse.lastEventId;
        const asked = header && EVENT_ID.test(header) ? header : null;
        let last = asked ?? (await latestLiveEventId(ctx.db, user.id));
        if (gone()) return;
        reply.header('cache-control', 'no-cache, no-transform');
        // nginx and similar proxies buffer an answer unless told not to.
        reply.header('x-accel-buffering', 'no');
        reply.sse.keepAlive();

        // What was sent in the look-back window (id -> when), so a row seen late is sent once.
        const sent = new Map<string, number>();
        let running = false;
        let again = false;
        let retry: NodeJS.Timeout | undefined;
        const catchUp = async (): Promise<void> => {
          if (running) {
            again = true;
            return;
          }
          running = true;
          try {
            do {
              again = false;
              for (;;) {
                if (gone()) return;
                const now = Date.now();
                for (const [id, at] of sent) if (now - at > LIVE_LOOKBACK_MS) sent.delete(id);
                const events = (await liveEventsAfter(ctx.db, user.id, last, new Date(ctx.clock.now().getTime() - LIVE_LOOKBACK_MS), BATCH)).filter((e) => !sent.has(e.id));
                for (const event of events) {
                  if (gone()) return;
                  await reply.sse.send({ id: event.id, event: event.kind, data: { bookingId: event.bookingId } });
                  sent.set(event.id, now);
                  if (BigInt(event.id) > BigInt(last)) last = event.id;
                }
                if (events.length < BATCH) break;
              }
            } while (again);
          } catch (error) {
            if (gone()) return;
            // The database is away: try again shortly (and on the next announcement).
            request.log.warn({ err: error }, 'live events could not be read');
            retry = setTimeout(() => void catchUp(), RETRY_MS);
          } finally {
            running = false;
            if (again && !gone()) void catchUp();
          }
        };

        const unsubscribe = ctx.cacheBus.subscribe(LIVE_TOPIC, (payload) => {
          const users = (payload as { users?: unknown } | undefined)?.users;
          if (payload === RESYNC || (Array.isArray(users) && users.includes(user.id))) void catchUp();
        });
        const maxLife = setTimeout(() => end(), LIVE_STREAM_MAX_MS);
        let ended = false;
        const end = () => {
          if (ended) return;
          ended = true;
          unsubscribe();
          clearTimeout(maxLife);
          clearTimeout(retry);
          open.delete(end);
          if (reply.sse.isConnected) reply.sse.close();
        };
        open.add(end);
        reply.sse.onClose(end);
        reply.raw.once('close', end);
        if (gone()) return end();
        // The recent rows up to `last` that are visible now count as known (the browser reads
        // everything again on `ready` anyway); the ones a late commit adds below `last` are sent.
        for (const e of await liveEventsAfter(ctx.db, user.id, last, new Date(ctx.clock.now().getTime() - LIVE_LOOKBACK_MS), BATCH)) {
          if (BigInt(e.id) <= BigInt(last)) sent.set(e.id, Date.now());
        }
        if (gone()) return end();
        await reply.sse.send({ id: last, event: 'ready', data: { lastEventId: last } });
        void catchUp();
      },
    );
  });
}
