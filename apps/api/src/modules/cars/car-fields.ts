// How a car's fields are stored, for create and update alike: options get stable ids, names take the
// catalogue's spelling, a base city gives the position, and the listing rules answer with their
// messages.
import { randomBytes } from 'node:crypto';
import {
  findBaseCity,
  FUEL_TYPES,
  WIZARD_TRANSMISSIONS,
  type CarListingFailure,
  type insuranceOptionInputSchema,
  type newCarBodySchema,
  type pickupOptionInputSchema,
  type updateCarBodySchema,
} from '@karoo/shared';
import type { z } from 'zod';
import type { StoredInsuranceOption, StoredPickupOption, StoredSpecifications } from '../../db/schema';
import { badRequest, type AppError } from '../../lib/app-error';
import { storedInsuranceOption, storedPickupOption } from './cars.mapper';

type NewCarInput = z.output<typeof newCarBodySchema>;
type UpdateCarInput = z.output<typeof updateCarBodySchema>;
export type PickupOptionIn = z.output<typeof pickupOptionInputSchema>;
export type InsuranceOptionIn = z.output<typeof insuranceOptionInputSchema>;

export const canonical = (list: readonly string[], value: string) => list.find((v) => v.toLowerCase() === value.toLowerCase()) ?? value;

export function listingError(failure: CarListingFailure): AppError {
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
    return storedPickupOption({ id, name: o.name, address: o.address, additional_fee: o.additional_fee, type: o.type, available_times: o.available_times });
  });
}

export function normaliseInsuranceOptions(options: InsuranceOptionIn[]): StoredInsuranceOption[] {
  const seen = new Set<string>();
  return options.map((o) => {
    let id = o.id && o.id.startsWith('insurance_') && !seen.has(o.id) ? o.id : newOptionId('insurance');
    while (seen.has(id)) id = newOptionId('insurance');
    seen.add(id);
    return storedInsuranceOption({
      id,
      name: o.name,
      description: o.description,
      daily_rate: o.daily_rate,
      excess_amount: o.excess_amount,
      coverage: o.coverage,
      included: o.included,
      popular: o.popular,
      recommended: o.recommended,
    });
  });
}

export function mergeSpecifications(current: StoredSpecifications, body: NewCarInput | UpdateCarInput): StoredSpecifications {
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

export function positionOf(location: string, latitude: number | null | undefined, longitude: number | null | undefined) {
  const city = findBaseCity(location);
  if (city) return { pickup_location: city.name, latitude: city.latitude, longitude: city.longitude };
  const hasPin = latitude != null && longitude != null;
  return { pickup_location: location, latitude: hasPin ? latitude : null, longitude: hasPin ? longitude : null };
}

export const json = (value: unknown) => JSON.stringify(value);

