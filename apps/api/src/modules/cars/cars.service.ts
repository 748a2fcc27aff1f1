// Cars (document 2; decisions.md sections 1 and 4): who may see and change a car, the browse
// list, listing a car (which makes its owner a host), fleet management, returns, verification
// and registration documents.
import { randomBytes, randomUUID } from 'node:crypto';
import {
  BROWSE_TYPE_FILTERS,
  BROWSE_TYPES,
  buildCarUsername,
  CAR_COLOURS,
  CAR_TYPES,
  CAR_USERNAME_PATTERN,
  canonicalFeature,
  DEFAULT_RETURN_NOTES,
  DEFAULT_SPECIFICATIONS,
  findBaseCity,
  formatDateRange,
  FUEL_TYPES,
  isAdmin,
  todayIn,
  validateCarLimits,
  validateCarListing,
  WIZARD_TRANSMISSIONS,
  type BrowseType,
  type Car,
  type CarListFilters,
  type CarListingFailure,
} from '@karoo/shared';
import type {
  insuranceOptionInputSchema,
  newCarBodySchema,
  pickupOptionInputSchema,
  updateCarBodySchema,
  returnCarBodySchema,
  verifyCarBodySchema,
} from '@karoo/shared';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import type { Db } from '../../db/connection';
import type { BookingRow, CarRow, CarUpdate, StoredInsuranceOption, StoredPickupOption, StoredSpecifications, UserRow } from '../../db/schema';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../lib/app-error';
import { detectFileType, DOCUMENT_MIME_TYPES } from '../../lib/file-types';
import * as bookingsRepo from '../bookings/bookings.repository';
import { notify } from '../notifications/notifications.service';
import { getSettings } from '../settings/settings.service';
import { findUserByIdOrUsername } from '../users/users.repository';
import { planCarPhotos, removeCarPhotos, writeCarPhotos } from './car-photos';
import { distanceKm, toCar } from './cars.mapper';
import { cachedPage, clearBrowseCache, type PageAnswer } from './listing-cache';
import * as repo from './cars.repository';
import type { CarRecord } from './cars.repository';

type NewCarInput = z.output<typeof newCarBodySchema>;
type UpdateCarInput = z.output<typeof updateCarBodySchema>;
type PickupOptionIn = z.output<typeof pickupOptionInputSchema>;
type InsuranceOptionIn = z.output<typeof insuranceOptionInputSchema>;
type ReturnCarInput = z.output<typeof returnCarBodySchema>;
type VerifyCarInput = z.output<typeof verifyCarBodySchema>;

const CAR_NOT_FOUND = 'Car not found';
const PLATE_TAKEN = 'A car with this plate number is already listed on Karoo.';
const plateTaken = () => conflict(PLATE_TAKEN, { car_plate_number: PLATE_TAKEN });

/** One plate, one listed car: checked first for a clear answer, and by the unique index against races. */
async function ensurePlateFree(ctx: AppContext, plate: string, exceptCarId?: string) {
  if (await repo.isPlateTaken(ctx.db, plate, exceptCarId)) throw plateTaken();
}

export function today(ctx: AppContext): string {
  return todayIn(ctx.clock.now());
}

export function canManageCar(viewer: UserRow | null, car: { owner_id: string }): boolean {
  return !!viewer && (viewer.id === car.owner_id || isAdmin(viewer));
}

/** Listed cars are public; offline, maintenance, unverified and rejected cars only to their owner and admins. */
export function isPubliclyVisible(car: { verification_status: string; status: string }): boolean {
  return car.verification_status === 'verified' && ['available', 'rented', 'active'].includes(car.status);
}

/** The car behind `{id}` as this viewer may see it; 404 otherwise. */
export async function findVisibleCar(ctx: AppContext, viewer: UserRow | null, idOrUsername: string): Promise<CarRecord> {
  const car = await repo.findCarRecord(ctx.db, idOrUsername, today(ctx));
  if (!car || (!isPubliclyVisible(car) && !canManageCar(viewer, car))) throw notFound(CAR_NOT_FOUND);
  return car;
}

/** The car behind `{id}` if the viewer owns it or is an admin; anyone else gets 404. */
export async function findManageableCar(ctx: AppContext, viewer: UserRow, idOrUsername: string): Promise<CarRecord> {
  const car = await repo.findCarRecord(ctx.db, idOrUsername, today(ctx));
  if (!car || !canManageCar(viewer, car)) throw notFound(CAR_NOT_FOUND);
  return car;
}

export function viewCar(viewer: UserRow | null, car: CarRecord): Car {
  return toCar(car, { isPrivileged: canManageCar(viewer, car) });
}

