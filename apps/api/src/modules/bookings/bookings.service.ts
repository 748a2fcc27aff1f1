// Booking creation (document 2 section 5; decisions.md section 5): every rule of the detail page
// again on the server, in the same order and words, the price computed here from the car, the
// chosen options and the settings, and the no-double-booking rule left to the database.
import { randomBytes } from 'node:crypto';
import {
  bookingLength,
  BOOKING_RULE_MESSAGES,
  BOOKING_STATUSES,
  canActorTransition,
  canTransition,
  UNPAID_EXPIRY_HOURS,
  type BookingActor,
  type BookingScopeQuery,
  type BookingStats,
  type BookingStatus,
  calculatePrice,
  DEFAULT_PICKUP_TIME,
  DEFAULT_RETURN_TIME,
  formatDateRange,
  formatDay,
  isAdmin,
  validateBookingRequest,
  type createBookingBodySchema,
} from '@karoo/shared';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import type { Db } from '../../db/connection';
import type { BookingInsuranceSnapshot, BookingPickupSnapshot, BookingRow, UserRow } from '../../db/schema';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../lib/app-error';
import { canManageCar, invalidateCarListings, isPubliclyVisible, returnCar, today } from '../cars/cars.service';
import * as carsRepo from '../cars/cars.repository';
import { notify } from '../notifications/notifications.service';
import { getSettings } from '../settings/settings.service';
import { findUserByIdOrUsername } from '../users/users.repository';
import * as repo from './bookings.repository';
import type { BookingRecord } from './bookings.repository';

type CreateBookingInput = z.output<typeof createBookingBodySchema>;

const BOOKING_NOT_FOUND = 'Booking not found';
const NUMBER_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** A short, readable booking number, e.g. KR7XQ2M9PA. */
function newBookingNumber(): string {
  const bytes = randomBytes(8);
  return `KR${[...bytes].map((b) => NUMBER_ALPHABET[b % NUMBER_ALPHABET.length]).join('')}`;
}

function isExclusionViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: string }).code === '23P01';
}

