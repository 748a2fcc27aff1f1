// Reading cars as the public and their owners do (document 2 browse, detail, availability; decisions.md
// section 4): the browse list with its filters, sort, date window and paging (public pages cached
// for a few seconds), a car's held dates, one car's details with its host card, and an owner's
// public profile.
import {
  isInstantBookingAllowed,
  addDays,
  BROWSE_TYPE_FILTERS,
  BROWSE_TYPES,
  canonicalFeature,
  dateTimeOf,
  isAdmin,
  momentOf,
  type BrowseType,
  type Car,
  type CarCard,
  type CarListFilters,
  type CarListMeta,
  type HostCancellations,
  isListedCar,
} from '@karoo/shared';
import type { AppContext } from '../../context';
import type { Db } from '../../db/connection';
import type { UserRow } from '../../db/schema';
import { badRequest, notFound } from '../../lib/app-error';
import { findCarHolds } from '../availability';
import { getSettings } from '../settings';
import { findUser } from '../users';
import { BrowseIndex, browseIndexEnabled, findPublicCarPage } from './browse-index';
import { toCarCard } from './car-cards';
import { distanceKm, toCar } from './cars.mapper';
import * as repo from './cars.repository';
import { canManageCar, findVisibleCar, knowsExactPlace, today, viewCar, type PaidTripOf } from './cars.service';
import { cachedPage, type PageAnswer } from './listing-cache';

export interface CarPage {
  cars: Car[];
  meta: CarListMeta;
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
 * A search as the list's SQL reads it: its words (matched at word starts, so punctuation separates
 * words as spaces do: "c-class"), and for admins and owners (`withPlate`) the whole search as a
 * plate, compared as the unique index keys it ("KR 42", "kr42" and "KR-42" are one search). The
 * public browse never searches plates.
 */
export function searchTerms(search: string | undefined, withPlate: boolean): Pick<repo.CarPageQuery, 'searchWords' | 'searchPlate'> {
  const plate = (search ?? '').replace(/[\s-]/g, '').toUpperCase();
  return {
    searchWords: (search ?? '').toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean).slice(0, 8),
    ...(withPlate && /^[\p{L}\p{N}]+$/u.test(plate) ? { searchPlate: plate } : {}),
  };
}

/** The browse filters (what the list and the map both filter by), checked, as the list's SQL and the index read them. */
export type BrowseFilterQuery = Pick<
  CarListFilters,
  'search' | 'location' | 'type' | 'transmission' | 'fuel' | 'features' | 'minPrice' | 'maxPrice' | 'pickupType' | 'instant' | 'startDate' | 'endDate' | 'bbox'
>;

/**
 * `instant=true` while the admin has paused instant booking: no car offers it, so nothing matches
 * (the list and the map answer empty rather than ask either engine).
 */
export async function instantFilterMatchesNothing(ctx: AppContext, query: Pick<BrowseFilterQuery, 'instant'>): Promise<boolean> {
  return query.instant === true && !isInstantBookingAllowed(await getSettings(ctx));
}

/**
 * The one definition of the browse filters (decision 046): the list (GET /car/getCarList) and the
 * map (GET /car/map) both build their query here, so a filter means the same on both.
 */
export function browseFilters(query: BrowseFilterQuery, withPlate: boolean) {
  if (query.minPrice !== undefined && query.maxPrice !== undefined && query.minPrice > query.maxPrice) {
    throw badRequest('The minimum price cannot be more than the maximum price.', { minPrice: 'Must not exceed maxPrice' });
  }
  const start = query.startDate ?? query.endDate;
  const end = query.endDate ?? query.startDate;
  if (start && end && end < start) throw badRequest('End date must be after start date.', { endDate: 'End date must be after start date.' });
  return {
    ...searchTerms(query.search, withPlate),
    location: query.location,
    type: resolveTypeFilter(query.type),
    transmission: query.transmission,
    fuel: query.fuel,
    features: [...new Set(query.features.map(canonicalFeature))],
    minPriceCents: query.minPrice !== undefined ? Math.round(query.minPrice * 100) : undefined,
    maxPriceCents: query.maxPrice !== undefined ? Math.round(query.maxPrice * 100) : undefined,
    pickupType: query.pickupType ?? 'ALL',
    ...(query.instant ? { instantOnly: true } : {}),
    window: start && end ? { start, end } : undefined,
    ...(query.bbox ? { bbox: query.bbox } : {}),
  } satisfies Partial<repo.CarPageQuery>;
}