async function reload(ctx: AppContext, id: string): Promise<CarRecord> {
  const car = await repo.findCarRecord(ctx.db, id, today(ctx));
  if (!car) throw notFound(CAR_NOT_FOUND);
  return car;
}

// ---- Browse ----
export interface CarPage {
  cars: Car[];
  meta: { total: number; page: number; limit: number };
}

/** Forgets cached browse pages; every write that can change a public page calls it. */
export function invalidateCarListings(ctx: AppContext): void {
  clearBrowseCache(ctx);
}

function resolveTypeFilter(type: string | undefined) {
  if (!type) return undefined;
  const carTypes = new Set<string>();
  let maxPriceCents: number | undefined;
  let abovePriceCents: number | undefined;
  for (const value of type.split(',').map((s) => s.trim()).filter(Boolean)) {
    const browse = BROWSE_TYPES.find((t) => t.toLowerCase() === value.toLowerCase()) as BrowseType | undefined;
    if (!browse) {
      carTypes.add(value);
      continue;
    }
    const rule = BROWSE_TYPE_FILTERS[browse];
    rule.carTypes.forEach((t) => carTypes.add(t));
    if (rule.maxDailyPrice !== undefined) maxPriceCents = Math.max(maxPriceCents ?? 0, rule.maxDailyPrice * 100);
    if (rule.minDailyPriceAbove !== undefined) abovePriceCents = Math.min(abovePriceCents ?? Infinity, rule.minDailyPriceAbove * 100);
  }
  return { carTypes: [...carTypes], maxPriceCents, abovePriceCents };
}

/**
 * One browse page as the JSON answer `{ success, data, meta }`, serialised here (the list is the
 * hottest call; the answer is built from the same Car type the schema documents), with a gzip
 * copy when the page came from the cache.
 */
export async function listCarsPage(ctx: AppContext, viewer: UserRow | null, query: CarListFilters): Promise<PageAnswer> {
  const todayDate = today(ctx);
  const sort = query.sort ?? 'RELEVANCE';
  const origin = query.lat !== undefined && query.lng !== undefined ? { lat: query.lat, lng: query.lng } : undefined;
  if (sort === 'DISTANCE' && !origin) {
    throw badRequest('Sorting by distance needs your location: send lat and lng.', { lat: 'Required for the DISTANCE sort' });
  }
  if ((query.lat === undefined) !== (query.lng === undefined)) throw badRequest('Send both lat and lng.', { lng: 'Send both lat and lng' });
  if (query.minPrice !== undefined && query.maxPrice !== undefined && query.minPrice > query.maxPrice) {
    throw badRequest('The minimum price cannot be more than the maximum price.', { minPrice: 'Must not exceed maxPrice' });
  }
  const start = query.startDate ?? query.endDate;
  const end = query.endDate ?? query.startDate;
  if (start && end && end < start) throw badRequest('End date must be after start date.', { endDate: 'End date must be after start date.' });

  let scope: 'public' | 'all' = 'public';
  let ownerId: string | undefined;
  if (query.owner) {
    const owner = await findUserByIdOrUsername(ctx.db, query.owner);
    if (!owner) return { json: JSON.stringify({ success: true, data: [], meta: { total: 0, page: query.page, limit: query.limit } }), gzip: null };
    ownerId = owner.id;
    if (viewer && (viewer.id === owner.id || isAdmin(viewer))) scope = 'all';
  }
  if (query.includeUnverified && isAdmin(viewer)) scope = 'all';

  const pageQuery: repo.CarPageQuery = {
    scope,
    ownerId,
    today: todayDate,
    // Words are matched at word starts, so punctuation separates words as spaces do ("c-class").
    searchWords: (query.search ?? '').toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean).slice(0, 8),
    location: query.location,
    type: resolveTypeFilter(query.type),
    transmission: query.transmission,
    fuel: query.fuel,
    features: [...new Set(query.features.map(canonicalFeature))],
    minPriceCents: query.minPrice !== undefined ? Math.round(query.minPrice * 100) : undefined,
    maxPriceCents: query.maxPrice !== undefined ? Math.round(query.maxPrice * 100) : undefined,
    pickupType: query.pickupType ?? 'ALL',
    window: start && end ? { start, end } : undefined,
    status: query.status,
    verificationStatus: query.verification_status,
    sort,
    origin,
    limit: query.limit,
    offset: (query.page - 1) * query.limit,
  };

  const load = async (): Promise<string> => {
    const { ids, total } = await repo.findCarPage(ctx.db, pageQuery);
    const records = await repo.findCarRecordsByIds(ctx.db, ids, todayDate);
    const page: CarPage = {
      cars: records.map((record) =>
        toCar(record, {
          isPrivileged: scope === 'all' && canManageCar(viewer, record),
          ...(origin ? { distanceKm: distanceKm(origin, record) } : {}),
        }),
      ),
      meta: { total, page: query.page, limit: query.limit },
    };
    return JSON.stringify({ success: true, data: page.cars, meta: page.meta });
  };
  // Public pages look the same to everyone, so they are shared for a few seconds.
  return scope === 'public' ? cachedPage(ctx, JSON.stringify(pageQuery), load) : { json: await load(), gzip: null };
}

