// Reminders (issue 37; docs/decisions/084-booking-reminders.md), sent in the app and by email as
// every notice is (notify()), each once: a host who has not answered a request within
// UNANSWERED_AFTER_MS is reminded while it can still be answered; the renter of a paid trip is
// reminded the evening before the pickup (from PICKUP_REMINDER_TIME, Johannesburg) with the exact
// pickup place and the host's number. Each booking is claimed (the reminder's column set) by an
// UPDATE that checks its condition again, in its own transaction with its notice: several
// instances never send one twice, one failing notice holds back no other, and a reminder whose
// moment has passed (the request answered, the trip started) is never sent late.
import { addDays, dateTimeOf, formatMoment } from '@karoo/shared';
import { sql, type RawBuilder } from 'kysely';
import type { AppContext } from '../../context';
import { inTransaction, type Tx } from '../../events/domain-events';
import { NO_PAYLOAD, type JobDefinition } from '../../jobs/queue';
import { carName, MY_BOOKINGS, notify, when } from '../notifications';
import { findUserIn } from '../users';
import { findBookingRecord, type BookingRecord } from './bookings.repository';

declare module '../../jobs/queue' {
  interface JobPayloads {
    'bookings.remind': Record<string, never>;
  }
}

export const REMINDER_CRON = '*/5 * * * *';
/** A request this old and unanswered reminds its host. */
export const UNANSWERED_AFTER_MS = 2 * 60 * 60 * 1000;
/** The evening before a pickup, from this Johannesburg time. */
export const PICKUP_REMINDER_TIME = '18:00';

export interface RemindersSent {
  hosts: number;
  renters: number;
}

type Claim = 'host_reminded_at' | 'pickup_reminded_at';

/**
 * Sends each due reminder in a transaction of its own: the booking is claimed (its column set) by
 * an UPDATE that checks the same condition again, then told. Two instances never send one twice;
 * a notice that fails rolls back its own claim only, and is tried at the next tick.
 */
async function remindEach(ctx: AppContext, column: Claim, due: (now: Date) => RawBuilder<boolean> | null, tell: (tx: Tx, b: BookingRecord) => Promise<void>): Promise<number> {
  const condition = due(ctx.clock.now());
  if (!condition) return 0;
  const candidates = await sql<{ id: string }>`SELECT id FROM bookings WHERE ${sql.ref(column)} IS NULL AND ${condition}`.execute(ctx.db);
  let sent = 0;
  const failures: unknown[] = [];
  for (const { id } of candidates.rows) {
    try {
      const told = await inTransaction(ctx, async (tx) => {
        const still = due(tx.now);
        if (!still) return false;
        const claimed = await sql<{ id: string }>`UPDATE bookings SET ${sql.ref(column)} = ${tx.now} WHERE id = ${id} AND ${sql.ref(column)} IS NULL AND ${still} RETURNING id`.execute(tx.db);
        const b = claimed.rows.length > 0 ? await findBookingRecord(tx.db, id) : undefined;
        if (!b) return false;
        await tell(tx, b);
        return true;
      });
      if (told) sent += 1;
    } catch (error) {
      failures.push(error);
    }
  }
  // The others were sent; the job's retry and dead letter report the ones that were not.
  if (failures.length > 0) throw new AggregateError(failures, `${failures.length} booking reminder(s) could not be sent`);
  return sent;
}

/** Requests still waiting for the host two hours on that can still be answered (not expired, not started). */
const unansweredRequest = (now: Date) =>
  sql<boolean>`status = 'pending' AND created_at <= ${new Date(now.getTime() - UNANSWERED_AFTER_MS)} AND (expires_at IS NULL OR expires_at > ${now}) AND lower(held) > ${now}`;

/** Paid trips whose pickup is tomorrow, once this evening has come (a trip paid later that evening too). */
function pickupTomorrow(now: Date): RawBuilder<boolean> | null {
  const { date: today, time } = dateTimeOf(now.getTime());
  if (time < PICKUP_REMINDER_TIME) return null;
  return sql<boolean>`status = 'active' AND start_date = ${addDays(today, 1)}::date AND lower(held) > ${now}`;
}

export async function sendBookingReminders(ctx: AppContext): Promise<RemindersSent> {
  const hosts = await remindEach(ctx, 'host_reminded_at', unansweredRequest, async (tx, b) => {
    const deadline = b.expires_at ? ` Answer by ${formatMoment(b.expires_at, tx.now)}, or it lapses.` : '';
    await notify(ctx, tx, b.owner_id, {
      type: 'booking_request_reminder',
      title: 'A booking request is waiting for your answer',
      message: `${b.renter_full_name} asked for your ${carName(b)}, ${when(b)}, and has not heard from you yet.${deadline} Accept or decline it on My Bookings.`,
      link: MY_BOOKINGS,
      booking: b,
    });
  });
  const renters = await remindEach(ctx, 'pickup_reminded_at', pickupTomorrow, async (tx, b) => {
    // The trip is paid: the exact place and the host's number are the renter's to know (decision 055).
    const host = await findUserIn(tx.db, b.owner_id);
    const place = b.pickup_option ? `${b.pickup_option.name}, ${b.pickup_option.address}` : b.car_pickup_location;
    const call = host?.phone_number ? `, ${host.phone_number}` : '';
    await notify(ctx, tx, b.renter_id, {
      type: 'pickup_reminder',
      title: `Your trip starts tomorrow at ${b.start_time.slice(0, 5)}`,
      message: `Tomorrow you collect the ${carName(b)} at ${place}. Your host is ${b.owner_full_name}${call}. Record the car's condition at check-in on My Bookings before you drive.`,
      link: MY_BOOKINGS,
      booking: b,
    });
  });
  return { hosts, renters };
}

export const bookingRemindersJob = (ctx: AppContext): JobDefinition<'bookings.remind'> => ({
  name: 'bookings.remind',
  payload: NO_PAYLOAD,
  cron: REMINDER_CRON,
  // The next tick catches up: each reminder is claimed when it is sent.
  retry: { limit: 1, delaySeconds: 30, maxDelaySeconds: 60 },
  timeoutSeconds: 5 * 60,
  pollSeconds: 30,
  run: async (job) => {
    const sent = await sendBookingReminders(ctx);
    if (sent.hosts + sent.renters > 0) job.log.info(sent, 'booking reminders sent');
  },
});