export async function createBooking(ctx: AppContext, viewer: UserRow, body: CreateBookingInput): Promise<BookingRecord> {
  // An admin may book on a user's behalf (the API playground); everyone else books for themselves.
  let renter = viewer;
  if (body.user_username && isAdmin(viewer) && body.user_username.toLowerCase() !== viewer.username.toLowerCase()) {
    const user = await findUserByIdOrUsername(ctx.db, body.user_username);
    if (!user) throw notFound('User not found');
    renter = user;
  }

  await expireOverdueBookings(ctx);
  const todayDate = today(ctx);
  const car = await carsRepo.findCarRecord(ctx.db, body.car_username, todayDate);
  if (!car || (!isPubliclyVisible(car) && !canManageCar(renter, car))) throw notFound('Car not found');

  const settings = await getSettings(ctx);
  const isHourly = body.is_hourly_booking;
  const startTime = body.start_time || (isHourly ? null : DEFAULT_PICKUP_TIME);
  const endTime = body.end_time || (isHourly ? null : DEFAULT_RETURN_TIME);
  const held = await carsRepo.findHoldingBookings(ctx.db, car.id, body.start_date);

  const failure = validateBookingRequest({
    start_date: body.start_date,
    end_date: body.end_date,
    start_time: startTime,
    end_time: endTime,
    is_hourly_booking: isHourly,
    blockedRanges: held,
    isOwnCar: car.owner_id === renter.id,
    isVerified: renter.verification_status === 'verified',
    today: todayDate,
    maxRentalDays: settings.maxRentalDays,
  });
  if (failure) throw new AppError(failure.status, failure.message);
  if (car.status !== 'available' || car.verification_status !== 'verified') {
    throw conflict('This car is not available for booking right now.');
  }

  let pickup: BookingPickupSnapshot | null = null;
  if (body.pickup_option) {
    const option = car.pickup_options.find((o) => o.id === body.pickup_option);
    if (!option) throw badRequest('The selected pickup location is not offered for this car.', { pickup_option: 'Not offered for this car' });
    pickup = { ...option, price: option.additional_fee, is_airport: option.type === 'airport' };
  }
  let insurance: BookingInsuranceSnapshot | null = null;
  if (body.insurance_option) {
    const option = car.insurance_options.find((o) => o.id === body.insurance_option);
    if (!option) throw badRequest('The selected insurance plan is not offered for this car.', { insurance_option: 'Not offered for this car' });
    insurance = { ...option, price: option.daily_rate };
  }

  const length = bookingLength({ start_date: body.start_date, end_date: body.end_date, start_time: startTime!, end_time: endTime!, is_hourly_booking: isHourly });
  const price = calculatePrice({
    dailyPrice: car.car_rent_price_cents / 100,
    isHourly,
    days: length.duration_days,
    hours: length.duration_hours ?? 0,
    pickupFee: pickup?.additional_fee ?? 0,
    insuranceDailyRate: insurance?.daily_rate ?? 0,
    settings,
  });
  const instant = settings.business_rules.instant_booking_enabled;
  const now = ctx.clock.now();

  let inserted;
  try {
    inserted = await repo.insertBooking(ctx.db, {
      booking_number: newBookingNumber(),
      car_id: car.id,
      renter_id: renter.id,
      owner_id: car.owner_id,
      start_date: body.start_date,
      end_date: body.end_date,
      start_time: startTime!,
      end_time: endTime!,
      is_hourly_booking: isHourly,
      duration_days: length.duration_days,
      duration_hours: length.duration_hours,
      status: instant ? 'confirmed' : 'pending',
      subtotal_cents: price.cents.subtotal,
      service_fee_cents: price.cents.serviceFee,
      insurance_fee_cents: price.cents.insuranceFee,
      pickup_fee_cents: price.cents.pickupFee,
      total_price_cents: price.cents.total,
      service_fee_rate: price.serviceFeeRate,
      commission_rate: price.commissionRate,
      car_owner_earnings_cents: price.cents.carOwnerEarnings,
      app_fee_cents: price.cents.appFee,
      pickup_option: pickup ? JSON.stringify(pickup) : null,
      insurance_option: insurance ? JSON.stringify(insurance) : null,
      special_requirements: body.special_requirements || null,
      host_response: instant ? 'Booking confirmed instantly' : null,
      host_response_date: instant ? now : null,
      payment_provider: null,
      payment_reference: null,
      paid_at: null,
      confirmed_at: instant ? now : null,
      completed_at: null,
      cancelled_at: null,
      actual_return_date: null,
      condition_notes: null,
      odometer_reading: null,
      payout_reference: null,
      payout_at: null,
      created_at: now,
      updated_at: now,
    });
  } catch (error) {
    // Another request took an overlapping date between our check and the insert.
    if (isExclusionViolation(error)) throw conflict(BOOKING_RULE_MESSAGES.dates_unavailable.message);
    throw error;
  }
  invalidateCarListings(ctx);

  const name = `${car.car_make} ${car.car_model}`;
  const when = isHourly
    ? `${formatDay(body.start_date)} ${startTime}-${endTime}`
    : `${formatDateRange(body.start_date, body.end_date)} (${length.duration_days} ${length.duration_days === 1 ? 'day' : 'days'})`;
  await notify(ctx, car.owner_id, {
    type: 'booking_request',
    title: instant ? 'New booking' : 'New booking request',
    message: instant
      ? `${renter.full_name} booked your ${name} for ${when}. It was confirmed instantly.`
      : `${renter.full_name} wants to book your ${name} for ${when}. Accept or reject the request.`,
    link: '/my-bookings',
  });
  if (instant) {
    await notify(ctx, renter.id, {
      type: 'booking_confirmed',
      title: 'Booking confirmed',
      message: `Your booking of the ${name} for ${when} is confirmed. Pay to secure it.`,
      link: '/my-bookings',
    });
  }
  const record = await repo.findBookingRecord(ctx.db, inserted.id);
  if (!record) throw notFound(BOOKING_NOT_FOUND);
  return record;
}

/** A booking is visible to its renter, the car's owner and admins (decisions.md section 1); 404 for anyone else. */
export async function findVisibleBooking(ctx: AppContext, viewer: UserRow, idOrNumber: string): Promise<BookingRecord> {
  const booking = await repo.findBookingRecord(ctx.db, idOrNumber);
  if (!booking || (booking.renter_id !== viewer.id && booking.owner_id !== viewer.id && !isAdmin(viewer))) {
    throw notFound(BOOKING_NOT_FOUND);
  }
  return booking;
}

// ---- The status machine (decisions.md section 5) ----

const STATUS_VERB: Record<BookingStatus, string> = {
  pending: 'made pending',
  confirmed: 'accepted',
  rejected: 'rejected',
  cancelled: 'cancelled',
  active: 'activated',
  completed: 'completed',
};

/** The parts the viewer plays in a booking (an admin may also be its owner). */
function actorsOf(viewer: UserRow, booking: { renter_id: string; owner_id: string }): BookingActor[] {
  const actors: BookingActor[] = [];
  if (booking.renter_id === viewer.id) actors.push('renter');
  if (booking.owner_id === viewer.id) actors.push('owner');
  if (isAdmin(viewer)) actors.push('admin');
  return actors;
}

const carName = (b: BookingRecord) => `${b.car_make} ${b.car_model}`;
const dates = (b: { start_date: string; end_date: string }) => formatDateRange(b.start_date, b.end_date);

