// Live events (issue 37; docs/decisions/083-live-messages-and-notices.md): what a person's open
// stream is told, recorded in the transaction of the change that causes it, and announced to every
// instance after the commit. The announcement names people, not rows (`{ users: [...] }` on the
// cache bus topic 'live', carried between instances by Redis or PostgreSQL LISTEN/NOTIFY): each
// instance with a stream open for one of them reads that person's rows after the last one it sent.
// A row carries only what the browser needs to know what to fetch again (the kind, the booking):
// the browser reads the notice or the message through the API, under its own access rules.
import type { AppContext } from '../../context';
import type { Db } from '../../db/connection';
import type { LiveEventKind } from '../../db/schema';
import type { Tx } from '../../events/domain-events';

export const LIVE_TOPIC = 'live';

export interface LiveEvent {
  /** Increasing per database: the stream's event id, and its Last-Event-ID on a reconnect. */
  id: string;
  kind: LiveEventKind;
  bookingId: string | null;
}

/** Records what `userIds` are told and announces it once the transaction commits. */
export async function recordLiveEvent(ctx: Pick<AppContext, 'cacheBus'>, tx: Tx, userIds: readonly string[], event: { kind: LiveEventKind; bookingId?: string | null }): Promise<void> {
  const users = [...new Set(userIds)];
  if (users.length === 0) return;
  await tx.db
    .insertInto('live_events')
    .values(users.map((user_id) => ({ user_id, kind: event.kind, booking_id: event.bookingId ?? null, created_at: tx.now })))
    .execute();
  tx.afterCommit(() => void ctx.cacheBus.publish(LIVE_TOPIC, { users }));
}

/**
 * The person's events after `afterId`, and those written since `since` (oldest first, at most
 * `limit`). Ids are handed out when a row is written, not when its transaction commits: a row with
 * a lower id can become visible after a higher one was sent, so a stream also looks back over the
 * last moments (LIVE_LOOKBACK_MS) and skips what it already sent.
 */
export async function liveEventsAfter(db: Db, userId: string, afterId: string, since: Date, limit: number): Promise<LiveEvent[]> {
  const rows = await db
    .selectFrom('live_events')
    .select(['id', 'kind', 'booking_id'])
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('id', '>', afterId), eb('created_at', '>=', since)]))
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ id: String(r.id), kind: r.kind, bookingId: r.booking_id }));
}

/** Longer than any transaction that writes an event can stay open (the idle-in-transaction and statement timeouts are seconds). */
export const LIVE_LOOKBACK_MS = 60_000;

/** The id of the person's newest event, or '0': where a new stream starts. */
export async function latestLiveEventId(db: Db, userId: string): Promise<string> {
  const row = await db.selectFrom('live_events').select((eb) => eb.fn.max('id').as('id')).where('user_id', '=', userId).executeTakeFirst();
  return row?.id == null ? '0' : String(row.id);
}

/** A stream that reconnects after a day starts afresh (the browser reads everything again): older rows go. */
export const LIVE_EVENT_RETENTION_MS = 24 * 60 * 60 * 1000;

export async function pruneLiveEvents(db: Db, now: Date): Promise<number> {
  const result = await db.deleteFrom('live_events').where('created_at', '<', new Date(now.getTime() - LIVE_EVENT_RETENTION_MS)).executeTakeFirst();
  return Number(result.numDeletedRows);
}
