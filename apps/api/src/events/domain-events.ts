// Domain events: what happened, in the words of the business ("a booking was confirmed", "a car was
// removed"). A service raises them inside the transaction that records the change. What belongs to
// the change (the audit row, the notification and its email in the outbox) is written in that
// transaction by the in-transaction subscribers; once it has committed, the other subscribers
// listed in subscribers.ts react (browse caches forget). A change that rolls back raises nothing. Services never clear a
// cache or notify anyone themselves: they say what happened, and the list says who cares.
import type { BookingActor } from '@karoo/shared';
import type { AppContext } from '../context';
import type { Db } from '../db/connection';
import type { CancelCauseValue } from '../db/schema';
import type { BookingRecord } from '../modules/bookings/bookings.service';
import { IN_TRANSACTION, SUBSCRIBERS } from './subscribers';

/** Why a booking was cancelled: it decides who is told what, and is stored with it (bookings.cancel_cause). */
export type CancelCause = CancelCauseValue;

/** A car as the notices name it. */
export interface CarRef {
  id: string;
  car_username: string;
  car_make: string;
  car_model: string;
  owner_id: string;
}

/** Who made a change (the signed-in person behind the unit of work), for the audit log. */
export interface Actor {
  id: string;
  username: string;
  role: string;
}

/** A booking a force return ended: what it was and what it became (the audit row names each). */
export interface ForceReturnedBooking {
  id: string;
  booking_number: string;
  before: Record<string, unknown>;
  after: Record<string, unknown>;
}

/** A user as the audit log names them. */
export interface UserRef {
  id: string;
  username: string;
}

export type DomainEvent =
  | { type: 'booking.requested'; booking: BookingRecord }
  | { type: 'booking.confirmed'; booking: BookingRecord; by: BookingActor | 'instant' }
  | { type: 'booking.rejected'; booking: BookingRecord; response: string | null }
  | { type: 'booking.cancelled'; booking: BookingRecord; cause: CancelCause; reason: string | null }
  | { type: 'booking.paid'; booking: BookingRecord }
  | { type: 'booking.completed'; booking: BookingRecord; forcedReason: string | null; forced: boolean }
  /** A successful charge that cannot stay on its booking is being refunded in full (modules/payments). */
  | { type: 'payment.refund_due'; booking: BookingRecord; reference: string; amountCents: number; reason: string }
  | { type: 'car.changed'; car: CarRef; before?: Record<string, unknown>; after?: Record<string, unknown> }
  | { type: 'car.removed'; car: CarRef; cancelledBookings: number }
  | { type: 'car.verified'; car: CarRef; before: string }
  | { type: 'car.rejected'; car: CarRef; notes: string; before: string }
  | { type: 'car.registration_verified'; car: CarRef }
  | { type: 'car.registration_rejected'; car: CarRef; notes: string | null }
  /** Each booking the force return ended, with its state before and after. */
  | { type: 'car.force_returned'; car: CarRef; reason: string | null; affected: number; bookings: ForceReturnedBooking[] }
  | { type: 'review.created'; car: CarRef; reviewerName: string; rating: number; comment: string }
  | { type: 'review.changed'; carId: string }
  | { type: 'user.verified'; user: UserRef; before: string }
  | { type: 'user.rejected'; user: UserRef; notes: string | null; before: string }
  | { type: 'user.created'; user: UserRef; after: Record<string, unknown> }
  | { type: 'user.updated'; user: UserRef; before: Record<string, unknown>; after: Record<string, unknown> }
  | { type: 'user.deleted'; user: UserRef; before: Record<string, unknown> }
  /** Someone asked for a sign-in link in this account's name (modules/users); `url` carries the one-time token. */
  | { type: 'user.sign_in_link_requested'; user: { id: string; email: string; full_name: string }; url: string }
  | { type: 'settings.changed'; before: Record<string, unknown>; after: Record<string, unknown> }
  | { type: 'payout.updated'; bookingId: string; bookingNumber: string; before: Record<string, unknown>; after: Record<string, unknown> }
  /** A paid payout taken back by an administrator, with why (modules/earnings). */
  | { type: 'payout.reversed'; bookingId: string; bookingNumber: string; before: Record<string, unknown>; after: Record<string, unknown>; reason: string };

export type DomainEventType = DomainEvent['type'];
export type EventOf<T extends DomainEventType> = Extract<DomainEvent, { type: T }>;
export type Subscriber<T extends DomainEventType> = (ctx: AppContext, event: EventOf<T>) => Promise<void> | void;
/** A reaction that belongs to the change itself and commits (or rolls back) with it: the audit row, a notification and its email. */
export type TransactionalSubscriber<T extends DomainEventType> = (tx: Tx, event: EventOf<T>, ctx: AppContext) => Promise<void> | void;

/** A unit of work: the transaction's database handle, its clock reading, who acts, and where events go. */
export interface Tx {
  db: Db;
  now: Date;
  /** The signed-in person making the change; null for the system (expiry, a payment, the seed). */
  by: Actor | null;
  emit(event: DomainEvent): void;
  /** Runs `effect` once the transaction has committed (never when it rolls back): waking the mail worker. */
  afterCommit(effect: () => void): void;
}

/** Runs subscribers for events that have been committed, in the order they were raised. */
export async function publish(ctx: AppContext, events: readonly DomainEvent[]): Promise<void> {
  for (const event of events) {
    const subscribers = (SUBSCRIBERS[event.type] ?? []) as Subscriber<typeof event.type>[];
    for (const subscriber of subscribers) await subscriber(ctx, event as never);
  }
}

/**
 * Runs `work` in one transaction; the events it raised are published after the commit (none when
 * it throws). The one way services write a change that others react to.
 */
export async function inTransaction<T>(ctx: AppContext, work: (tx: Tx) => Promise<T>, options: { by?: Actor | null } = {}): Promise<T> {
  const events: DomainEvent[] = [];
  const effects: (() => void)[] = [];
  const now = ctx.clock.now();
  const by = options.by ? { id: options.by.id, username: options.by.username, role: options.by.role } : null;
  const result = await ctx.db.transaction().execute(async (trx) => {
    const tx: Tx = { db: trx, now, by, emit: (event) => events.push(event), afterCommit: (effect) => effects.push(effect) };
    const value = await work(tx);
    // What belongs to the change itself (the audit row, notifications and their mail) is written
    // before the commit, with it.
    for (const event of events) {
      const subscribers = (IN_TRANSACTION[event.type] ?? []) as TransactionalSubscriber<typeof event.type>[];
      for (const subscriber of subscribers) await subscriber(tx, event as never, ctx);
    }
    return value;
  });
  for (const effect of effects) effect();
  await publish(ctx, events);
  return result;
}