/**
 * Cancels overdue pending and unpaid bookings and tells both parties. The background job calls it
 * every minute; writes that depend on a car's dates (create, accept, pay) call it first, so an
 * expired request never blocks dates or gets accepted or paid in the gap between two sweeps.
 */
export async function expireOverdueBookings(ctx: AppContext): Promise<number> {
  const expired = await repo.expireOverdueBookings(ctx.db, ctx.clock.now());
  if (expired.length === 0) return 0;
  invalidateCarListings(ctx);
  for (const row of expired) {
    const record = await repo.findBookingRecord(ctx.db, row.id);
    if (!record) continue;
    const reason = row.host_response ?? 'Expired.';
    await notify(ctx, row.renter_id, {
      type: 'booking_expired',
      title: 'Booking expired',
      message: `Your booking of the ${carName(record)} (${dates(record)}) was cancelled. ${reason}`,
      link: '/my-bookings',
    });
    await notify(ctx, row.owner_id, {
      type: 'booking_expired',
      title: 'Booking expired',
      message: `The booking of your ${carName(record)} by ${record.renter_full_name} (${dates(record)}) was cancelled. ${reason}`,
      link: '/my-bookings',
    });
  }
  return expired.length;
}

/**
 * A renter whose account is being closed: refused while one of their trips is under way; their
 * pending and unpaid bookings are cancelled inside the caller's transaction. Answers the cancelled
 * bookings for afterRenterBookingsCancelled.
 */
export async function cancelRenterBookingsInTransaction(trx: Db, renterId: string, now: Date): Promise<BookingRow[]> {
  if (await repo.hasActiveBooking(trx, { renterId })) {
    throw conflict('This user has a rental under way; it must be returned before the account is deleted.');
  }
  return repo.cancelUnpaidBookings(trx, { renterId }, 'Cancelled because the renter closed their Karoo account', now);
}

/** After the commit: each host whose request went is told, and the dates are free again. */
export async function afterRenterBookingsCancelled(ctx: AppContext, cancelled: BookingRow[], renterName: string): Promise<void> {
  if (cancelled.length === 0) return;
  invalidateCarListings(ctx);
  for (const row of cancelled) {
    const record = await repo.findBookingRecord(ctx.db, row.id);
    if (!record) continue;
    await notify(ctx, row.owner_id, {
      type: 'booking_cancelled',
      title: 'Booking cancelled',
      message: `The booking of your ${carName(record)} by ${renterName} (${dates(record)}) was cancelled because their account was closed. The dates are free again.`,
      link: '/my-bookings',
    });
  }
}

interface ChangeOptions {
  /** The parts allowed to call this route at all; anyone else gets 403 before the machine is asked. */
  callers?: BookingActor[];
  hostResponse?: string;
}

const CALLER_MESSAGES: Record<string, string> = {
  'owner,admin': 'Only the car owner or an administrator can do this.',
  'renter,admin': 'Only the renter can cancel this booking.',
};

/** Every human status change goes through here: visibility (404), caller (403), machine (409). */
export async function changeBookingStatus(
  ctx: AppContext,
  viewer: UserRow,
  idOrNumber: string,
  to: BookingStatus,
  options: ChangeOptions = {},
): Promise<BookingRecord> {
  await expireOverdueBookings(ctx);
  const booking = await findVisibleBooking(ctx, viewer, idOrNumber);
  const actors = actorsOf(viewer, booking);
  if (options.callers && !actors.some((a) => options.callers!.includes(a))) {
    throw forbidden(CALLER_MESSAGES[options.callers.join(',')] ?? 'You do not have permission to do this.');
  }
  const from = booking.status;
  if (from === to) throw conflict(`This booking is already ${from}.`);
  if (!canTransition(from, to)) throw conflict(`A ${from} booking cannot be ${STATUS_VERB[to]}.`);
  if (to === 'active') throw conflict('A booking becomes active only when its payment is verified (POST /api/booking/pay/{id}).');
  if (!actors.some((a) => canActorTransition(from, to, a))) {
    throw forbidden(to === 'cancelled' ? 'Only the renter can cancel this booking.' : 'Only the car owner or an administrator can do this.');
  }
  if (to === 'completed') {
    await returnCar(ctx, viewer, booking.car_id, {});
    return reloadBooking(ctx, booking.id);
  }

  const now = ctx.clock.now();
  const defaults: Partial<Record<BookingStatus, string>> = {
    confirmed: 'Booking approved by host',
    rejected: 'Booking rejected by host',
    cancelled: actors.includes('renter') ? 'Booking cancelled by the renter' : 'Booking cancelled by an administrator',
  };
  const response = options.hostResponse?.trim() || defaults[to] || null;
  const changed = await repo.transitionBooking(
    ctx.db,
    booking.id,
    from,
    {
      status: to,
      updated_at: now,
      host_response: response,
      host_response_date: now,
      ...(to === 'confirmed' ? { confirmed_at: now } : {}),
      ...(to === 'cancelled' ? { cancelled_at: now } : {}),
    },
    { unpaidOnly: from === 'confirmed' },
  );
  if (!changed) throw conflict('This booking was changed in the meantime. Reload it and try again.');
  invalidateCarListings(ctx);
  await notifyStatusChange(ctx, booking, to, actors, response);
  return reloadBooking(ctx, booking.id);
}

