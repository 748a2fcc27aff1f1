// Traffic fines under AARTO (issue 34; docs/decisions/066-traffic-fines-aarto.md).
// - The host (or an admin) enters a fine from its infringement notice (AARTO 03): plate, date and
//   time, place, amount, notice number, the day it was served, and a photo or PDF of it (checked by
//   content as every private document is, into the private store).
// - Karoo finds the trip that had the car at that moment: from the first check-in record to the last
//   check-out record when they exist, else the booking's own start and end, both ends included. The
//   renter of that trip is told at once. A moment no trip covers is said so, with the nearest trips
//   before and after it.
// - For a fine inside a trip, the host downloads the nomination of the driver (AARTO 07) pre-filled
//   from the renter's profile at that moment (never copied into the fine's row), to sign and submit
//   within 32 days of the service; each fine entered and each nomination made is an audit row,
//   whoever acts (POPIA: the renter's ID and licence numbers leave Karoo only this way).
// - The state: open, nominated, paid by the renter or the host, disputed by the renter, withdrawn;
//   the host is reminded a week before the deadline (remindFineDeadlines, the traffic-fines.remind job).
// Another user's fine is 404; the renter sees the fines of their trips but not the nomination.
import { randomBytes } from 'node:crypto';
import {
  daysToNominate,
  FINE_REMINDER_DAYS,
  FINE_STATUS_LABELS,
  FINE_TRANSITIONS,
  isAdmin,
  localInstant,
  nominationDeadline,
  normalisePlate,
  RENTER_FINE_STATUSES,
  todayIn,
  addDays,
  type CreateFineBody,
  type FineStatus,
  type TrafficFine,
  type UpdateFineStatusBody,
} from '@karoo/shared';
import { sql, type Selectable } from 'kysely';
import type { AppContext } from '../../context';
import type { UserRow } from '../../db/schema';
import { inTransaction } from '../../events/domain-events';
import { badRequest, conflict, forbidden, notFound } from '../../lib/app-error';
import { prepareDocument, type UploadedFile } from '../../lib/uploads';
import { findVisibleBooking } from '../bookings';
import type { TrafficFinesTable } from './traffic-fines.tables';

export type FineRow = Selectable<TrafficFinesTable>;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const FINE_NOT_FOUND = 'Fine not found';
/** The statuses of a booking whose car was handed over (a trip under way or done). */
const HANDED_OVER = ['active', 'completed'] as const;

/** A trip's span: when the renter had the car. */
export interface TripSpan {
  bookingId: string;
  bookingNumber: string;
  renterId: string;
  from: Date;
  to: Date;
}

export interface FineMatch {
  trip: TripSpan | null;
  before: TripSpan | null;
  after: TripSpan | null;
}

/** The spans of a car's handed-over trips: the first check-in to the last check-out record, else the booking's start and end. */
async function tripSpansOf(ctx: AppContext, carId: string): Promise<TripSpan[]> {
  const bookings = await ctx.db
    .selectFrom('bookings')
    .select(['id', 'booking_number', 'renter_id', 'start_date', 'start_time', 'end_date', 'end_time'])
    .where('car_id', '=', carId)
    .where('status', 'in', HANDED_OVER)
    .execute();
  if (bookings.length === 0) return [];
  const records = await ctx.db
    .selectFrom('trip_records')
    .select(['booking_id', 'stage', sql<Date>`min(created_at)`.as('first'), sql<Date>`max(created_at)`.as('last')])
    .where('booking_id', 'in', bookings.map((b) => b.id))
    .groupBy(['booking_id', 'stage'])
    .execute();
  return bookings.map((b) => {
    const checkIn = records.find((r) => r.booking_id === b.id && r.stage === 'check_in');
    const checkOut = records.find((r) => r.booking_id === b.id && r.stage === 'check_out');
    return {
      bookingId: b.id,
      bookingNumber: b.booking_number,
      renterId: b.renter_id,
      from: checkIn ? new Date(checkIn.first) : localInstant(b.start_date, b.start_time ?? '00:00'),
      to: checkOut ? new Date(checkOut.last) : localInstant(b.end_date, b.end_time ?? '23:59'),
    };
  });
}