// ---- Field normalisation shared by create and update ----
const canonical = (list: readonly string[], value: string) => list.find((v) => v.toLowerCase() === value.toLowerCase()) ?? value;

function listingError(failure: CarListingFailure): AppError {
  return badRequest(failure.message, failure.errors);
}

function newOptionId(prefix: 'pickup' | 'insurance'): string {
  return `${prefix}_${randomBytes(6).toString('hex')}`;
}

export function normalisePickupOptions(options: PickupOptionIn[]): StoredPickupOption[] {
  const seen = new Set<string>();
  return options.map((o) => {
    let id = o.id && o.id.startsWith('pickup_') && !seen.has(o.id) ? o.id : newOptionId('pickup');
    while (seen.has(id)) id = newOptionId('pickup');
    seen.add(id);
    return { id, name: o.name, address: o.address, additional_fee: o.additional_fee, type: o.type, available_times: o.available_times };
  });
}

export function normaliseInsuranceOptions(options: InsuranceOptionIn[]): StoredInsuranceOption[] {
  const seen = new Set<string>();
  return options.map((o) => {
    let id = o.id && o.id.startsWith('insurance_') && !seen.has(o.id) ? o.id : newOptionId('insurance');
    while (seen.has(id)) id = newOptionId('insurance');
    seen.add(id);
    return {
      id,
      name: o.name,
      description: o.description,
      daily_rate: o.daily_rate,
      excess_amount: o.excess_amount,
      coverage: o.coverage,
      included: o.included,
      popular: o.popular,
      recommended: o.recommended,
    };
  });
}

function mergeSpecifications(current: StoredSpecifications, body: NewCarInput | UpdateCarInput): StoredSpecifications {
  const given = body.specifications ?? {};
  const next: StoredSpecifications = { ...current };
  const transmission = given.transmission ?? body.transmission;
  const fuelType = given.fuelType ?? body.fuel_type;
  const seats = given.seats ?? body.seating_capacity;
  if (transmission) next.transmission = canonical(WIZARD_TRANSMISSIONS, transmission);
  if (fuelType) next.fuelType = canonical(FUEL_TYPES, fuelType);
  if (seats !== undefined) next.seats = seats;
  if (given.doors !== undefined) next.doors = given.doors;
  if (given.engine !== undefined) next.engine = given.engine;
  if (given.fuelConsumption !== undefined) next.fuelConsumption = given.fuelConsumption;
  return next;
}

function positionOf(location: string, latitude: number | null | undefined, longitude: number | null | undefined) {
  const city = findBaseCity(location);
  if (city) return { pickup_location: city.name, latitude: city.latitude, longitude: city.longitude };
  const hasPin = latitude != null && longitude != null;
  return { pickup_location: location, latitude: hasPin ? latitude : null, longitude: hasPin ? longitude : null };
}

const json = (value: unknown) => JSON.stringify(value);

// ---- Create ----
async function generateCarUsername(ctx: AppContext, make: string, model: string): Promise<string> {
  for (let attempt = 0; attempt < 8; attempt++) {
    const digits = String(100000 + (randomBytes(4).readUInt32BE(0) % 900000));
    const candidate = buildCarUsername(make, model, digits);
    if (!(await repo.isCarUsernameTaken(ctx.db, candidate))) return candidate;
  }
  return buildCarUsername(make, model, randomBytes(6).toString('hex'));
}