async function reloadBooking(ctx: AppContext, id: string): Promise<BookingRecord> {
  const record = await repo.findBookingRecord(ctx.db, id);
  if (!record) throw notFound(BOOKING_NOT_FOUND);
  return record;
}

async function notifyStatusChange(ctx: AppContext, b: BookingRecord, to: BookingStatus, actors: BookingActor[], response: string | null) {
  const what = `${carName(b)} (${dates(b)})`;
  if (to === 'confirmed') {
    await notify(ctx, b.renter_id, {
      type: 'booking_confirmed',
      title: 'Booking accepted',
      message: `${b.owner_full_name} accepted your booking of the ${what}. Pay within ${UNPAID_EXPIRY_HOURS} hours to secure it.`,
      link: '/my-bookings',
    });
  } else if (to === 'rejected') {
    await notify(ctx, b.renter_id, {
      type: 'booking_rejected',
      title: 'Booking rejected',
      message: `Your booking of the ${what} was rejected${response ? `: ${response}` : '.'}`,
      link: '/my-bookings',
    });
  } else if (to === 'cancelled') {
    await notify(ctx, b.owner_id, {
      type: 'booking_cancelled',
      title: 'Booking cancelled',
      message: `${b.renter_full_name} cancelled the booking of your ${what}.`,
      link: '/my-bookings',
    });
    if (!actors.includes('renter')) {
      await notify(ctx, b.renter_id, {
        type: 'booking_cancelled',
        title: 'Booking cancelled',
        message: `Your booking of the ${what} was cancelled by Karoo${response ? `: ${response}` : '.'}`,
        link: '/my-bookings',
      });
    }
  }
}

// ---- Reading lists ----

/** Whose bookings a viewer's list or stats cover (bookingScopeQuerySchema): all for admins unless they ask for their own. */
function scopeFor(viewer: UserRow, query: BookingScopeQuery): repo.BookingScope {
  if (query.as === 'owner') return { ownerId: viewer.id };
  if (query.as === 'renter') return { renterId: viewer.id };
  if (isAdmin(viewer) && query.scope !== 'mine') return {};
  return { participantId: viewer.id };
}

export function listVisibleBookings(
  ctx: AppContext,
  viewer: UserRow,
  query: BookingScopeQuery & { status?: BookingStatus; car_username?: string } = {},
) {
  return repo.listBookingRecords(ctx.db, {
    ...scopeFor(viewer, query),
    ...(query.status ? { status: query.status } : {}),
    ...(query.car_username ? { carUsername: query.car_username } : {}),
  });
}

/** GET /user/{id}/bookings (as renter) and /hosted-bookings (on own cars): self or admin. */
export async function listUserBookings(ctx: AppContext, viewer: UserRow, idOrUsername: string, as: 'renter' | 'owner', status?: BookingStatus) {
  const user = await findUserByIdOrUsername(ctx.db, idOrUsername);
  if (!user || user.deleted_at) throw notFound('User not found');
  if (user.id !== viewer.id && !isAdmin(viewer)) throw forbidden('You can only see your own bookings.');
  return repo.listBookingRecords(ctx.db, { ...(as === 'renter' ? { renterId: user.id } : { ownerId: user.id }), ...(status ? { status } : {}) });
}

export async function bookingStats(ctx: AppContext, viewer: UserRow, query: BookingScopeQuery = {}): Promise<BookingStats> {
  const rows = await repo.bookingStatusCounts(ctx.db, scopeFor(viewer, query));
  const counts = Object.fromEntries(BOOKING_STATUSES.map((s) => [s, 0])) as Record<BookingStatus, number>;
  let revenue = 0;
  let earnings = 0;
  let fees = 0;
  let spent = 0;
  for (const row of rows) {
    counts[row.status] = row.count;
    revenue += row.total_cents;
    earnings += row.earnings_cents;
    fees += row.app_fee_cents;
    spent += row.spent_cents;
  }
  return {
    total: rows.reduce((sum, r) => sum + r.count, 0),
    by_status: counts,
    ...counts,
    total_revenue: revenue / 100,
    total_earnings: earnings / 100,
    total_app_fee: fees / 100,
    total_spent: spent / 100,
  };
}