/** The trip that had the car at `at` (both ends included; the later start when two overlap), or the nearest before and after. */
export function matchSpans(spans: readonly TripSpan[], at: Date): FineMatch {
  const t = at.getTime();
  const inside = spans.filter((s) => s.from.getTime() <= t && t <= s.to.getTime()).sort((a, b) => b.from.getTime() - a.from.getTime());
  if (inside[0]) return { trip: inside[0], before: null, after: null };
  const before = spans.filter((s) => s.to.getTime() < t).sort((a, b) => b.to.getTime() - a.to.getTime())[0] ?? null;
  const after = spans.filter((s) => s.from.getTime() > t).sort((a, b) => a.from.getTime() - b.from.getTime())[0] ?? null;
  return { trip: null, before, after };
}

export async function matchFine(ctx: AppContext, carId: string, at: Date): Promise<FineMatch> {
  return matchSpans(await tripSpansOf(ctx, carId), at);
}

/** The car a plate names: the host's own (deleted ones too: fines come weeks later), or any for an admin; the newest first. */
async function carOfPlate(ctx: AppContext, viewer: UserRow, plate: string) {
  let query = ctx.db
    .selectFrom('cars')
    .select(['id', 'owner_id', 'car_make', 'car_model', 'car_plate_number'])
    .where(sql<string>`upper(regexp_replace(car_plate_number, '[^A-Za-z0-9]', '', 'g'))`, '=', normalisePlate(plate))
    .orderBy('created_at', 'desc');
  if (!isAdmin(viewer)) query = query.where('owner_id', '=', viewer.id);
  return query.executeTakeFirst();
}

const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === '23505';

/** POST /fines: the host (or an admin) enters a fine with its notice; matched to the trip at that moment, whose renter is told. */
export async function createFine(ctx: AppContext, viewer: UserRow, body: CreateFineBody, notice: UploadedFile | undefined): Promise<string> {
  if (viewer.role !== 'host' && !isAdmin(viewer)) throw forbidden('Only the car’s host or Karoo can enter a traffic fine.');
  const car = await carOfPlate(ctx, viewer, body.plate);
  if (!car) throw badRequest(`None of ${isAdmin(viewer) ? 'the' : 'your'} cars has the plate ${body.plate}.`, { plate: 'No car with this plate' });
  const now = ctx.clock.now();
  const occurredAt = localInstant(body.date, body.time);
  if (occurredAt.getTime() > now.getTime()) throw badRequest('The infringement cannot be in the future.', { date: 'In the future' });
  const today = todayIn(now);
  if (body.served_on < body.date) throw badRequest('The notice cannot have been served before the infringement.', { served_on: 'Before the infringement' });
  if (body.served_on > today) throw badRequest('The notice cannot have been served in the future.', { served_on: 'In the future' });
  if (!notice || notice.buffer.length === 0) throw badRequest('Add a photo or PDF of the infringement notice.', { notice: 'The notice is required' });
  const prepared = await prepareDocument(notice, 'notice');
  const match = await matchFine(ctx, car.id, occurredAt);
  const key = `fines/${car.id}/${randomBytes(12).toString('hex')}.${prepared.ext}`;
  await ctx.privateFiles.put(key, prepared.data);
  try {
    return await inTransaction(ctx, async (tx) => {
      const row = await tx.db
        .insertInto('traffic_fines')
        .values({
          car_id: car.id,
          host_id: car.owner_id,
          booking_id: match.trip?.bookingId ?? null,
          renter_id: match.trip?.renterId ?? null,
          plate: body.plate.trim().toUpperCase(),
          occurred_at: occurredAt,
          place: body.place.trim(),
          amount_cents: Math.round(body.amount * 100),
          notice_number: body.notice_number.trim().toUpperCase(),
          served_on: body.served_on,
          nominate_by: nominationDeadline(body.served_on),
          notice_storage_key: key,
          notice_mime: prepared.mime,
          entered_by: viewer.id,
          created_at: tx.now,
          updated_at: tx.now,
        })
        .returning(['id', 'nominate_by', 'amount_cents', 'notice_number'])
        .executeTakeFirstOrThrow();
      tx.emit({
        type: 'trip.fine_recorded',
        fine: { id: row.id, car_id: car.id, host_id: car.owner_id, booking_id: match.trip?.bookingId ?? null, booking_number: match.trip?.bookingNumber ?? null, renter_id: match.trip?.renterId ?? null, notice_number: row.notice_number, amount_cents: row.amount_cents, nominate_by: row.nominate_by, car_name: `${car.car_make} ${car.car_model}` },
      });
      return row.id;
    }, { by: viewer });
  } catch (error) {
    await ctx.privateFiles.remove(key).catch(() => undefined);
    if (isUniqueViolation(error)) throw conflict(`A fine with notice number ${body.notice_number.trim().toUpperCase()} was already entered.`, { notice_number: 'Already entered' });
    throw error;
  }
}

