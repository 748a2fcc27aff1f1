// Cars (document 2; decisions.md sections 1 and 4): who may see and change a car, listing one
// (which makes its owner a host), fleet management (availability, price, pickup and insurance
// options) and taking cars off Karoo. Browsing is car-browse.service.ts, admins' decisions
// car-verification.service.ts, the stored shape of fields car-fields.ts; returns complete a
// booking, so they live in the bookings module (returns.service.ts).
import { randomBytes, randomUUID } from 'node:crypto';
import {
  defaultDepositCents,
  depositRefusal,
  type TripChargeSettings,
  buildCarUsername,
  CAR_COLOURS,
  CAR_TYPES,
  CAR_USERNAME_PATTERN,
  canonicalFeature,
  DEFAULT_SPECIFICATIONS,
  isAdmin,
  mayKnowExactPlace,
  todayIn,
  validateCarLimits,
  validateCarListing,
  type Car,
  isListedCar,
} from '@karoo/shared';
import type { newCarBodySchema, updateCarBodySchema } from '@karoo/shared';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import type { Db } from '../../db/connection';
import type { CarRow, CarUpdate, UserRow } from '../../db/schema';
import { inTransaction, type DomainEvent, type Tx } from '../../events/domain-events';
import { badRequest, conflict, forbidden, notFound } from '../../lib/app-error';
import { requireCurrentPolicies } from '../privacy';
import { getSettings } from '../settings';
import { findUser, makeHost } from '../users';
import type { CarRef, CarRemovalCause } from './cars.events';
import { canonical, json, listingError, mergeSpecifications, normaliseInsuranceOptions, normalisePickupOptions, positionOf, type InsuranceOptionIn, type PickupOptionIn } from './car-fields';
import { planCarPhotos, removeCarPhotos, writeCarPhotos } from './car-photos';
import { enqueuePhotoConversion, forgetPhotoVariants } from './car-photos.job';
import { toCar } from './cars.mapper';
import * as repo from './cars.repository';
import type { CarRecord } from './cars.repository';

export type { CarRecord };

type NewCarInput = z.output<typeof newCarBodySchema>;
type UpdateCarInput = z.output<typeof updateCarBodySchema>;

export const CAR_NOT_FOUND = 'Car not found';
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

/** The car behind `{id}` as this viewer may see it; 404 otherwise. */
export async function findVisibleCar(ctx: AppContext, viewer: UserRow | null, idOrUsername: string): Promise<CarRecord> {
  const car = await repo.findCarRecord(ctx.db, idOrUsername, today(ctx));
  // Listed cars are public; offline, maintenance, unverified and rejected cars only to their owner and admins.
  if (!car || (!isListedCar(car) && !canManageCar(viewer, car))) throw notFound(CAR_NOT_FOUND);
  return car;
}

/** The car behind `{id}` if the viewer owns it or is an admin; anyone else gets 404. */
export async function findManageableCar(ctx: AppContext, viewer: UserRow, idOrUsername: string): Promise<CarRecord> {
  const car = await repo.findCarRecord(ctx.db, idOrUsername, today(ctx));
  if (!car || !canManageCar(viewer, car)) throw notFound(CAR_NOT_FOUND);
  return car;
}

/**
 * The car as this viewer may see it. `hasPaidTrip`: the viewer is the renter of a paid trip of the
 * car, which lets them know its exact place and plate (mayKnowExactPlace, decision 055).
 */
export function viewCar(viewer: UserRow | null, car: CarRecord, hasPaidTrip = false): Car {
  return toCar(car, { isPrivileged: canManageCar(viewer, car), exactPlace: mayKnowExactPlace(viewer, car, hasPaidTrip) });
}

/** Whether a renter has a paid trip of a car: the bookings module's fact, passed in when the app is built (app.ts). */
export type PaidTripOf = (db: Db, carId: string, renterId: string) => Promise<boolean>;

