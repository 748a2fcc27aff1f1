// SQL for bookings: the booking with its car, renter and owner, and the status changes other
// modules make (a car's return, a force return, a car's removal).
import { sql, type Updateable } from 'kysely';
import { PAID_TRIP_STATUSES } from '@karoo/shared';
import type { Db } from '../../db/connection';
import type { BookingRow, BookingsTable, BookingStatusValue, NewBooking, StoredSpecifications } from '../../db/schema';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface BookingRecord extends BookingRow {
  car_username: string;
  car_make: string;
  car_model: string;
  car_year: number;
  car_color: string;
  car_type: string;
  car_plate_number: string;
  car_images: string[];
  car_pickup_location: string;
  car_specifications: StoredSpecifications;
  renter_username: string;
  renter_full_name: string;
  owner_username: string;
  owner_full_name: string;
}

function selectBookingRecords(db: Db) {
  return db
    .selectFrom('bookings as b')
    .innerJoin('cars as c', 'c.id', 'b.car_id')
    .innerJoin('users as r', 'r.id', 'b.renter_id')
    .innerJoin('users as o', 'o.id', 'b.owner_id')
    .selectAll('b')
    .select([
      'c.car_username',
      'c.car_make',
      'c.car_model',
      'c.car_year',
      'c.car_color',
      'c.car_type',
      'c.car_plate_number',
      'c.images as car_images',
      'c.pickup_location as car_pickup_location',
      'c.specifications as car_specifications',
      'r.username as renter_username',
      'r.full_name as renter_full_name',
      'o.username as owner_username',
      'o.full_name as owner_full_name',
    ]);
}

/** A booking by id or booking number. */
export function findBookingRecord(db: Db, idOrNumber: string): Promise<BookingRecord | undefined> {
  const value = idOrNumber.trim();
  return selectBookingRecords(db)
    .where((eb) => (UUID.test(value) ? eb('b.id', '=', value) : eb('b.booking_number', '=', value.toUpperCase())))
    .executeTakeFirst();
}

export function insertBooking(db: Db, booking: NewBooking): Promise<BookingRow> {
  return db.insertInto('bookings').values(booking).returningAll().executeTakeFirstOrThrow();
}

/** Unpaid bookings in the given statuses of a car, or of a renter (the ones a removal cancels). */
export function findUnpaidBookings(db: Db, of: { carId: string } | { renterId: string }, statuses: readonly BookingStatusValue[]): Promise<BookingRow[]> {
  return db
    .selectFrom('bookings')
    .selectAll()
    .where('carId' in of ? 'car_id' : 'renter_id', '=', 'carId' in of ? of.carId : of.renterId)
    .where('status', 'in', [...statuses])
    .where('payment_status', '=', 'unpaid')
    .orderBy('start_date')
    .execute();
}

export function countBookingsByStatus(db: Db, carId: string, statuses: BookingStatusValue[]) {
  return db
    .selectFrom('bookings')
    .select(sql<number>`count(*)`.as('count'))
    .where('car_id', '=', carId)
    .where('status', 'in', statuses)
    .executeTakeFirstOrThrow()
    .then((r) => Number(r.count));
}

/** Whose bookings: where this user is the renter or the owner, only the owner, only the renter; all when empty (admins). */
export interface BookingScope {
  participantId?: string;
  renterId?: string;
  ownerId?: string;
}

export interface BookingListFilters extends BookingScope {
  status?: BookingStatusValue;
  carUsername?: string;
}

export function listBookingRecords(db: Db, filters: BookingListFilters): Promise<BookingRecord[]> {
  let query = selectBookingRecords(db);
  const { participantId, renterId, ownerId, status, carUsername } = filters;
  if (participantId) query = query.where((eb) => eb.or([eb('b.renter_id', '=', participantId), eb('b.owner_id', '=', participantId)]));
  if (renterId) query = query.where('b.renter_id', '=', renterId);
  if (ownerId) query = query.where('b.owner_id', '=', ownerId);
  if (status) query = query.where('b.status', '=', status);
  if (carUsername) query = query.where(sql<string>`lower(c.car_username)`, '=', carUsername.toLowerCase());
  return query.orderBy('b.created_at', 'desc').orderBy('b.id').limit(500).execute();
}

export interface BookingPageFilters extends BookingListFilters {
  /** Booking number, car username/make/model, renter username/full name; case-insensitive. */
  search?: string;
  page: number;
  limit: number;
}

const escapeLike = (text: string) => text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);

function filteredBookings(db: Db, filters: Omit<BookingPageFilters, 'page' | 'limit'>) {
  let query = db
    .selectFrom('bookings as b')
    .innerJoin('cars as c', 'c.id', 'b.car_id')
    .innerJoin('users as r', 'r.id', 'b.renter_id');
  const { participantId, renterId, ownerId, status, carUsername, search } = filters;
  if (participantId) query = query.where((eb) => eb.or([eb('b.renter_id', '=', participantId), eb('b.owner_id', '=', participantId)]));
  if (renterId) query = query.where('b.renter_id', '=', renterId);
  if (ownerId) query = query.where('b.owner_id', '=', ownerId);
  if (status) query = query.where('b.status', '=', status);
  if (carUsername) query = query.where(sql<string>`lower(c.car_username)`, '=', carUsername.toLowerCase());
  const words = search?.trim();
  if (words) {
    const pattern = `%${escapeLike(words)}%`;
    query = query.where((eb) =>
      eb.or(
        ['b.booking_number', 'c.car_username', 'c.car_make', 'c.car_model', 'r.username', 'r.full_name'].map(
          (column) => eb(sql<string>`lower(${sql.ref(column)})`, 'like', sql<string>`${pattern} ESCAPE '\\'`),
        ),
      ),
    );
  }
  return query;
}