/** The fine if the viewer may see it (its host, the renter it was matched to, admins); otherwise 404. */
async function findVisibleFine(ctx: AppContext, viewer: UserRow, fineId: string): Promise<FineRow> {
  const fine = UUID.test(fineId) ? await ctx.db.selectFrom('traffic_fines').selectAll().where('id', '=', fineId).executeTakeFirst() : undefined;
  if (!fine || (fine.host_id !== viewer.id && fine.renter_id !== viewer.id && !isAdmin(viewer))) throw notFound(FINE_NOT_FOUND);
  return fine;
}

/** PATCH /fines/{id}/status: the host or an admin records the nomination, a payment or a withdrawal; the renter that they paid or dispute it. */
export async function updateFineStatus(ctx: AppContext, viewer: UserRow, fineId: string, body: UpdateFineStatusBody): Promise<void> {
  const fine = await findVisibleFine(ctx, viewer, fineId);
  const asRenter = fine.renter_id === viewer.id && fine.host_id !== viewer.id && !isAdmin(viewer);
  if (asRenter && !RENTER_FINE_STATUSES.includes(body.status)) throw forbidden('The renter can say they paid the fine, or dispute it.');
  if (body.status === 'nominated' && !fine.booking_id) throw conflict('This fine falls outside every trip: there is no driver to nominate.');
  if (body.status === 'disputed' && body.note.trim().length < 10) throw badRequest('Say why in at least 10 characters.', { note: 'At least 10 characters' });
  if (!FINE_TRANSITIONS[fine.status].includes(body.status)) throw conflict(`A fine that is ${FINE_STATUS_LABELS[fine.status].toLowerCase()} cannot become ${FINE_STATUS_LABELS[body.status].toLowerCase()}.`);
  await inTransaction(ctx, async (tx) => {
    const updated = await tx.db
      .updateTable('traffic_fines')
      .set({ status: body.status, status_note: body.note.trim() || null, updated_at: tx.now })
      .where('id', '=', fine.id)
      .where('status', '=', fine.status)
      .returning('id')
      .executeTakeFirst();
    if (!updated) throw conflict('The fine changed meanwhile; look again.');
    tx.emit({ type: 'trip.fine_status_changed', fine: refOf(fine), before: fine.status, after: body.status, note: body.note.trim() || null, byRenter: asRenter });
  }, { by: viewer });
}

function refOf(fine: FineRow) {
  return { id: fine.id, car_id: fine.car_id, host_id: fine.host_id, booking_id: fine.booking_id, booking_number: null as string | null, renter_id: fine.renter_id, notice_number: fine.notice_number, amount_cents: fine.amount_cents, nominate_by: fine.nominate_by, car_name: '' };
}

