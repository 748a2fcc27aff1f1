// SQL for bookings: the booking with its car, renter and owner, and the status changes other
// modules make (a car's return, a force return, a car's removal).
import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import type { BookingRow, BookingStatusValue, NewBooking, StoredSpecifications } from '../../db/schema';

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

/** Pending and unpaid confirmed bookings of a car become cancelled; answers the changed rows. */
export function cancelUnpaidBookingsOfCar(db: Db, carId: string, reason: string, now: Date): Promise<BookingRow[]> {
  return db
    .updateTable('bookings')
    .set({ status: 'cancelled', cancelled_at: now, host_response: reason, host_response_date: now, updated_at: now })
    .where('car_id', '=', carId)
    .where('status', 'in', ['pending', 'confirmed'])
    .where('payment_status', '=', 'unpaid')
    .returningAll()
    .execute();
}

/** Active bookings become completed with their return details (active -> completed only). */
export function completeBookings(
  db: Db,
  ids: string[],
  details: { actual_return_date: Date; condition_notes: string; odometer_reading: number | null },
  now: Date,
): Promise<BookingRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .updateTable('bookings')
    .set({ ...details, status: 'completed', completed_at: now, updated_at: now })
    .where('id', 'in', ids)
    .where('status', '=', 'active')
    .returningAll()
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
