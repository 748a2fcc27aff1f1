// Domain events: what happened, in the words of the business ("a booking was confirmed", "a car was
// removed"). A service raises them inside the transaction that records the change. What belongs to
// the change (the audit row, the notification and its email in the outbox) is written in that
// transaction by the in-transaction subscribers; once it has committed, the other subscribers react
// (browse caches forget). A change that rolls back raises nothing. Services never clear a cache or
// notify anyone themselves: they say what happened, and the modules that care subscribe.
//
// This file knows no module. Each module declares its own events by adding them to `DomainEvents`
// from its own `<module>.events.ts` (TypeScript declaration merging, the way Fastify's decorators
// are typed), and exports its subscriptions from its entry; the app collects them into one
// `EventBus` when it builds the context (app-context.ts). A new module touches no one else's file.
import type { Db } from '../db/connection';

/** Every event, by type, with its payload: filled in by the modules (see the note above). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the modules merge their events into it
export interface DomainEvents {}

export type DomainEventType = keyof DomainEvents & string;
export type EventOf<T extends DomainEventType> = { type: T } & DomainEvents[T];
export type DomainEvent = { [T in DomainEventType]: EventOf<T> }[DomainEventType];

/** Who made a change (the signed-in person behind the unit of work), for the audit log. */
export interface Actor {
  id: string;
  username: string;
  role: string;
}

/** A unit of work: the transaction's database handle, its clock reading, who acts, and where events go. */
export interface Tx {
  db: Db;
  now: Date;
  /** The signed-in person making the change; null for the system (expiry, a payment, the seed). */
  by: Actor | null;
  /** Announces what happened: the in-transaction subscribers run once `work` is done, the others after the commit. */
  emit(event: DomainEvent): void;
  /**
   * Announces a change whose in-transaction subscribers must act now, before the caller goes on
   * (a car being removed: its bookings are cancelled, or the removal is refused, before the car is
   * marked deleted). The other subscribers still run after the commit.
   */
  dispatch(event: DomainEvent): Promise<void>;
  /** The events raised so far in this unit of work, in order (read-only). */
  readonly events: readonly DomainEvent[];
  /** Runs `effect` once the transaction has committed (never when it rolls back): waking the mail worker. */
  afterCommit(effect: () => void): void;
}

/** The context a subscriber gets: kept structural, so this file needs no module's types. */
export interface EventContext {
  db: Db;
  events: EventBus;
  clock: { now(): Date };
}

export type Subscriber<T extends DomainEventType, C = never> = (ctx: C, event: EventOf<T>) => Promise<void> | void;
/** A reaction that belongs to the change itself and commits (or rolls back) with it: the audit row, a notification and its email. */
export type TransactionalSubscriber<T extends DomainEventType, C = never> = (tx: Tx, event: EventOf<T>, ctx: C) => Promise<void> | void;

/** What one module reacts to: in the change's transaction (`within`), and after its commit (`after`). */
export interface Subscriptions<C> {
  within?: { [T in DomainEventType]?: TransactionalSubscriber<T, C>[] };
  after?: { [T in DomainEventType]?: Subscriber<T, C>[] };
}

type AnyWithin = (tx: Tx, event: DomainEvent, ctx: unknown) => Promise<void> | void;
type AnyAfter = (ctx: unknown, event: DomainEvent) => Promise<void> | void;

/** Every module's subscriptions, by event type, in the order the modules were given. */
export interface EventBus {
  within(type: DomainEventType): readonly AnyWithin[];
  after(type: DomainEventType): readonly AnyAfter[];
}

export function createEventBus<C>(modules: readonly Subscriptions<C>[]): EventBus {
  const within = new Map<string, AnyWithin[]>();
  const after = new Map<string, AnyAfter[]>();
  for (const module of modules) {
    for (const [type, list] of Object.entries(module.within ?? {})) within.set(type, [...(within.get(type) ?? []), ...(list as AnyWithin[])]);
    for (const [type, list] of Object.entries(module.after ?? {})) after.set(type, [...(after.get(type) ?? []), ...(list as AnyAfter[])]);
  }
  return { within: (type) => within.get(type) ?? [], after: (type) => after.get(type) ?? [] };
}

/** Runs subscribers for events that have been committed, in the order they were raised. */
export async function publish(ctx: EventContext, events: readonly DomainEvent[]): Promise<void> {
  for (const event of events) {
    for (const subscriber of ctx.events.after(event.type)) await subscriber(ctx, event);
  }
}

/**
 * Runs `work` in one transaction; the events it raised are published after the commit (none when
 * it throws). The one way services write a change that others react to.
 */
export async function inTransaction<T>(ctx: EventContext, work: (tx: Tx) => Promise<T>, options: { by?: Actor | null } = {}): Promise<T> {
  const events: DomainEvent[] = [];
  const effects: (() => void)[] = [];
  const now = ctx.clock.now();
  const by = options.by ? { id: options.by.id, username: options.by.username, role: options.by.role } : null;
  const result = await ctx.db.transaction().execute(async (trx) => {
    // Events whose in-transaction subscribers have run (dispatched ones run at once).
    const handled = new WeakSet<DomainEvent>();
    const runWithin = async (event: DomainEvent) => {
      handled.add(event);
      for (const subscriber of ctx.events.within(event.type)) await subscriber(tx, event, ctx);
    };
    const tx: Tx = {
      db: trx,
      now,
      by,
      events,
      emit: (event) => void events.push(event),
      dispatch: async (event) => {
        events.push(event);
        await runWithin(event);
      },
      afterCommit: (effect) => void effects.push(effect),
    };
    const value = await work(tx);
    // What belongs to the change itself (the audit row, notifications and their mail) is written
    // before the commit, with it; a subscriber may raise more events, which are handled in turn.
    for (let i = 0; i < events.length; i += 1) {
      const event = events[i]!;
      if (!handled.has(event)) await runWithin(event);
    }
    return value;
  });
  for (const effect of effects) effect();
  await publish(ctx, events);
  return result;
}