/** The host is reminded once when an open fine's deadline is a week away or less (the traffic-fines.remind job; tests call it). */
export async function remindFineDeadlines(ctx: AppContext): Promise<number> {
  const now = ctx.clock.now();
  const horizon = addDays(todayIn(now), FINE_REMINDER_DAYS);
  const due = await ctx.db
    .selectFrom('traffic_fines')
    .select('id')
    .where('status', 'in', ['open', 'disputed'])
    .where('reminded_at', 'is', null)
    .where('nominate_by', '<=', horizon)
    .where('nominate_by', '>=', todayIn(now))
    .orderBy('nominate_by')
    .limit(500)
    .execute();
  let reminded = 0;
  for (const { id } of due) {
    const sent = await inTransaction(ctx, async (tx) => {
      const fine = await tx.db.updateTable('traffic_fines').set({ reminded_at: tx.now }).where('id', '=', id).where('reminded_at', 'is', null).returningAll().executeTakeFirst();
      if (!fine) return false;
      tx.emit({ type: 'trip.fine_deadline_near', fine: refOf(fine), daysLeft: daysToNominate(fine.served_on, todayIn(tx.now)) });
      return true;
    });
    if (sent) reminded += 1;
  }
  return reminded;
}

// ---- Reading ----

const spanView = (s: TripSpan | null) => (s ? { booking_id: s.bookingId, booking_number: s.bookingNumber, from: s.from.toISOString(), to: s.to.toISOString() } : null);

async function toViews(ctx: AppContext, viewer: UserRow, fines: readonly FineRow[]): Promise<TrafficFine[]> {
  if (fines.length === 0) return [];
  const cars = await ctx.db.selectFrom('cars').select(['id', 'car_make', 'car_model', 'car_plate_number']).where('id', 'in', [...new Set(fines.map((f) => f.car_id))]).execute();
  const today = todayIn(ctx.clock.now());
  const spans = new Map<string, TripSpan[]>();
  const views: TrafficFine[] = [];
  for (const f of fines) {
    if (!spans.has(f.car_id)) spans.set(f.car_id, await tripSpansOf(ctx, f.car_id));
    const carSpans = spans.get(f.car_id)!;
    const match = f.booking_id ? { trip: carSpans.find((s) => s.bookingId === f.booking_id) ?? null, before: null, after: null } : matchSpans(carSpans, new Date(f.occurred_at));
    const car = cars.find((c) => c.id === f.car_id)!;
    const mayNominate = (f.host_id === viewer.id || isAdmin(viewer)) && f.booking_id !== null;
    views.push({
      id: f.id,
      car: { id: car.id, name: `${car.car_make} ${car.car_model}`, plate: car.car_plate_number },
      plate: f.plate,
      occurred_at: new Date(f.occurred_at).toISOString(),
      place: f.place,
      amount: f.amount_cents / 100,
      notice_number: f.notice_number,
      served_on: f.served_on,
      nominate_by: f.nominate_by,
      days_left: daysToNominate(f.served_on, today),
      status: f.status,
      status_label: FINE_STATUS_LABELS[f.status],
      status_note: f.status_note,
      // The renter never learns of other trips: the nearest ones are the host's to see.
      trip: spanView(match.trip),
      nearest: f.renter_id === viewer.id && f.host_id !== viewer.id ? { before: null, after: null } : { before: spanView(match.before), after: spanView(match.after) },
      nomination_url: mayNominate ? `/api/fines/${f.id}/nomination.pdf` : null,
      notice_url: `/api/fines/${f.id}/notice`,
      created_at: new Date(f.created_at).toISOString(),
    });
  }
  return views;
}

export async function fineView(ctx: AppContext, viewer: UserRow, fineId: string): Promise<TrafficFine> {
  const [view] = await toViews(ctx, viewer, [await findVisibleFine(ctx, viewer, fineId)]);
  return view!;
}