/** One page of bookings (newest first, id breaks ties) and how many match the filters. */
export async function listBookingPage(db: Db, filters: BookingPageFilters): Promise<{ records: BookingRecord[]; total: number }> {
  const { page, limit, ...rest } = filters;
  const [ids, count] = await Promise.all([
    filteredBookings(db, rest).select('b.id').orderBy('b.created_at', 'desc').orderBy('b.id', 'desc').limit(limit).offset((page - 1) * limit).execute(),
    filteredBookings(db, rest).select(sql<number>`count(*)`.as('count')).executeTakeFirstOrThrow(),
  ]);
  const total = Number(count.count);
  if (ids.length === 0) return { records: [], total };
  const rows = await selectBookingRecords(db)
    .where('b.id', 'in', ids.map((r) => r.id))
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return { records: ids.map((r) => byId.get(r.id)).filter((r): r is BookingRecord => !!r), total };
}

/**
 * Writes a status change in a single conditional UPDATE: when another request changed the booking
 * first, nothing is written and undefined comes back. Only booking-status.ts transition() calls it.
 */
export function updateBookingStatus(
  db: Db,
  id: string,
  from: BookingStatusValue,
  set: Updateable<BookingsTable> & { status: BookingStatusValue },
  extra: { unpaidOnly?: boolean } = {},
): Promise<BookingRow | undefined> {
  let query = db.updateTable('bookings').set(set).where('id', '=', id).where('status', '=', from);
  if (extra.unpaidOnly) query = query.where('payment_status', '=', 'unpaid');
  return query.returningAll().executeTakeFirst();
}

/**
 * The bookings whose expires_at has passed, locked for this transaction; rows another instance is
 * already expiring are skipped (FOR UPDATE SKIP LOCKED), so each is cancelled once.
 */
export function lockOverdueBookings(db: Db, now: Date): Promise<BookingRow[]> {
  return db.selectFrom('bookings').selectAll().where('expires_at', '<=', now).orderBy('expires_at').forUpdate().skipLocked().execute();
}

/** One booking row, locked for the caller's transaction (a payment settling it waits for another). */
export function lockBookingRow(db: Db, id: string): Promise<BookingRow | undefined> {
  return db.selectFrom('bookings').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

/** The active bookings of a car whose start date has come (the rental a return ends). */
export function findStartedActiveBookings(db: Db, carId: string, today: string): Promise<BookingRow[]> {
  return db
    .selectFrom('bookings')
    .selectAll()
    .where('car_id', '=', carId)
    .where('status', '=', 'active')
    .where('start_date', '<=', today)
    .orderBy('start_date')
    .execute();
}

export interface BookingStatusCount {
  status: BookingStatusValue;
  count: number;
}

/** Counts by status, scoped like the lists (the money of the stats is the ledger's: ledger.sumPartyMoney). */
export async function bookingStatusCounts(db: Db, scope: BookingScope): Promise<BookingStatusCount[]> {
  let query = db.selectFrom('bookings').select(['status', sql<number>`count(*)`.as('count')]).groupBy('status');
  if (scope.participantId) query = query.where((eb) => eb.or([eb('renter_id', '=', scope.participantId!), eb('owner_id', '=', scope.participantId!)]));
  if (scope.ownerId) query = query.where('owner_id', '=', scope.ownerId);
  if (scope.renterId) query = query.where('renter_id', '=', scope.renterId);
  const rows = await query.execute();
  return rows.map((r) => ({ status: r.status, count: Number(r.count) }));
}

/**
 * A host's paid trips (whatever became of them) and, of those, the ones the host cancelled
 * (cancel_cause 'host'; a no-show the host reported is 'no_show', the renter's doing).
 */
export async function countHostCancellations(db: Db, hostId: string): Promise<{ paid_trips: number; cancelled_by_host: number }> {
  const row = await db
    .selectFrom('bookings')
    .select((eb) => [eb.fn.countAll<number>().as('paid_trips'), eb.fn.count<number>('id').filterWhere('cancel_cause', '=', 'host').as('cancelled_by_host')])
    .where('owner_id', '=', hostId)
    .where('payment_status', '=', 'paid')
    .executeTakeFirstOrThrow();
  return { paid_trips: Number(row.paid_trips), cancelled_by_host: Number(row.cancelled_by_host) };
}

/** Whether `renterId` has a paid trip of the car (isPaidTrip: paid, active or completed), which lets them know its exact place (decision 055). */
export async function hasPaidTrip(db: Db, carId: string, renterId: string): Promise<boolean> {
  const row = await db
    .selectFrom('bookings')
    .select('id')
    .where('car_id', '=', carId)
    .where('renter_id', '=', renterId)
    .where('payment_status', '=', 'paid')
    .where('status', 'in', PAID_TRIP_STATUSES)
    .limit(1)
    .executeTakeFirst();
  return !!row;
}