export async function createCar(ctx: AppContext, viewer: UserRow, ownerIdOrUsername: string, body: NewCarInput): Promise<CarRecord> {
  const owner = await findUserByIdOrUsername(ctx.db, ownerIdOrUsername);
  if (!owner) throw notFound('User not found');
  if (owner.id !== viewer.id && !isAdmin(viewer)) throw forbidden('You can only list cars on your own account.');

  const settings = await getSettings(ctx);
  const currentYear = Number(today(ctx).slice(0, 4));
  const description = body.description || body.car_description || '';
  const images = body.images ?? body.car_images ?? [];
  const specifications = mergeSpecifications({ ...DEFAULT_SPECIFICATIONS }, body);
  const failure = validateCarListing(
    {
      ...body,
      car_year: body.car_year ?? currentYear,
      description,
      seats: specifications.seats,
      doors: specifications.doors,
      photoCount: images.length,
    },
    { minCarValue: settings.minCarValue, currentYear },
  );
  if (failure) throw listingError(failure);

  await ensurePlateFree(ctx, body.car_plate_number!);
  let carUsername: string;
  const proposed = body.car_username?.toLowerCase();
  if (proposed && CAR_USERNAME_PATTERN.test(proposed) && proposed.length >= 3) {
    if (await repo.isCarUsernameTaken(ctx.db, proposed)) {
      throw conflict('This car username is already taken', { car_username: 'This car username is already taken' });
    }
    carUsername = proposed;
  } else {
    carUsername = await generateCarUsername(ctx, body.car_make!, body.car_model!);
  }

  const id = randomUUID();
  const photos = planCarPhotos(id, images, []);
  const urls = await writeCarPhotos(ctx, photos);
  const now = ctx.clock.now();
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await repo.insertCar(trx, {
        id,
        car_username: carUsername,
        owner_id: owner.id,
        car_make: body.car_make!,
        car_model: body.car_model!,
        car_year: body.car_year ?? currentYear,
        car_color: canonical(CAR_COLOURS.map((c) => c.name), body.car_color!),
        car_type: canonical(CAR_TYPES, body.car_type!),
        car_plate_number: body.car_plate_number!.toUpperCase(),
        car_value_cents: Math.round(body.car_value! * 100),
        car_rent_price_cents: Math.round(body.car_rent_price! * 100),
        car_odometer: body.car_odometer ?? 0,
        description,
        images: json(urls),
        ...positionOf(body.pickup_location!, body.latitude, body.longitude),
        status: 'available',
        verification_status: 'pending_verification',
        admin_notes: null,
        specifications: json(specifications),
        features: json([...new Set((body.features ?? []).map(canonicalFeature))]),
        safety: json([...new Set((body.safety ?? []).map(canonicalFeature))]),
        rules: json(body.rules ?? []),
        pickup_options: json(normalisePickupOptions(body.pickup_options ?? [])),
        insurance_options: json(normaliseInsuranceOptions(body.insurance_options ?? [])),
        registration_storage_key: null,
        registration_filename: null,
        registration_mime: null,
        registration_uploaded_at: null,
        registration_verified: null,
        registration_verification_notes: null,
        rating: null,
        created_at: now,
        updated_at: now,
        deleted_at: null,
      });
      // Listing a first car is what makes a customer a host (decisions.md section 1).
      if (owner.role === 'customer') {
        await trx
          .updateTable('users')
          .set({ role: 'host', user_type: 'host', host_since: owner.host_since ?? now, updated_at: now })
          .where('id', '=', owner.id)
          .execute();
      }
    });
  } catch (error) {
    await removeCarPhotos(ctx, urls);
    if (repo.isPlateViolation(error)) throw plateTaken();
    throw error;
  }
  invalidateCarListings(ctx);
  return reload(ctx, id);
}

// ---- Update ----
const IDENTITY_FIELDS = ['car_make', 'car_model', 'car_year', 'car_plate_number'] as const;

