// The host's calendar (issue 23, decision 047): what holds a car month by month (trips with what
// the host knows of them, blocks with their private notes), blocking days or hours, unblocking, and
// the buffer kept free after every trip. A block goes into car_holds, whose exclusion constraint
// (migration 0028) refuses it over a holding booking or another block, and refuses a booking over
// it, whichever commits first, on any instance. The checks before the insert only choose the words.
import {
  addDays,
  BLOCK_MAX_DAYS_AHEAD,
  BLOCK_MESSAGES,
  blockSpan,
  dateTimeOf,
  momentOf,
  spansOverlap,
  type CalendarHold,
  type CarCalendar,
  type CreateBlockBody,
} from '@karoo/shared';
import { sql } from 'kysely';
import type { AppContext } from '../../context';
import type { UserRow } from '../../db/schema';
import { badRequest, conflict, notFound } from '../../lib/app-error';
import { findCarHolds, type CarHold } from '../availability';
import { findManageableCar, today } from './cars.service';
import { forgetBrowsePages } from './listing-cache';

function isExclusionViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: string }).code === '23P01';
}

const DAY_MS = 86_400_000;

function toCalendarHold(h: CarHold): CalendarHold {
  const from = h.from.getTime();
  const to = h.to.getTime();
  const allDay = dateTimeOf(from).time === '00:00' && dateTimeOf(to).time === '00:00';
  return {
    id: h.id,
    kind: h.kind,
    status: h.status as CalendarHold['status'],
    from: h.from.toISOString(),
    to: h.to.toISOString(),
    start_date: dateTimeOf(from).date,
    end_date: dateTimeOf(to - 1).date,
    all_day: allDay,
    note: h.note,
    booking:
      h.kind === 'booking'
        ? {
            id: h.booking_id!,
            booking_number: h.booking_number ?? '',
            renter_name: h.renter_name ?? '',
            start_date: h.start_date!,
            end_date: h.end_date!,
            start_time: h.start_time!,
            end_time: h.end_time!,
            is_hourly_booking: !!h.is_hourly_booking,
            buffer_minutes: h.buffer_minutes ?? 0,
          }
        : null,
  };
}

/** GET /car/{id}/calendar: the owner's (or an admin's) view of what holds the car from `from` (today) to `to`. */
export async function carCalendar(ctx: AppContext, viewer: UserRow, idOrUsername: string, from?: string, to?: string): Promise<CarCalendar> {
  const car = await findManageableCar(ctx, viewer, idOrUsername);
  const holds = await findCarHolds(ctx.db, car.id, momentOf(from ?? today(ctx), '00:00'), to ? momentOf(addDays(to, 1), '00:00') : undefined);
  return { car_username: car.car_username, buffer_minutes: car.buffer_minutes, holds: holds.map(toCalendarHold) };
}

/** POST /car/{id}/blocks: the host keeps the car for whole days or for some hours, with a private note. */
export async function createBlock(ctx: AppContext, viewer: UserRow, idOrUsername: string, body: CreateBlockBody): Promise<CalendarHold> {
  const car = await findManageableCar(ctx, viewer, idOrUsername);
  const span = blockSpan(body);
  if (!(span.to > span.from)) throw badRequest(BLOCK_MESSAGES.endNotAfterStart, { end_date: BLOCK_MESSAGES.endNotAfterStart });
  const now = ctx.clock.now().getTime();
  if (span.to <= now) throw badRequest(BLOCK_MESSAGES.past, { start_date: BLOCK_MESSAGES.past });
  if (span.from > momentOf(addDays(today(ctx), BLOCK_MAX_DAYS_AHEAD), '00:00')) throw badRequest(BLOCK_MESSAGES.tooFar, { start_date: BLOCK_MESSAGES.tooFar });
  // The words: over a trip, or over another block. The constraint decides.
  const meets = (await findCarHolds(ctx.db, car.id, span.from - DAY_MS, span.to + DAY_MS)).filter((h) =>
    spansOverlap({ from: h.from.getTime(), to: h.to.getTime() }, span),
  );
  if (meets.some((h) => h.kind === 'booking')) throw conflict(BLOCK_MESSAGES.overTrip);
  if (meets.length) throw conflict(BLOCK_MESSAGES.overBlock);
  let id: string;
  try {
    const row = await ctx.db
      .insertInto('car_holds')
      .values({
        car_id: car.id,
        during: sql<string>`tstzrange(${new Date(span.from).toISOString()}::timestamptz, ${new Date(span.to).toISOString()}::timestamptz, '[)')` as unknown as string,
        note: body.note ?? null,
        created_by: viewer.id,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    id = row.id;
  } catch (error) {
    if (isExclusionViolation(error)) throw conflict(BLOCK_MESSAGES.taken);
    throw error;
  }
  await forgetBrowsePages(ctx);
  const created = (await findCarHolds(ctx.db, car.id, span.from, span.to)).find((h) => h.id === id);
  if (!created) throw notFound(BLOCK_MESSAGES.notFound);
  return toCalendarHold(created);
}

/** DELETE /car/{id}/blocks/{blockId}: unblock. Only a block of that car (a trip is not a block: 404). */
export async function deleteBlock(ctx: AppContext, viewer: UserRow, idOrUsername: string, blockId: string): Promise<void> {
  const car = await findManageableCar(ctx, viewer, idOrUsername);
  if (!/^[0-9a-f-]{36}$/i.test(blockId)) throw notFound(BLOCK_MESSAGES.notFound);
  const deleted = await ctx.db.deleteFrom('car_holds').where('id', '=', blockId).where('car_id', '=', car.id).where('booking_id', 'is', null).executeTakeFirst();
  if (!deleted.numDeletedRows) throw notFound(BLOCK_MESSAGES.notFound);
  await forgetBrowsePages(ctx);
}

/** PATCH /car/{id}/buffer: minutes kept free after every trip booked from now on (a trip already booked keeps its own). */
export async function updateBuffer(ctx: AppContext, viewer: UserRow, idOrUsername: string, minutes: number): Promise<{ buffer_minutes: number }> {
  const car = await findManageableCar(ctx, viewer, idOrUsername);
  await ctx.db.updateTable('cars').set({ buffer_minutes: minutes, updated_at: ctx.clock.now() }).where('id', '=', car.id).execute();
  await forgetBrowsePages(ctx);
  return { buffer_minutes: minutes };
}