/** Whether this viewer may know the car's exact place and plate, asking the bookings module only for a signed-in stranger to the car. */
export async function knowsExactPlace(ctx: AppContext, viewer: UserRow | null, car: CarRecord, paidTripOf: PaidTripOf): Promise<boolean> {
  if (!viewer) return false;
  return mayKnowExactPlace(viewer, car, !canManageCar(viewer, car) && (await paidTripOf(ctx.db, car.id, viewer.id)));
}

export async function reload(ctx: AppContext, id: string): Promise<CarRecord> {
  const car = await repo.findCarRecord(ctx.db, id, today(ctx));
  if (!car) throw notFound(CAR_NOT_FOUND);
  return car;
}

// ---- Events ----
/** A car as events and notices name it. */
export function carRef(car: Pick<CarRow, 'id' | 'car_username' | 'car_make' | 'car_model' | 'owner_id'>): CarRef {
  return { id: car.id, car_username: car.car_username, car_make: car.car_make, car_model: car.car_model, owner_id: car.owner_id };
}

/** Writes changes to a car and announces them (browse pages forget it; an admin's change is audited). */
export async function saveCar(
  ctx: AppContext,
  by: UserRow | null,
  car: CarRow,
  changes: CarUpdate,
  event?: DomainEvent,
  alsoInTransaction?: (tx: Tx) => Promise<unknown>,
): Promise<void> {
  await inTransaction(
    ctx,
    async (tx) => {
      await repo.updateCar(tx.db, car.id, changes, tx.now);
      await alsoInTransaction?.(tx);
      tx.emit(event ?? { type: 'car.changed', car: carRef(car), ...beforeAndAfter(car, changes) });
    },
    { by },
  );
}

/** The changed columns' values before and after, for the audit log (photos and JSON lists by count). */
function beforeAndAfter(car: CarRow, changes: CarUpdate): { before: Record<string, unknown>; after: Record<string, unknown> } {
  const show = (value: unknown) => (value instanceof Date ? value.toISOString() : typeof value === 'string' && value.startsWith('[') ? `${(JSON.parse(value) as unknown[]).length} items` : (value ?? null));
  const keys = Object.keys(changes).filter((key) => key !== 'updated_at');
  return {
    before: Object.fromEntries(keys.map((key) => [key, show(Array.isArray(car[key as keyof CarRow]) ? JSON.stringify(car[key as keyof CarRow]) : car[key as keyof CarRow])])),
    after: Object.fromEntries(keys.map((key) => [key, show(changes[key as keyof CarUpdate])])),
  };
}

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
  const owner = await findUser(ctx, ownerIdOrUsername);
  if (!owner) throw notFound('User not found');
  if (owner.id !== viewer.id && !isAdmin(viewer)) throw forbidden('You can only list cars on your own account.');
  // Listing a car binds its host to the terms in force (decision 049); an administrator listing for a
  // member is not asked, and the member is at their next sign-in.
  if (owner.id === viewer.id) await requireCurrentPolicies(ctx.db, owner);

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
  const photos = await planCarPhotos(id, images, []);
  const urls = await writeCarPhotos(ctx, photos);
  try {
    await inTransaction(ctx, async (tx) => {
      const now = tx.now;
      const trx = tx.db;
      const inserted = await repo.insertCar(trx, {
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
        ...tripTermsOf(body, settings.trip_charges, Math.round(body.car_value! * 100)),
        description,
        images: json(urls),
        ...positionOf(body.pickup_location!, body.latitude, body.longitude),
        status: 'available',
        verification_status: 'pending_verification',
        specifications: json(specifications),
        features: json([...new Set((body.features ?? []).map(canonicalFeature))]),
        safety: json([...new Set((body.safety ?? []).map(canonicalFeature))]),
        rules: json(body.rules ?? []),
        pickup_options: json(normalisePickupOptions(body.pickup_options ?? [])),
        insurance_options: json(normaliseInsuranceOptions(body.insurance_options ?? [])),
        created_at: now,
        updated_at: now,
      });
      // Listing a first car is what makes a customer a host (decisions.md section 1).
      if (owner.role === 'customer') await makeHost(trx, owner, now);
      // Its photos' widths and formats are made on the job queue (decision 045).
      if (urls.length > 0) await enqueuePhotoConversion(ctx, tx, id);
      tx.emit({ type: 'car.changed', car: carRef(inserted) });
    });
  } catch (error) {
    await removeCarPhotos(ctx, urls);
    if (repo.isPlateViolation(error)) throw plateTaken();
    throw error;
  }
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
    if (car.rented_by) {
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
  Object.assign(changes, tripTermsOf(body, settings.trip_charges, null));
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
  let added = false;
  if (images !== undefined) {
    const current = car.images ?? [];
    const urls = await writeCarPhotos(ctx, await planCarPhotos(car.id, images, current));
    if (JSON.stringify(urls) !== JSON.stringify(current)) changes.images = json(urls);
    removed = current.filter((url) => !urls.includes(url));
    added = urls.some((url) => !current.includes(url));
  }

  if (Object.keys(changes).length === 0) return { car, message };
  try {
    await saveCar(ctx, viewer, car, changes, undefined, async (tx) => {
      // New photos get their widths and formats on the job queue; dropped ones lose their entries.
      if (added) await enqueuePhotoConversion(ctx, tx, car.id);
      if (removed.length > 0) await forgetPhotoVariants(tx.db, car.id, removed);
    });
  } catch (error) {
    if (repo.isPlateViolation(error)) throw plateTaken();
    throw error;
  }
  await removeCarPhotos(ctx, removed, car.photo_variants);
  return { car: await reload(ctx, car.id), message };
}