/**
 * One browse page as the JSON answer `{ success, data, meta }`, serialised here (the list is the
 * hottest call; the answer is built from the same Car or CarCard type the schema documents), with a gzip
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

  let scope: 'public' | 'all' = 'public';
  let ownerId: string | undefined;
  if (query.owner) {
    const owner = await findUser(ctx, query.owner);
    if (!owner) {
      const meta: CarListMeta = { total: 0, page: query.page, limit: query.limit, total_exact: true, has_more: false };
      return { json: JSON.stringify({ success: true, data: [], meta }), gzip: null };
    }
    ownerId = owner.id;
    if (viewer && (viewer.id === owner.id || isAdmin(viewer))) scope = 'all';
  }
  if (query.includeUnverified && isAdmin(viewer)) scope = 'all';
  if (await instantFilterMatchesNothing(ctx, query)) {
    const meta: CarListMeta = { total: 0, page: query.page, limit: query.limit, total_exact: true, has_more: false };
    return { json: JSON.stringify({ success: true, data: [], meta }), gzip: null };
  }

  const card = query.fields === 'card';
  const pageQuery: repo.CarPageQuery = {
    scope,
    ownerId,
    today: todayDate,
    ...browseFilters(query, scope === 'all'),
    status: query.status,
    verificationStatus: query.verification_status,
    sort,
    origin,
    ...(card ? { shape: 'card' as const } : {}),
    limit: query.limit,
    offset: (query.page - 1) * query.limit,
  };

  const load = async (): Promise<string> => {
    if (card) {
      // What a card shows, read from the card's columns only (decision 046).
      const fromIndex = browseIndexEnabled(ctx) && BrowseIndex.serves(pageQuery) ? await findPublicCarPage<repo.CarCardRecord>(ctx, pageQuery) : null;
      const { records, total, exact, hasMore } = fromIndex ?? (await repo.findCarPage<repo.CarCardRecord>(ctx.db, pageQuery));
      const meta: CarListMeta = { total, page: query.page, limit: query.limit, total_exact: exact, has_more: hasMore };
      // Instant is the car's choice under the settings' switch (read at the answer); a change of them clears these pages.
      const platform = { instantAllowed: isInstantBookingAllowed(await getSettings(ctx)) };
      const data: CarCard[] = records.map((record) => toCarCard(record, platform, origin ? distanceKm(origin, record) : undefined));
      return JSON.stringify({ success: true, data, meta });
    }
    const fromIndex = browseIndexEnabled(ctx) && BrowseIndex.serves(pageQuery) ? await findPublicCarPage(ctx, pageQuery) : null;
    const { records, total, exact, hasMore } = fromIndex ?? (await repo.findCarPage(ctx.db, pageQuery));
    const page: CarPage = {
      cars: records.map((record) => {
        const isPrivileged = scope === 'all' && canManageCar(viewer, record);
        // The distance to the position the viewer is shown: the area's for the public (decision 055).
        const shown = isPrivileged ? record : { latitude: record.area_latitude, longitude: record.area_longitude };
        return toCar(record, { isPrivileged, ...(origin ? { distanceKm: distanceKm(origin, shown) } : {}) });
      }),
      meta: { total, page: query.page, limit: query.limit, total_exact: exact, has_more: hasMore },
    };
    return JSON.stringify({ success: true, data: page.cars, meta: page.meta });
  };
  // Public pages look the same to everyone, so they are shared for a few seconds.
  return scope === 'public' ? cachedPage(ctx, JSON.stringify(pageQuery), load) : { json: await load(), gzip: null };
}


/**
 * GET /car/{id}/availability: what holds the car from `from` (a date, today when missing) to `to`
 * (included): holding bookings (status, their dates as booked, and the range they hold, buffer
 * included) and the host's blocked periods (status 'blocked', no note). No personal data.
 * start_date and end_date are the Johannesburg days the range touches.
 */
export async function availability(ctx: AppContext, viewer: UserRow | null, idOrUsername: string, from?: string, to?: string) {
  const car = await findVisibleCar(ctx, viewer, idOrUsername);
  const holds = await findCarHolds(ctx.db, car.id, momentOf(from ?? today(ctx), '00:00'), to ? momentOf(addDays(to, 1), '00:00') : undefined);
  return holds.map((h) => ({
    start_date: dateTimeOf(h.from.getTime()).date,
    end_date: dateTimeOf(h.to.getTime() - 1).date,
    status: h.status as 'pending' | 'confirmed' | 'active' | 'blocked',
    kind: h.kind,
    from: h.from.toISOString(),
    to: h.to.toISOString(),
    ...(h.kind === 'booking' ? { is_hourly_booking: h.is_hourly_booking, buffer_minutes: h.buffer_minutes } : {}),
  }));
}

/**
 * A host's record of cancelling paid trips. Trips are the bookings module's, which sits above this
 * one, so the app passes its `hostCancellations` in when it registers the routes (app.ts).
 */
export type HostCancellationsOf = (db: Db, hostId: string) => Promise<HostCancellations>;

/** One car's details; its host card carries the host's cancellation record (the browse cards do not). */
export async function carDetails(ctx: AppContext, viewer: UserRow | null, idOrUsername: string, cancellationsOf: HostCancellationsOf, paidTripOf: PaidTripOf): Promise<Car> {
  const car = await findVisibleCar(ctx, viewer, idOrUsername);
  const answer = viewCar(viewer, car, await knowsExactPlace(ctx, viewer, car, paidTripOf));
  return { ...answer, host: { ...answer.host, cancellations: await cancellationsOf(ctx.db, car.owner_id) } };
}

/** The public profile of a car's owner; `{id}` is a car (id or car_username) or a host (id or username). */
export async function ownerProfile(ctx: AppContext, viewer: UserRow | null, idOrUsername: string, cancellationsOf: HostCancellationsOf) {
  const car = await repo.findCarRecord(ctx.db, idOrUsername, today(ctx));
  let owner: UserRow | undefined;
  if (car && (isListedCar(car) || canManageCar(viewer, car))) {
    owner = await findUser(ctx, car.owner_id);
  } else {
    const user = await findUser(ctx, idOrUsername);
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
    cancellations: await cancellationsOf(ctx.db, owner.id),
  };
}
