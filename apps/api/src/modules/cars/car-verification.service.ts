// What administrators decide about a car (document 2 registration document panel; document 3 cars
// tab): verifying or rejecting the car itself, and the registration document the owner uploads,
// which is private (decisions.md section 9).
import { randomBytes } from 'node:crypto';
import { carVerificationBlocker, carVerificationGaps, type verifyCarBodySchema } from '@karoo/shared';
import type { z } from 'zod';
import type { AppContext } from '../../context';
import type { UserRow } from '../../db/schema';
import type { DomainEvent } from '../../events/domain-events';
import { conflict, forbidden, notFound } from '../../lib/app-error';
import { prepareDocument } from '../../lib/uploads';
import { getSettings } from '../settings';
import type { RegistrationReview } from './cars.events';
import { toCar } from './cars.mapper';
import * as repo from './cars.repository';
import { CAR_NOT_FOUND, canManageCar, carRef, findCarForAdmin, findManageableCar, reload, saveCar, today, type CarRecord } from './cars.service';

type VerifyCarInput = z.output<typeof verifyCarBodySchema>;

export async function verifyCar(ctx: AppContext, admin: UserRow, idOrUsername: string, body: VerifyCarInput): Promise<CarRecord> {
  const car = await findCarForAdmin(ctx, idOrUsername);
  if (car.verification_status === body.verification_status) {
    throw conflict(`This car is already ${body.verification_status.replace('_', ' ')}.`);
  }
  if (body.verification_status === 'verified') await assertVerifiable(ctx, car);
  const ref = carRef(car);
  const event: DomainEvent =
    body.verification_status === 'verified'
      ? { type: 'car.verified', car: ref, before: car.verification_status }
      : body.verification_status === 'rejected'
        ? { type: 'car.rejected', car: ref, notes: body.admin_notes ?? '', before: car.verification_status }
        : { type: 'car.changed', car: ref, before: { verification_status: car.verification_status }, after: { verification_status: body.verification_status } };
  await saveCar(ctx, admin, car, { verification_status: body.verification_status, admin_notes: body.admin_notes || null }, event);
  return reload(ctx, car.id);
}

/**
 * Trust before access (decisions.md section 12; decision 033): a car is listed only with an
 * approved registration document, a photo and a listing that passes today's listing rules. The
 * same words show beside the admin panel's disabled Verify button.
 */
async function assertVerifiable(ctx: AppContext, car: CarRecord): Promise<void> {
  const settings = await getSettings(ctx);
  const gaps = carVerificationGaps(toCar(car, { isPrivileged: true }), { minCarValue: settings.minCarValue, currentYear: Number(today(ctx).slice(0, 4)) });
  const blocker = carVerificationBlocker(gaps);
  if (blocker) throw conflict(`${car.car_username}: ${blocker}`, Object.fromEntries(gaps.map((gap) => [gap.field, gap.message])));
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
  // Decoded, size-checked and stripped of metadata before anything is stored (decision 031).
  const detected = await prepareDocument(file, 'registrationDocument');
  const key = `cars/${car.id}/registration-${randomBytes(8).toString('hex')}.${detected.ext}`;
  await ctx.privateFiles.put(key, detected.data);
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
  admin: UserRow,
  idOrUsername: string,
  body: { verified: boolean; notes?: string },
): Promise<CarRecord> {
  const car = await findCarForAdmin(ctx, idOrUsername);
  if (!car.registration_storage_key) throw notFound('No registration document has been uploaded for this car.');
  if (car.registration_verified === true) throw conflict('The registration document is already verified.');
  const before: RegistrationReview = { registration_verified: car.registration_verified, registration_verification_notes: car.registration_verification_notes };
  const after: RegistrationReview = { registration_verified: body.verified, registration_verification_notes: body.notes || null };
  await saveCar(
    ctx,
    admin,
    car,
    after,
    body.verified
      ? { type: 'car.registration_verified', car: carRef(car), before, after }
      : { type: 'car.registration_rejected', car: carRef(car), notes: body.notes || null, before, after },
  );
  return reload(ctx, car.id);
}

export async function readRegistrationDocument(ctx: AppContext, viewer: UserRow, idOrUsername: string) {
  const car = await findManageableCar(ctx, viewer, idOrUsername);
  const data = car.registration_storage_key ? await ctx.privateFiles.read(car.registration_storage_key) : null;
  if (!car.registration_storage_key || !data) throw notFound('Document not found');
  return { car, data, mime: car.registration_mime ?? 'application/octet-stream' };
}