export async function updateRentPrice(ctx: AppContext, viewer: UserRow, idOrUsername: string, price: number): Promise<CarRecord> {
  const car = await findManageableCar(ctx, viewer, idOrUsername);
  await saveCar(ctx, viewer, car, { car_rent_price_cents: Math.round(price * 100) });
  return reload(ctx, car.id);
}

export async function updatePickupLocation(
  ctx: AppContext,
  viewer: UserRow,
  idOrUsername: string,
  body: { pickup_location: string; latitude?: number | null; longitude?: number | null },
): Promise<CarRecord> {
  const car = await findManageableCar(ctx, viewer, idOrUsername);
  await saveCar(ctx, viewer, car, positionOf(body.pickup_location, body.latitude, body.longitude));
  return reload(ctx, car.id);
}

export async function updatePickupOptions(ctx: AppContext, viewer: UserRow, idOrUsername: string, options: PickupOptionIn[]): Promise<CarRecord> {
  const car = await findManageableCar(ctx, viewer, idOrUsername);
  await saveCar(ctx, viewer, car, { pickup_options: json(normalisePickupOptions(options)) });
  return reload(ctx, car.id);
}

export async function updateInsuranceOptions(
  ctx: AppContext,
  viewer: UserRow,
  idOrUsername: string,
  options: InsuranceOptionIn[],
): Promise<CarRecord> {
  const car = await findManageableCar(ctx, viewer, idOrUsername);
  await saveCar(ctx, viewer, car, { insurance_options: json(normaliseInsuranceOptions(options)) });
  return reload(ctx, car.id);
}

// ---- Delete ----
/**
 * Takes cars off Karoo in the caller's unit of work (decisions.md section 4). The bookings module
 * acts on `car.removing` before the car goes: it refuses (409) while a rental is under way and
 * cancels pending and unpaid confirmed bookings (their renters are told); completed and paid
 * bookings, invoices and reviews stay for the records. The one path for deleting a car and for
 * deleting its owner. Returns how many bookings were cancelled.
 */