/** GET /booking/{id}/fines: the fines matched to a trip (its host, its renter, admins). */
export async function bookingFines(ctx: AppContext, viewer: UserRow, bookingId: string): Promise<TrafficFine[]> {
  const booking = await findVisibleBooking(ctx, viewer, bookingId);
  const rows = await ctx.db.selectFrom('traffic_fines').selectAll().where('booking_id', '=', booking.id).orderBy('occurred_at').execute();
  return toViews(ctx, viewer, rows);
}

/** GET /fines: the host's fines, newest first; GET /admin/fines: every fine (in a state). */
export async function listFines(ctx: AppContext, viewer: UserRow, filter: { status?: FineStatus | undefined; all?: boolean }): Promise<TrafficFine[]> {
  let query = ctx.db.selectFrom('traffic_fines').selectAll().orderBy('created_at', 'desc').limit(200);
  if (!filter.all) query = query.where('host_id', '=', viewer.id);
  if (filter.status) query = query.where('status', '=', filter.status);
  return toViews(ctx, viewer, await query.execute());
}

/** GET /fines/{id}/notice: the notice's photo or PDF (its host, its renter, admins). */
export async function readNotice(ctx: AppContext, viewer: UserRow, fineId: string): Promise<{ data: Buffer; mime: string; ext: string }> {
  const fine = await findVisibleFine(ctx, viewer, fineId);
  const data = await ctx.privateFiles.read(fine.notice_storage_key);
  if (!data) throw notFound('Notice not found');
  return { data, mime: fine.notice_mime, ext: fine.notice_mime === 'application/pdf' ? 'pdf' : fine.notice_mime === 'image/png' ? 'png' : 'jpg' };
}

/** What the nomination needs: the fine, the car, the nominating owner and the driver (the renter of the trip it fell in). */
export interface NominationFacts {
  fine: FineRow;
  car: { make: string; model: string; year: number; color: string; plate: string };
  trip: TripSpan;
  owner: { full_name: string; id_number: string | null; address: string | null };
  driver: { full_name: string; id_number: string | null; driver_licence_number: string | null; address: string | null };
}

/**
 * The facts of a nomination, for its host or an admin only, and only for a fine inside a trip; the
 * making is audited in its own transaction before the document leaves (POPIA s. 11 and 10).
 */
export async function nominationFacts(ctx: AppContext, viewer: UserRow, fineId: string): Promise<NominationFacts> {
  const fine = await findVisibleFine(ctx, viewer, fineId);
  if (fine.host_id !== viewer.id && !isAdmin(viewer)) throw forbidden('Only the host signs the nomination of the driver.');
  if (!fine.booking_id || !fine.renter_id) throw conflict('This fine falls outside every trip: there is no driver to nominate. Pay it or make representations yourself.');
  const trip = (await tripSpansOf(ctx, fine.car_id)).find((s) => s.bookingId === fine.booking_id);
  if (!trip) throw conflict('The trip of this fine is no longer a completed trip: there is no driver to nominate.');
  // Least data: the four particulars the form asks of each person, nothing else (no phone, email or bank).
  const person = (id: string) => ctx.db.selectFrom('users').select(['full_name', 'id_number', 'driver_licence_number', 'address']).where('id', '=', id).executeTakeFirstOrThrow();
  const [owner, driver, car] = await Promise.all([
    person(fine.host_id),
    person(fine.renter_id),
    ctx.db.selectFrom('cars').select(['car_make', 'car_model', 'car_year', 'car_color', 'car_plate_number']).where('id', '=', fine.car_id).executeTakeFirstOrThrow(),
  ]);
  await inTransaction(ctx, async (tx) => {
    tx.emit({ type: 'trip.fine_nomination_issued', fine: { ...refOf(fine), booking_number: trip.bookingNumber }, fields: ['full_name', 'id_number', 'driver_licence_number', 'address'] });
  }, { by: viewer });
  return {
    fine,
    car: { make: car.car_make, model: car.car_model, year: car.car_year, color: car.car_color, plate: car.car_plate_number },
    trip,
    owner,
    driver,
  };
}
