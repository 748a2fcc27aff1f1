// Bookings (document 2 section 5; document 3; decisions.md section 5): creating one, with every
// rule of the detail page again on the server in the same order and words and the price computed
// here; who may see which; people's status changes; lists and stats. The machine itself is applied
// in booking-status.ts, returns in returns.service.ts.
import { randomBytes } from 'node:crypto';
import {
  carDepositCents,
  bookingLength,
  BOOKING_RULE_MESSAGES,
  BOOKING_STATUSES,
  canActorTransition,
  canTransition,
  type BookingActor,
  type BookingListQuery,
  type BookingScopeQuery,
  type BookingStats,
  type BookingStatus,
  calculatePrice,
  defaultPickupTime,
  DEFAULT_RETURN_TIME,
  isAdmin,
  momentOf,
  pickupTimeRefusal,
  tripRuleFailure,
  validateBookingRequest,
  type createBookingBodySchema,
  isListedCar,
} from '@karoo/shared';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import type { BookingInsuranceSnapshot, BookingPickupSnapshot, UserRow } from '../../db/schema';
import { inTransaction, type EventOf, type Tx } from '../../events/domain-events';
import type { CarRemovalCause } from '../cars';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../lib/app-error';
import { findCarHolds, hasActiveRental } from '../availability';
import { sumPartyMoney } from '../ledger';
import { canManageCar, findCar, today, tripRulesOf } from '../cars';
import { requireCurrentPolicies } from '../privacy';
import { instantBookingCheck } from './instant-booking';
import { getSettings } from '../settings';
import { findUser } from '../users';
import { cancelUnpaidBookings, checkTransition, expireOverdueBookings, initialExpiry, transition } from './booking-status';
import * as repo from './bookings.repository';
import type { BookingRecord } from './bookings.repository';

export type { BookingRecord };
import { returnRental } from './returns.service';

export { expireOverdueBookings };

type CreateBookingInput = z.output<typeof createBookingBodySchema>;

const BOOKING_NOT_FOUND = 'Booking not found';
const NUMBER_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** A short, readable booking number, e.g. KR7XQ2M9PA. */
function newBookingNumber(): string {
  const bytes = randomBytes(8);
  return `KR${[...bytes].map((b) => NUMBER_ALPHABET[b % NUMBER_ALPHABET.length]).join('')}`;
}

function isDeadlock(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: string }).code === '40P01';
}

function isExclusionViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: string }).code === '23P01';
}