async function removeCars(tx: Tx, cars: CarRow[], cause: CarRemovalCause): Promise<number> {
  let cancelled = 0;
  for (const car of cars) {
    const raised = tx.events.length;
    await tx.dispatch({ type: 'car.removing', car: carRef(car), cause });
    const gone = tx.events.slice(raised).filter((event) => event.type === 'booking.cancelled').length;
    cancelled += gone;
    await repo.updateCar(tx.db, car.id, { deleted_at: tx.now, status: 'offline' }, tx.now);
    tx.emit({ type: 'car.removed', car: carRef(car), cancelledBookings: gone });
  }
  return cancelled;
}

/**
 * An account being closed (data-protection's deletion, first of its steps): every car of its owner
 * leaves Karoo in the closing unit of work, their bookings with them (car.removing).
 */
export async function removeOwnerCars(tx: Tx, user: { id: string }): Promise<void> {
  const cars = await repo.findOwnerCarRows(tx.db, user.id);
  await removeCars(tx, cars, 'owner_closed');
}

export async function deleteCar(ctx: AppContext, viewer: UserRow, idOrUsername: string): Promise<{ cancelled: number }> {
  const car = await findManageableCar(ctx, viewer, idOrUsername);
  const cancelled = await inTransaction(ctx, (tx) => removeCars(tx, [car], 'car_deleted'), { by: viewer });
  return { cancelled };
}

// ---- Ratings (the reviews module computes them; the car's columns are written here) ----
/** A car's rating and review count, in the caller's transaction. */
export async function recordCarRating(db: Db, carId: string, { rating, total }: { rating: number | null; total: number }): Promise<void> {
  await repo.setCarRating(db, carId, rating, total);
}

// ---- Returns (the bookings module completes the rental: its returns.service.ts) ----
/** After a return: the car is available again, with the odometer read at the return. */
export async function markCarReturned(tx: Tx, car: CarRow, odometer: number | null): Promise<void> {
  await repo.updateCar(tx.db, car.id, { status: 'available', ...(odometer !== null ? { car_odometer: odometer } : {}) }, tx.now);
}

/** A car by id or car_username, whatever its state (undefined when there is none): for other modules' rules. */
export function findCar(ctx: AppContext, idOrUsername: string): Promise<CarRecord | undefined> {
  return repo.findCarRecord(ctx.db, idOrUsername, today(ctx));
}

/** A car by id or car_username for an administrator, whatever its state (404 when there is none). */
export async function findCarForAdmin(ctx: AppContext, idOrUsername: string): Promise<CarRecord> {
  const car = await repo.findCarRecord(ctx.db, idOrUsername, today(ctx));
  if (!car) throw notFound(CAR_NOT_FOUND);
  return car;
}


/**
 * The trip terms a listing's body sets (decision 064): the deposit (R 0, or within the admin's
 * bounds; a new listing without one gets the default for its value), tank size, daily km and km rate.
 */
function tripTermsOf(
  body: { deposit?: number | undefined; tank_litres?: number | null | undefined; distance_allowance_km?: number | null | undefined; extra_km_rate?: number | undefined },
  s: TripChargeSettings,
  newCarValueCents: number | null,
): { deposit_cents?: number; tank_litres?: number | null; distance_allowance_km?: number | null; extra_km_rate_cents?: number } {
  const terms: ReturnType<typeof tripTermsOf> = {};
  if (body.deposit !== undefined) {
    const cents = Math.round(body.deposit * 100);
    const refusal = depositRefusal(cents, s);
    if (refusal) throw badRequest(refusal, { deposit: refusal });
    terms.deposit_cents = cents;
  } else if (newCarValueCents !== null) terms.deposit_cents = defaultDepositCents(newCarValueCents, s);
  if (body.tank_litres !== undefined) terms.tank_litres = body.tank_litres;
  if (body.distance_allowance_km !== undefined) terms.distance_allowance_km = body.distance_allowance_km;
  if (body.extra_km_rate !== undefined) terms.extra_km_rate_cents = Math.round(body.extra_km_rate * 100);
  return terms;
}