export async function updateCar(
  ctx: AppContext,
  viewer: UserRow,
  idOrUsername: string,
  body: UpdateCarInput,
): Promise<{ car: CarRecord; message: string }> {
  const car = await findManageableCar(ctx, viewer, idOrUsername);
  const settings = await getSettings(ctx);
  const currentYear = Number(today(ctx).slice(0, 4));
  const changes: CarUpdate = {};
  let message = 'Car updated successfully';

  if (body.status !== undefined && body.status !== car.status) {
    if (car.rented_by || car.status === 'rented' || car.status === 'active') {
      throw conflict('This car is on a rental right now; its status changes when it is returned.');
    }
    changes.status = body.status;
    message = `Car is now set to ${body.status}.`;
  }

  const text = (value: string | undefined, current: string) => (value !== undefined && value !== current ? value : undefined);
  const make = text(body.car_make, car.car_make);
  const model = text(body.car_model, car.car_model);
  const plate = body.car_plate_number !== undefined ? text(body.car_plate_number.toUpperCase(), car.car_plate_number) : undefined;
  const colour = body.car_color !== undefined ? text(canonical(CAR_COLOURS.map((c) => c.name), body.car_color), car.car_color) : undefined;
  const type = body.car_type !== undefined ? text(canonical(CAR_TYPES, body.car_type), car.car_type) : undefined;
  const descriptionValue = body.description ?? body.car_description;
  const description = text(descriptionValue, car.description);
  const specifications = mergeSpecifications(car.specifications ?? {}, body);

  const merged = {
    car_make: make ?? car.car_make,
    car_model: model ?? car.car_model,
    car_type: type ?? car.car_type,
    car_color: colour ?? car.car_color,
    car_plate_number: plate ?? car.car_plate_number,
    car_rent_price: body.car_rent_price ?? car.car_rent_price_cents / 100,
    car_value: body.car_value ?? car.car_value_cents / 100,
    car_year: body.car_year ?? car.car_year,
    description: description ?? car.description,
    pickup_location: body.pickup_location ?? car.pickup_location,
    seats: specifications.seats ?? null,
    doors: specifications.doors ?? null,
    photoCount: (body.images ?? body.car_images)?.length,
  };
  // A listed car keeps its value when the minimum is raised later; the minimum applies to a new value.
  const failure =
    validateCarListing(merged, { minCarValue: body.car_value !== undefined ? settings.minCarValue : 0, currentYear }) ??
    validateCarLimits(merged, { minCarValue: body.car_value !== undefined ? settings.minCarValue : 0, currentYear });
  if (failure) throw listingError(failure);

  if (make !== undefined) changes.car_make = make;
  if (model !== undefined) changes.car_model = model;
  if (plate !== undefined && plate !== car.car_plate_number) {
    await ensurePlateFree(ctx, plate, car.id);
    changes.car_plate_number = plate;
  }
  if (colour !== undefined) changes.car_color = colour;
  if (type !== undefined) changes.car_type = type;
  if (description !== undefined) changes.description = description;
  if (body.car_year !== undefined && body.car_year !== car.car_year) changes.car_year = body.car_year;
  if (body.car_value !== undefined) changes.car_value_cents = Math.round(body.car_value * 100);
  if (body.car_rent_price !== undefined) changes.car_rent_price_cents = Math.round(body.car_rent_price * 100);
  if (body.car_odometer !== undefined) changes.car_odometer = body.car_odometer;
  if (body.pickup_location !== undefined || body.latitude !== undefined || body.longitude !== undefined) {
    Object.assign(
      changes,
      positionOf(body.pickup_location ?? car.pickup_location, body.latitude ?? car.latitude, body.longitude ?? car.longitude),
    );
  }
  if (JSON.stringify(specifications) !== JSON.stringify(car.specifications ?? {})) changes.specifications = json(specifications);
  if (body.features !== undefined) changes.features = json([...new Set(body.features.map(canonicalFeature))]);
  if (body.safety !== undefined) changes.safety = json([...new Set(body.safety.map(canonicalFeature))]);
  if (body.rules !== undefined) changes.rules = json(body.rules);
  if (body.pickup_options !== undefined) changes.pickup_options = json(normalisePickupOptions(body.pickup_options));
  if (body.insurance_options !== undefined) changes.insurance_options = json(normaliseInsuranceOptions(body.insurance_options));

  // Changing what the car is, or editing a rejected car, sends it back to the admins.
  const identityChanged = IDENTITY_FIELDS.some((f) => f in changes);
  if (!isAdmin(viewer) && (identityChanged || car.verification_status === 'rejected') && Object.keys(changes).some((k) => k !== 'status')) {
    if (car.verification_status !== 'pending_verification') {
      changes.verification_status = 'pending_verification';
      message = 'Car updated. It will be listed again once an administrator verifies the changes.';
    }
  }

  const images = body.images ?? body.car_images;
  let removed: string[] = [];
  if (images !== undefined) {
    const current = car.images ?? [];
    const urls = await writeCarPhotos(ctx, planCarPhotos(car.id, images, current));
    if (JSON.stringify(urls) !== JSON.stringify(current)) changes.images = json(urls);
    removed = current.filter((url) => !urls.includes(url));
  }

  if (Object.keys(changes).length === 0) return { car, message };
  try {
    await repo.updateCar(ctx.db, car.id, changes, ctx.clock.now());
  } catch (error) {
    if (repo.isPlateViolation(error)) throw plateTaken();
    throw error;
  }
  await removeCarPhotos(ctx, removed);
  invalidateCarListings(ctx);
  return { car: await reload(ctx, car.id), message };
}

export async function updateRentPrice(ctx: AppContext, viewer: UserRow, idOrUsername: string, price: number): Promise<CarRecord> {
  const car = await findManageableCar(ctx, viewer, idOrUsername);
  await repo.updateCar(ctx.db, car.id, { car_rent_price_cents: Math.round(price * 100) }, ctx.clock.now());
  invalidateCarListings(ctx);
  return reload(ctx, car.id);
}

export async function updatePickupLocation(
  ctx: AppContext,
  viewer: UserRow,
  idOrUsername: string,
  body: { pickup_location: string; latitude?: number | null; longitude?: number | null },
): Promise<CarRecord> {
  const car = await findManageableCar(ctx, viewer, idOrUsername);
  await repo.updateCar(ctx.db, car.id, positionOf(body.pickup_location, body.latitude, body.longitude), ctx.clock.now());
  invalidateCarListings(ctx);
  return reload(ctx, car.id);
}