export async function createBooking(ctx: AppContext, viewer: UserRow, body: CreateBookingInput): Promise<BookingRecord> {
  // An admin may book on a user's behalf (the API playground); everyone else books for themselves.
  let renter = viewer;
  if (body.user_username && isAdmin(viewer) && body.user_username.toLowerCase() !== viewer.username.toLowerCase()) {
    const user = await findUser(ctx, body.user_username);
    if (!user) throw notFound('User not found');
    renter = user;
  }
  // A booking request binds the renter to the terms in force (decision 049); an administrator booking
  // for a member is not asked, and the member is at their next sign-in.
  if (renter.id === viewer.id) await requireCurrentPolicies(ctx.db, renter);

  await expireOverdueBookings(ctx);
  const todayDate = today(ctx);
  const car = await findCar(ctx, body.car_username);
  if (!car || (!isListedCar(car) && !canManageCar(renter, car))) throw notFound('Car not found');

  const settings = await getSettings(ctx);
  const isHourly = body.is_hourly_booking;
  // The pickup location named, if the car offers it (refused below, in its turn, if it does not).
  const chosenPickup = body.pickup_option ? (car.pickup_options.find((o) => o.id === body.pickup_option) ?? null) : null;
  // A daily request without a time starts at the location's first pickup time when 09:00 is not one.
  const startTime = body.start_time || (isHourly ? null : defaultPickupTime(chosenPickup));
  const endTime = body.end_time || (isHourly ? null : DEFAULT_RETURN_TIME);
  // What holds the car from the start date on: holding bookings (their buffers included) and blocks.
  const held = await findCarHolds(ctx.db, car.id, momentOf(body.start_date, '00:00'));

  const failure = validateBookingRequest({
    start_date: body.start_date,
    end_date: body.end_date,
    start_time: startTime,
    end_time: endTime,
    is_hourly_booking: isHourly,
    blockedRanges: held.map((h) => ({ from: h.from.getTime(), to: h.to.getTime() })),
    bufferMinutes: car.buffer_minutes,
    isOwnCar: car.owner_id === renter.id,
    isVerified: renter.verification_status === 'verified',
    today: todayDate,
    maxRentalDays: settings.maxRentalDays,
  });
  if (failure) throw new AppError(failure.status, failure.message);
  // The car's own trip rules (decision 048): notice, booking window, minimum and maximum length.
  const tripRules = tripRulesOf(car);
  const ruleFailure = tripRuleFailure(
    tripRules,
    { start_date: body.start_date, end_date: body.end_date, start_time: startTime, end_time: endTime, is_hourly_booking: isHourly },
    ctx.clock.now(),
    todayDate,
  );
  if (ruleFailure) throw new AppError(ruleFailure.status, ruleFailure.message);
  if (car.status !== 'available' || car.verification_status !== 'verified') {
    throw conflict('This car is not available for booking right now.');
  }

  let pickup: BookingPickupSnapshot | null = null;
  if (body.pickup_option) {
    if (!chosenPickup) throw badRequest('The selected pickup location is not offered for this car.', { pickup_option: 'Not offered for this car' });
    // The location's listed times bind the pickup (decision 059), hourly or daily.
    const timeRefusal = pickupTimeRefusal(chosenPickup, startTime!);
    if (timeRefusal) throw badRequest(timeRefusal, { start_time: 'Not a pickup time of this location' });
    pickup = chosenPickup;
  }
  let insurance: BookingInsuranceSnapshot | null = null;
  if (body.insurance_option) {
    const option = car.insurance_options.find((o) => o.id === body.insurance_option);
    if (!option) throw badRequest('The selected insurance plan is not offered for this car.', { insurance_option: 'Not offered for this car' });
    insurance = option;
  } else {
    // Cover included in the car's price goes with every trip (the panel offers no "no cover" then,
    // and the card says Insured; decision 056), whether or not the request names it.
    insurance = car.insurance_options.find((o) => o.included) ?? null;
  }

  const length = bookingLength({ start_date: body.start_date, end_date: body.end_date, start_time: startTime!, end_time: endTime!, is_hourly_booking: isHourly });
  const price = calculatePrice({
    dailyPrice: car.car_rent_price_cents / 100,
    isHourly,
    days: length.duration_days,
    hours: length.duration_hours ?? 0,
    pickupFee: (pickup?.additional_fee_cents ?? 0) / 100,
    insuranceDailyRate: (insurance?.daily_rate_cents ?? 0) / 100,
    settings,
    discounts: tripRules,
  });
  // Confirmed at once when the car's instant booking is on (under the platform's switch) and the renter meets its requirements (decision 078).
  const instant = (await instantBookingCheck(ctx, renter, car, settings)).length === 0;
  const status: BookingStatus = instant ? 'confirmed' : 'pending';

  const insertRequestedBooking = () =>
    inTransaction(ctx, async (tx) => {
      const now = tx.now;
      const inserted = await repo.insertBooking(tx.db, {
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
        status,
        subtotal_cents: price.cents.subtotal,
        discount_cents: price.cents.discount,
        discount_rate: price.discountRate,
        service_fee_cents: price.cents.serviceFee,
        insurance_fee_cents: price.cents.insuranceFee,
        pickup_fee_cents: price.cents.pickupFee,
        total_price_cents: price.cents.total,
        // The deposit, distance allowance and km rate the renter agreed to (decision 064).
        deposit_cents: carDepositCents(car, settings.trip_charges),
        distance_allowance_km: car.distance_allowance_km,
        extra_km_rate_cents: car.extra_km_rate_cents,
        service_fee_rate: price.serviceFeeRate,
        commission_rate: price.commissionRate,
        car_owner_earnings_cents: price.cents.carOwnerEarnings,
        app_fee_cents: price.cents.appFee,
        pickup_option: pickup ? JSON.stringify(pickup) : null,
        insurance_option: insurance ? JSON.stringify(insurance) : null,
        special_requirements: body.special_requirements || null,
        host_response: instant ? 'Booking confirmed instantly' : null,
        host_response_date: instant ? now : null,
        confirmed_at: instant ? now : null,
        expires_at: initialExpiry({ status, start_date: body.start_date, created_at: now, confirmed_at: instant ? now : null }),
        created_at: now,
        updated_at: now,
      });
      const record = await repo.findBookingRecord(tx.db, inserted.id);
      if (!record) throw notFound(BOOKING_NOT_FOUND);
      tx.emit({ type: 'booking.requested', booking: record });
      return record;
    });

  // Two overlapping requests inserting at the same instant can each wait on the other's row in the
  // exclusion constraint; PostgreSQL then aborts one with a deadlock (40P01). That request is tried
  // again, and meets the other's committed booking as an ordinary conflict (23P01, 409).
  for (let attempt = 1; ; attempt++) {
    try {
      return await insertRequestedBooking();
    } catch (error) {
      if (isDeadlock(error) && attempt < 3) continue;
      // Another request took an overlapping time (a booking or a block) between our check and the insert (or kept
      // contending for it through every attempt).
      if (isExclusionViolation(error) || isDeadlock(error)) throw conflict(BOOKING_RULE_MESSAGES.dates_unavailable.message);
      throw error;
    }
  }
}

