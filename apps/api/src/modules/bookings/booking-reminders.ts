// Reminders (issue 37; docs/decisions/084-booking-reminders.md), sent in the app and by email as
// every notice is (notify()), each once: a host who has not answered a request within
// UNANSWERED_AFTER_MS is reminded while it can still be answered; the renter of a paid trip is
// reminded the evening before the pickup (from PICKUP_REMINDER_TIME, Johannesburg) with the exact
// pickup place and the host's number. The job claims each booking in the UPDATE that finds it (the
// reminder's column set there), so several instances never send one twice, and a reminder whose
// moment has passed (the request answered, the trip started) is never sent late.
import { addDays, dateTimeOf, formatDay, momentOf } from '@karoo/shared';
import { sql } from 'kysely';
import type { AppContext } from '../../context';
import { inTransaction } from '../../events/domain-events';
import { NO_PAYLOAD, type JobDefinition } from '../../jobs/queue';
import { carName, MY_BOOKINGS, notify, when } from '../notifications';
import { findBookingRecord } from './bookings.repository';

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

export async function sendBookingReminders(ctx: AppContext): Promise<RemindersSent> {
  return inTransaction(ctx, async (tx) => {
    const now = tx.now;
    // Requests still waiting for the host that can still be answered (not expired, not started).
    const unanswered = await sql<{ id: string }>`
      UPDATE bookings SET host_reminded_at = ${now}
      WHERE status = 'pending' AND host_reminded_at IS NULL AND created_at <= ${new Date(now.getTime() - UNANSWERED_AFTER_MS)}
        AND (expires_at IS NULL OR expires_at > ${now}) AND lower(held) > ${now}
      RETURNING id`.execute(tx.db);
    for (const { id } of unanswered.rows) {
      const b = await findBookingRecord(tx.db, id);
      if (!b) continue;
      const deadline = b.expires_at ? ` Answer by ${formatDay(dateTimeOf(b.expires_at.getTime()).date)} ${dateTimeOf(b.expires_at.getTime()).time}, or it lapses.` : '';
      await notify(ctx, tx, b.owner_id, {
        type: 'booking_request_reminder',
        title: 'A booking request is waiting for your answer',
        message: `${b.renter_full_name} asked for your ${carName(b)}, ${when(b)}, and has not heard from you yet.${deadline} Accept or decline it on My Bookings.`,
        link: MY_BOOKINGS,
        booking: b,
      });
    }

    // Paid trips whose pickup is tomorrow, once this evening has come (or a trip paid later the
    // same evening): the renter gets the place and the host's number.
    const { date: today, time } = dateTimeOf(now.getTime());
    const pickups =
      time >= PICKUP_REMINDER_TIME
        ? await sql<{ id: string }>`
            UPDATE bookings SET pickup_reminded_at = ${now}
            WHERE status = 'active' AND pickup_reminded_at IS NULL AND start_date = ${addDays(today, 1)}::date AND lower(held) > ${now}
            RETURNING id`.execute(tx.db)
        : { rows: [] };
    for (const { id } of pickups.rows) {
      const b = await findBookingRecord(tx.db, id);
      if (!b) continue;
      const host = await tx.db.selectFrom('users').select(['full_name', 'phone_number']).where('id', '=', b.owner_id).executeTakeFirst();
      const place = b.pickup_option ? `${b.pickup_option.name}, ${b.pickup_option.address}` : b.car_pickup_location;
      const call = host?.phone_number ? `, ${host.phone_number}` : '';
      const startsAt = new Date(momentOf(b.start_date, b.start_time.slice(0, 5)));
      await notify(ctx, tx, b.renter_id, {
        type: 'pickup_reminder',
        title: `Your trip starts tomorrow at ${dateTimeOf(startsAt.getTime()).time}`,
        message: `Tomorrow you collect the ${carName(b)} at ${place}. Your host is ${host?.full_name ?? b.owner_full_name}${call}. Record the car's condition at check-in on My Bookings before you drive.`,
        link: MY_BOOKINGS,
        booking: b,
      });
    }
    return { hosts: unanswered.rows.length, renters: pickups.rows.length };
  });
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