export async function updatePickupOptions(ctx: AppContext, viewer: UserRow, idOrUsername: string, options: PickupOptionIn[]): Promise<CarRecord> {
  const car = await findManageableCar(ctx, viewer, idOrUsername);
  await repo.updateCar(ctx.db, car.id, { pickup_options: json(normalisePickupOptions(options)) }, ctx.clock.now());
  invalidateCarListings(ctx);
  return reload(ctx, car.id);
}

export async function updateInsuranceOptions(
  ctx: AppContext,
  viewer: UserRow,
  idOrUsername: string,
  options: InsuranceOptionIn[],
): Promise<CarRecord> {
  const car = await findManageableCar(ctx, viewer, idOrUsername);
  await repo.updateCar(ctx.db, car.id, { insurance_options: json(normaliseInsuranceOptions(options)) }, ctx.clock.now());
  invalidateCarListings(ctx);
  return reload(ctx, car.id);
}

// ---- Delete ----
const CAR_REMOVED_REASON = 'Cancelled because the car was removed from Karoo';

/** A car taken off Karoo and the bookings that went with it, for telling the renters after the commit. */
export interface RemovedCar {
  car: Pick<CarRow, 'id' | 'car_make' | 'car_model'>;
  cancelled: BookingRow[];
}

/**
 * Takes cars off Karoo inside the caller's transaction (decisions.md section 4): refused while a
 * rental is under way in any of them; pending and unpaid confirmed bookings are cancelled;
 * completed and paid bookings, invoices and reviews stay for the records. The one path for
 * deleting a car and for deleting its owner.
 */
async function removeCarsInTransaction(trx: Db, cars: Pick<CarRow, 'id' | 'car_make' | 'car_model'>[], now: Date, activeMessage: string): Promise<RemovedCar[]> {
  const removed: RemovedCar[] = [];
  for (const car of cars) {
    if (await bookingsRepo.hasActiveBooking(trx, { carId: car.id })) throw conflict(activeMessage);
    const cancelled = await bookingsRepo.cancelUnpaidBookings(trx, { carId: car.id }, CAR_REMOVED_REASON, now);
    await repo.updateCar(trx, car.id, { deleted_at: now, status: 'offline' }, now);
    removed.push({ car, cancelled });
  }
  return removed;
}

/** Removes every car of an owner whose account is being closed, inside the caller's transaction. */
export async function removeOwnerCarsInTransaction(trx: Db, ownerId: string, now: Date): Promise<RemovedCar[]> {
  const cars = await repo.findOwnerCarRows(trx, ownerId);
  return removeCarsInTransaction(trx, cars, now, 'This user has a rental under way in one of their cars; return it before deleting the account.');
}

/** After the commit: the browse lists forget the cars, and each renter whose booking went is told. */
export async function afterCarsRemoved(ctx: AppContext, removed: RemovedCar[]): Promise<void> {
  if (removed.length === 0) return;
  invalidateCarListings(ctx);
  for (const { car, cancelled } of removed) {
    for (const booking of cancelled) {
      await notify(ctx, booking.renter_id, {
        type: 'booking_cancelled',
        title: 'Booking cancelled',
        message: `Your booking of the ${car.car_make} ${car.car_model} (${formatDateRange(booking.start_date, booking.end_date)}) was cancelled because the car is no longer listed.`,
        link: '/my-bookings',
      });
    }
  }
}

export async function deleteCar(ctx: AppContext, viewer: UserRow, idOrUsername: string): Promise<{ cancelled: number }> {
  const car = await findManageableCar(ctx, viewer, idOrUsername);
  const now = ctx.clock.now();
  const removed = await ctx.db
    .transaction()
    .execute((trx) => removeCarsInTransaction(trx, [car], now, 'This car has an active rental and cannot be deleted until it is returned.'));
  await afterCarsRemoved(ctx, removed);
  return { cancelled: removed.reduce((sum, r) => sum + r.cancelled.length, 0) };
}