/** A booking by id or number, whoever asks (internal callers that have already checked access). */
export function findBookingById(ctx: AppContext, idOrNumber: string): Promise<BookingRecord | undefined> {
  return repo.findBookingRecord(ctx.db, idOrNumber);
}

/**
 * A booking locked in the caller's unit of work, as it is now: two charges settling one booking at
 * once take turns, and the second sees what the first did (modules/payments).
 */
export async function lockBookingForPayment(tx: Tx, id: string): Promise<BookingRecord> {
  if (!(await repo.lockBookingRow(tx.db, id))) throw notFound(BOOKING_NOT_FOUND);
  const record = await repo.findBookingRecord(tx.db, id);
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

// ---- Status changes by people (decisions.md section 5); booking-status.ts applies the machine ----

/** The parts the viewer plays in a booking (an admin may also be its owner). */
function actorsOf(viewer: UserRow, booking: { renter_id: string; owner_id: string }): BookingActor[] {
  const actors: BookingActor[] = [];
  if (booking.renter_id === viewer.id) actors.push('renter');
  if (booking.owner_id === viewer.id) actors.push('owner');
  if (isAdmin(viewer)) actors.push('admin');
  return actors;
}

/**
 * A renter whose account is being closed (data-protection's deletion, after their cars went): refused while one of their trips is paid
 * (under way, or still to come: it is cancelled first, by the policy, so the money is settled);
 * their pending and unpaid bookings are cancelled in the closing unit of work (the hosts are told).
 */
export async function cancelRenterBookings(tx: Tx, user: { id: string }): Promise<void> {
  if (await hasActiveRental(tx.db, { renterId: user.id })) {
    throw conflict('This user has a paid trip, under way or still to come (a rental under way must be returned, a trip to come cancelled by the cancellation policy) before the account is deleted.');
  }
  await cancelUnpaidBookings(tx, { renterId: user.id }, 'renter_closed', 'Cancelled because the renter closed their Karoo account');
}

const CAR_REMOVED_REASON = 'Cancelled because the car was removed from Karoo';
const RENTAL_UNDER_WAY: Record<CarRemovalCause, string> = {
  car_deleted: 'This car has an active rental, under way or paid for and still to come: it cannot be deleted until the car is returned or the trip cancelled.',
  owner_closed: 'This user has a paid trip in one of their cars (a rental under way, or one still to come): return the car or cancel the trip before deleting the account.',
};

/**
 * A car being taken off Karoo (car.removing): refused while a rental is under way in it; its pending
 * and unpaid confirmed bookings are cancelled (their renters are told). Paid bookings are records.
 */
export async function cancelRemovedCarBookings(tx: Tx, { car, cause }: EventOf<'car.removing'>): Promise<void> {
  if (await hasActiveRental(tx.db, { carId: car.id })) throw conflict(RENTAL_UNDER_WAY[cause]);
  await cancelUnpaidBookings(tx, { carId: car.id }, 'car_removed', CAR_REMOVED_REASON);
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

const DEFAULT_RESPONSES: Partial<Record<BookingStatus, (actor: BookingActor) => string>> = {
  confirmed: () => 'Booking approved by host',
  rejected: () => 'Booking rejected by host',
  cancelled: (actor) => (actor === 'renter' ? 'Booking cancelled by the renter' : 'Booking cancelled by an administrator'),
};

/** Every human status change goes through here: visibility (404), caller (403), then transition(). */
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
  if (booking.status !== to && canTransition(booking.status, to) && to === 'active') {
    throw conflict('A booking becomes active only when its payment is verified (POST /api/booking/pay/{id}).');
  }
  if (booking.status === 'active' && to === 'cancelled') {
    throw conflict('A paid trip is cancelled by the cancellation policy: PATCH /api/booking/{id}/cancel, after GET /api/booking/{id}/cancellation shows what each side gets back or pays.');
  }
  // The part that may make this change, else the viewer's first part (for the machine's 409 or 403).
  const actor = actors.find((a) => canActorTransition(booking.status, to, a)) ?? actors[0]!;
  if (to === 'completed') {
    checkTransition(booking.status, to, actor);
    await returnRental(ctx, viewer, booking.car_id, {});
    return reloadBooking(ctx, booking.id);
  }
  const reason = options.hostResponse?.trim() || DEFAULT_RESPONSES[to]?.(actor) || null;
  return inTransaction(ctx, (tx) => transition(tx, booking, { to, actor, reason }), { by: viewer });
}

async function reloadBooking(ctx: AppContext, id: string): Promise<BookingRecord> {
  const record = await repo.findBookingRecord(ctx.db, id);
  if (!record) throw notFound(BOOKING_NOT_FOUND);
  return record;
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

/** GET /booking/getList: one page of the bookings the viewer may see (as getAll), searched and filtered, with the total. */
export function listVisibleBookingPage(ctx: AppContext, viewer: UserRow, query: BookingListQuery) {
  return repo.listBookingPage(ctx.db, {
    ...scopeFor(viewer, query),
    ...(query.status ? { status: query.status } : {}),
    ...(query.car_username ? { carUsername: query.car_username } : {}),
    ...(query.search ? { search: query.search } : {}),
    page: query.page,
    limit: query.limit,
  });
}

/** GET /user/{id}/bookings (as renter) and /hosted-bookings (on own cars): self or admin. */
export async function listUserBookings(ctx: AppContext, viewer: UserRow, idOrUsername: string, as: 'renter' | 'owner', status?: BookingStatus) {
  const user = await findUser(ctx, idOrUsername);
  if (!user || user.deleted_at) throw notFound('User not found');
  if (user.id !== viewer.id && !isAdmin(viewer)) throw forbidden('You can only see your own bookings.');
  return repo.listBookingRecords(ctx.db, { ...(as === 'renter' ? { renterId: user.id } : { ownerId: user.id }), ...(status ? { status } : {}) });
}

export async function bookingStats(ctx: AppContext, viewer: UserRow, query: BookingScopeQuery = {}): Promise<BookingStats> {
  const scope = scopeFor(viewer, query);
  const [rows, money] = await Promise.all([repo.bookingStatusCounts(ctx.db, scope), sumPartyMoney(ctx.db, scope.participantId ?? scope.ownerId ?? scope.renterId)]);
  const counts = Object.fromEntries(BOOKING_STATUSES.map((s) => [s, 0])) as Record<BookingStatus, number>;
  for (const row of rows) counts[row.status] = row.count;
  // Money is the ledger's (decision 039): the shares of the charges, so a cancelled trip counts
  // only the fee it kept and a refunded charge counts nothing.
  return {
    total: rows.reduce((sum, r) => sum + r.count, 0),
    by_status: counts,
    ...counts,
    total_revenue: money.grossCents / 100,
    total_earnings: money.hostEarningsCents / 100,
    total_app_fee: money.platformRevenueCents / 100,
    total_spent: money.spentCents / 100,
  };
}

// ---- A trip's new times (the payments module's accepted change, decision 081) ----

/** What an accepted change writes on the booking: its new times, length and price (cents). */
export interface NewTripTerms {
  start_date: string;
  end_date: string;
  start_time: string;
  end_time: string;
  duration_days: number;
  duration_hours: number | null;
  subtotal_cents: number;
  discount_cents: number;
  discount_rate: number;
  service_fee_cents: number;
  insurance_fee_cents: number;
  total_price_cents: number;
  car_owner_earnings_cents: number;
  app_fee_cents: number;
}

/**
 * Moves a paid trip to its new times and price in the caller's unit of work (the booking locked by
 * lockBookingForPayment): the car's hold follows (the bookings_set_held trigger), and the exclusion
 * constraint refuses a clash with another booking or a block (23P01: a 409 here). Only an active
 * (paid, not returned) trip changes.
 */
export async function applyTripTerms(tx: Tx, bookingId: string, terms: NewTripTerms): Promise<BookingRecord> {
  try {
    const updated = await tx.db
      .updateTable('bookings')
      .set({ ...terms, updated_at: tx.now })
      .where('id', '=', bookingId)
      .where('status', '=', 'active')
      .returning('id')
      .executeTakeFirst();
    if (!updated) throw conflict('Only a paid trip that has not ended can change.');
  } catch (error) {
    if (isExclusionViolation(error)) throw conflict(BOOKING_RULE_MESSAGES.dates_unavailable.message);
    throw error;
  }
  const record = await repo.findBookingRecord(tx.db, bookingId);
  if (!record) throw notFound(BOOKING_NOT_FOUND);
  return record;
}