// ---- Returns ----
function parseReturnDate(value: string | undefined, now: Date): Date {
  if (!value) return now;
  return /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T12:00:00+02:00`) : new Date(value);
}

/**
 * The owner (or an admin) marks the current rental returned: the active booking that has started
 * becomes completed with the return details, and the car is available again.
 */
export async function returnCar(ctx: AppContext, viewer: UserRow, idOrUsername: string, body: ReturnCarInput): Promise<CarRecord> {
  const car = await findManageableCar(ctx, viewer, idOrUsername);
  const now = ctx.clock.now();
  const odometer = body.odometer_reading ?? null;
  if (odometer !== null && odometer < car.car_odometer) {
    throw badRequest(`The odometer reading cannot be less than the car's current odometer (${car.car_odometer} km).`, {
      odometer_reading: 'Must not be less than the current odometer',
    });
  }
  const completed = await ctx.db.transaction().execute(async (trx) => {
    const active = await repo.findStartedActiveBookings(trx, car.id, today(ctx));
    if (active.length === 0) throw conflict('This car has no rental to return.');
    const rows = await bookingsRepo.completeBookings(
      trx,
      active.map((b) => b.id),
      {
        actual_return_date: parseReturnDate(body.actual_return_date, now),
        condition_notes: body.condition_notes || DEFAULT_RETURN_NOTES,
        odometer_reading: odometer,
      },
      now,
    );
    await repo.updateCar(trx, car.id, { status: 'available', ...(odometer !== null ? { car_odometer: odometer } : {}) }, now);
    return rows;
  });
  invalidateCarListings(ctx);
  for (const booking of completed) await notifyTripCompleted(ctx, booking.renter_id, car);
  return reload(ctx, car.id);
}

async function notifyTripCompleted(ctx: AppContext, renterId: string, car: CarRecord) {
  await notify(ctx, renterId, {
    type: 'trip_completed',
    title: 'Trip completed',
    message: `Your trip in the ${car.car_make} ${car.car_model} is complete. How was it? Leave a review for ${car.owner_full_name}.`,
    link: '/my-bookings',
  });
}

/** An admin ends a rental at once (document 3): its active bookings that have started complete. */
export async function forceReturn(
  ctx: AppContext,
  idOrUsername: string,
  reason: string | undefined,
): Promise<{ affected_bookings: number; car: CarRecord }> {
  const car = await repo.findCarRecord(ctx.db, idOrUsername, today(ctx));
  if (!car) throw notFound(CAR_NOT_FOUND);
  const now = ctx.clock.now();
  const note = reason ? `Force returned by an administrator: ${reason}` : 'Force returned by an administrator';
  const completed = await ctx.db.transaction().execute(async (trx) => {
    const active = await repo.findStartedActiveBookings(trx, car.id, today(ctx));
    if (active.length === 0 && car.status !== 'rented' && car.status !== 'active') {
      throw conflict('This car has no active rental to end.');
    }
    const rows = await bookingsRepo.completeBookings(
      trx,
      active.map((b) => b.id),
      { actual_return_date: now, condition_notes: note, odometer_reading: null },
      now,
    );
    await repo.updateCar(trx, car.id, { status: 'available' }, now);
    return rows;
  });
  invalidateCarListings(ctx);
  const name = `${car.car_make} ${car.car_model}`;
  for (const booking of completed) {
    await notify(ctx, booking.renter_id, {
      type: 'force_return',
      title: 'Rental ended by Karoo',
      message: `An administrator ended your rental of the ${name}${reason ? `: ${reason}` : '.'}`,
      link: '/my-bookings',
    });
  }
  if (completed.length > 0) {
    await notify(ctx, car.owner_id, {
      type: 'force_return',
      title: 'Rental ended by Karoo',
      message: `An administrator ended the current rental of your ${name}${reason ? `: ${reason}` : '.'} The car is available again.`,
      link: '/host-dashboard',
    });
  }
  return { affected_bookings: completed.length, car: await reload(ctx, car.id) };
}

// ---- Verification ----
export async function verifyCar(ctx: AppContext, idOrUsername: string, body: VerifyCarInput): Promise<CarRecord> {
  const car = await repo.findCarRecord(ctx.db, idOrUsername, today(ctx));
  if (!car) throw notFound(CAR_NOT_FOUND);
  if (car.verification_status === body.verification_status) {
    throw conflict(`This car is already ${body.verification_status.replace('_', ' ')}.`);
  }
  await repo.updateCar(ctx.db, car.id, { verification_status: body.verification_status, admin_notes: body.admin_notes || null }, ctx.clock.now());
  invalidateCarListings(ctx);
  const name = `${car.car_make} ${car.car_model}`;
  if (body.verification_status === 'verified') {
    await notify(ctx, car.owner_id, {
      type: 'car_verified',
      title: 'Car verified',
      message: `Your ${name} has been verified and is now listed on Karoo.`,
      link: '/host-dashboard',
    });
  } else if (body.verification_status === 'rejected') {
    await notify(ctx, car.owner_id, {
      type: 'car_rejected',
      title: 'Car not approved',
      message: `Your ${name} was not approved: ${body.admin_notes}. Update the listing to send it for verification again.`,
      link: '/host-dashboard',
    });
  }
  return reload(ctx, car.id);
}

// ---- Registration documents ----
export async function uploadRegistrationDocument(
  ctx: AppContext,
  viewer: UserRow,
  idOrUsername: string,
  file: { buffer: Buffer; filename: string },
): Promise<CarRecord> {
  const car = await repo.findCarRecord(ctx.db, idOrUsername, today(ctx));
  if (!car || !canManageCar(viewer, car)) throw notFound(CAR_NOT_FOUND);
  if (car.owner_id !== viewer.id) throw forbidden('Only the car owner can upload its registration document.');
  if (car.registration_storage_key && car.registration_verified === true) {
    throw conflict('The registration document is already verified.');
  }
  if (car.registration_storage_key && car.registration_verified === null) {
    throw conflict('A registration document is already awaiting verification.');
  }
  const detected = detectFileType(file.buffer);
  if (!detected || !(DOCUMENT_MIME_TYPES as readonly string[]).includes(detected.mime)) {
    throw new AppError(415, 'Only JPEG, PNG, and PDF files are allowed');
  }
  const key = `cars/${car.id}/registration-${randomBytes(8).toString('hex')}.${detected.ext}`;
  await ctx.privateFiles.put(key, file.buffer);
  await repo.updateCar(
    ctx.db,
    car.id,
    {
      registration_storage_key: key,
      registration_filename: file.filename.replace(/[^\w.\- ]+/g, '_').slice(0, 120) || `registration.${detected.ext}`,
      registration_mime: detected.mime,
      registration_uploaded_at: ctx.clock.now(),
      registration_verified: null,
      registration_verification_notes: null,
    },
    ctx.clock.now(),
  );
  if (car.registration_storage_key) await ctx.privateFiles.remove(car.registration_storage_key);
  return reload(ctx, car.id);
}

export async function verifyRegistrationDocument(
  ctx: AppContext,
  idOrUsername: string,
  body: { verified: boolean; notes?: string },
): Promise<CarRecord> {
  const car = await repo.findCarRecord(ctx.db, idOrUsername, today(ctx));
  if (!car) throw notFound(CAR_NOT_FOUND);
  if (!car.registration_storage_key) throw notFound('No registration document has been uploaded for this car.');
  if (car.registration_verified === true) throw conflict('The registration document is already verified.');
  await repo.updateCar(
    ctx.db,
    car.id,
    { registration_verified: body.verified, registration_verification_notes: body.notes || null },
    ctx.clock.now(),
  );
  const name = `${car.car_make} ${car.car_model}`;
  await notify(
    ctx,
    car.owner_id,
    body.verified
      ? {
          type: 'registration_verified',
          title: 'Registration document verified',
          message: `The registration document of your ${name} has been verified.`,
          link: '/host-dashboard',
        }
      : {
          type: 'registration_rejected',
          title: 'Registration document rejected',
          message: `The registration document of your ${name} was rejected${body.notes ? `: ${body.notes}` : '.'} Please upload a new one.`,
          link: '/host-dashboard',
        },
  );
  return reload(ctx, car.id);
}

export async function readRegistrationDocument(ctx: AppContext, viewer: UserRow, idOrUsername: string) {
  const car = await findManageableCar(ctx, viewer, idOrUsername);
  const data = car.registration_storage_key ? await ctx.privateFiles.read(car.registration_storage_key) : null;
  if (!car.registration_storage_key || !data) throw notFound('Document not found');
  return { car, data, mime: car.registration_mime ?? 'application/octet-stream' };
}

// ---- Public reads ----
export async function availability(ctx: AppContext, viewer: UserRow | null, idOrUsername: string, from?: string, to?: string) {
  const car = await findVisibleCar(ctx, viewer, idOrUsername);
  const rows = await repo.findHoldingBookings(ctx.db, car.id, from ?? today(ctx), to);
  return rows.map((r) => ({ start_date: r.start_date, end_date: r.end_date, status: r.status as 'pending' | 'confirmed' | 'active' }));
}

/** The public profile of a car's owner; `{id}` is a car (id or car_username) or a host (id or username). */
export async function ownerProfile(ctx: AppContext, viewer: UserRow | null, idOrUsername: string) {
  const car = await repo.findCarRecord(ctx.db, idOrUsername, today(ctx));
  let owner: UserRow | undefined;
  if (car && (isPubliclyVisible(car) || canManageCar(viewer, car))) {
    owner = await findUserByIdOrUsername(ctx.db, car.owner_id);
  } else {
    const user = await findUserByIdOrUsername(ctx.db, idOrUsername);
    if (user && (user.role === 'host' || (await repo.countOwnerCars(ctx.db, user.id, false)) > 0)) owner = user;
  }
  if (!owner) throw notFound('Host not found');
  return {
    id: owner.id,
    username: owner.username,
    full_name: owner.full_name,
    rating: owner.rating == null ? null : Number(owner.rating),
    host_since: owner.host_since ? new Date(owner.host_since).toISOString() : null,
    total_cars: await repo.countOwnerCars(ctx.db, owner.id, true),
  };
}
