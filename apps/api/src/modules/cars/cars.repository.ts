// SQL for cars: the car with its owner and current renter, the browse page (filters, sort and
// paging all in SQL). Whether a booking holds the car is the availability module's question.
import { sql, type RawBuilder, type Expression, type SqlBool } from 'kysely';
import type { AdminCarSort, BoundingBox, CarSort, CarStatus, PickupType, SortOrder } from '@karoo/shared';
import { HOST_DELIVERY_OPTION_TYPES, PICKUP_POINT_OPTION_TYPES, tripSpan } from '@karoo/shared';
import type { Db } from '../../db/connection';
import { currentRenterUsername, heldBetween as availabilityHeldBetween, rentedNow as availabilityRentedNow } from '../availability';
import type { CarRow, CarUpdate, CarVerificationValue, NewCar } from '../../db/schema';
import { listedCar } from './listed-car';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/**
 * A car's position as the public knows it (decision 055): the exact one snapped to the centre of its
 * cell of a 0.01° grid (1.1 km north to south, about 0.9 to 1 km east to west in South Africa), so
 * the same for everyone and every request, and no average of answers or of a cluster's cars comes
 * nearer than the cell. The one definition: the answers, the browse filters and sorts, the browse
 * index and the map all read it, the exact position never leaving for a viewer who may not know it.
 */
export const AREA_CELLS_PER_DEGREE = 100;
/** How far (in degrees, either axis) a car's exact position can be from its area's: half a cell. */
export const AREA_HALF_CELL_DEGREES = 0.5 / AREA_CELLS_PER_DEGREE;
export function areaCoordinate(column: string) {
  return sql<number | null>`((floor(${sql.ref(column)} * ${sql.lit(AREA_CELLS_PER_DEGREE)}) + 0.5) / ${sql.lit(AREA_CELLS_PER_DEGREE)})::float8`;
}
const AREA_LAT = areaCoordinate('c.latitude');
const AREA_LNG = areaCoordinate('c.longitude');

/** The area's position of a car record, for the answers to a viewer who may not know the exact one. */
export interface AreaPosition {
  area_latitude: number | null;
  area_longitude: number | null;
}

/** A car with what every answer about it needs: the owner and whoever holds it right now. */
export interface CarRecord extends CarRow, AreaPosition {
  owner_username: string;
  owner_full_name: string;
  owner_rating: number | null;
  owner_host_since: Date | null;
  /** Username of the renter of the active booking that has started (decisions.md section 4). */
  rented_by: string | null;
}

/** What a car record adds to the car's columns: its owner, and whoever holds it right now. */
function recordColumns(today: string) {
  return [
    'u.username as owner_username',
    'u.full_name as owner_full_name',
    'u.rating as owner_rating',
    'u.host_since as owner_host_since',
    currentRenterUsername(sql.ref('c.id'), today).as('rented_by'),
    AREA_LAT.as('area_latitude'),
    AREA_LNG.as('area_longitude'),
  ] as const;
}

function selectCarRecords(db: Db, today: string) {
  return db
    .selectFrom('cars as c')
    .innerJoin('users as u', 'u.id', 'c.owner_id')
    .selectAll('c')
    .select(recordColumns(today))
    .where('c.deleted_at', 'is', null);
}

/**
 * What a browse card shows of a car (fields=card, decision 046): the columns it reads and no other
 * (no description, options, every photo), the first photo's URL and what was made of the photos.
 */
export interface CarCardRecord {
  id: string;
  car_username: string;
  car_make: string;
  car_model: string;
  car_year: number;
  car_type: string;
  car_rent_price_cents: number;
  /** As stored: the card shows its area (toCarCard). */
  pickup_location: string;
  /** The area's position (areaCoordinate): a card is public, and neither it nor the kept card records hold the exact one. */
  latitude: number | null;
  longitude: number | null;
  status: CarRow['status'];
  verification_status: CarRow['verification_status'];
  rating: number | null;
  total_reviews: number;
  specifications: CarRow['specifications'];
  first_image: string | null;
  photo_variants: CarRow['photo_variants'];
  owner_full_name: string;
  rented_by: string | null;
  /** One of its insurance plans is included in the price (the card's Insured badge, hasIncludedCover). */
  has_included_cover: boolean;
  /** The host turned instant booking on (the card's Instant badge, under the platform's switch; decision 078). */
  instant_booking: boolean;
  /** The card's trip total for searched dates takes the car's long-trip discount (decision 060). */
  weekly_discount_percent: number;
  monthly_discount_percent: number;
}

/** A browse answer's shape: every field of the car (api.md), or what a card shows. */
export type RecordShape = 'full' | 'card';

const CARD_COLUMNS = [
  'c.id', 'c.car_username', 'c.car_make', 'c.car_model', 'c.car_year', 'c.car_type', 'c.car_rent_price_cents', 'c.pickup_location',
  'c.status', 'c.verification_status', 'c.rating', 'c.total_reviews', 'c.specifications', 'c.photo_variants',
  'c.weekly_discount_percent', 'c.monthly_discount_percent', 'c.instant_booking',
] as const;

/** The card's columns of `c` joined with its owner `u` (the card's "Hosted by", and who holds it now). */
function cardColumns(today: string) {
  return [
    ...CARD_COLUMNS,
    AREA_LAT.as('latitude'),
    AREA_LNG.as('longitude'),
    sql<string | null>`c.images->>0`.as('first_image'),
    sql<boolean>`coalesce(c.insurance_options @> '[{"included": true}]'::jsonb, false)`.as('has_included_cover'),
    'u.full_name as owner_full_name',
    currentRenterUsername(sql.ref('c.id'), today).as('rented_by'),
  ] as const;
}

function selectCardRecords(db: Db, today: string) {
  return db.selectFrom('cars as c').innerJoin('users as u', 'u.id', 'c.owner_id').select(cardColumns(today)).where('c.deleted_at', 'is', null);
}

/** `{id}` of a car accepts the id or the car_username. Deleted cars are never found. */
export function findCarRecord(db: Db, idOrUsername: string, today: string): Promise<CarRecord | undefined> {
  const value = idOrUsername.trim();
  return selectCarRecords(db, today)
    .where((eb) =>
      isUuid(value)
        ? eb.or([eb('c.id', '=', value), eb(sql`lower(c.car_username)`, '=', value.toLowerCase())])
        : eb(sql`lower(c.car_username)`, '=', value.toLowerCase()),
    )
    .executeTakeFirst();
}

export async function isCarUsernameTaken(db: Db, carUsername: string): Promise<boolean> {
  const row = await db.selectFrom('cars').select('id').where(sql`lower(car_username)`, '=', carUsername.toLowerCase()).executeTakeFirst();
  return !!row;
}

/** A plate as the unique index compares it (migration 0005): case, spaces and hyphens do not count. */
const plateKey = (column: string) => sql`upper(regexp_replace(${sql.ref(column)}, '[[:space:]-]', '', 'g'))`;

/** Whether another car on Karoo (not deleted) already carries this plate. */
export async function isPlateTaken(db: Db, plate: string, exceptCarId?: string): Promise<boolean> {
  let query = db
    .selectFrom('cars')
    .select('id')
    .where(plateKey('car_plate_number'), '=', plate.replace(/[\s-]/g, '').toUpperCase())
    .where('deleted_at', 'is', null);
  if (exceptCarId) query = query.where('id', '!=', exceptCarId);
  return !!(await query.executeTakeFirst());
}

export function isPlateViolation(error: unknown): boolean {
  const e = error as { code?: string; constraint?: string; message?: string } | null;
  return e?.code === '23505' && (e.constraint === 'cars_plate_unique_idx' || !!e.message?.includes('cars_plate_unique_idx'));
}

export function insertCar(db: Db, car: NewCar): Promise<CarRow> {
  return db.insertInto('cars').values(car).returningAll().executeTakeFirstOrThrow();
}

export function updateCar(db: Db, id: string, changes: CarUpdate, now: Date): Promise<CarRow> {
  return db
    .updateTable('cars')
    .set({ ...changes, updated_at: now })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function countOwnerCars(db: Db, ownerId: string, listedOnly: boolean): Promise<number> {
  let query = db
    .selectFrom('cars')
    .select(sql<number>`count(*)`.as('count'))
    .where('owner_id', '=', ownerId)
    .where('deleted_at', 'is', null);
  if (listedOnly) query = query.where(listedCar('cars'));
  return Number((await query.executeTakeFirstOrThrow()).count);
}

/** An owner's cars that are still on Karoo (any status or verification). */
export function findOwnerCarRows(db: Db, ownerId: string): Promise<CarRow[]> {
  return db.selectFrom('cars').selectAll().where('owner_id', '=', ownerId).where('deleted_at', 'is', null).execute();
}

// ---- Browse ----
export interface CarPageQuery {
  /** 'public': the listing rules (available, verified, not rented right now). 'all': every car (admins, owners). */
  scope: 'public' | 'all';
  ownerId?: string;
  today: string;
  searchWords: string[];
  /**
   * The search as a plate key (uppercase, no spaces or hyphens), for the 'all' scope only: admins
   * and owners find a car by its plate however it was typed; the public browse never does.
   */
  searchPlate?: string;
  location?: string;
  type?: { carTypes: readonly string[]; maxPriceCents?: number; abovePriceCents?: number };
  transmission?: string;
  fuel?: string;
  features: string[];
  minPriceCents?: number;
  maxPriceCents?: number;
  pickupType: PickupType;
  /** Only cars whose host turned instant booking on (decision 078; the platform's switch is the caller's). */
  instantOnly?: boolean;
  window?: { start: string; end: string };
  status?: CarStatus;
  verificationStatus?: CarVerificationValue;
  /** The browse's sorts, or an admin's order of the whole list (GET /admin/cars). */
  sort: CarSort | AdminCarOrder;
  origin?: { lat: number; lng: number };
  /** Only cars positioned inside this view (the map's "Search as I move the map"). */
  bbox?: BoundingBox;
  /** The answer's shape (the records read): the whole car unless 'card'. */
  shape?: RecordShape;
  limit: number;
  offset: number;
}

/** An admin list's order: a column and its direction. */
export interface AdminCarOrder {
  by: AdminCarSort;
  order: SortOrder;
}

const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * Search words match the car at the start of a word of its make, model or type ("polo" finds a
 * Polo, "cross" a Corolla Cross), and its city only as a whole word ("cape" finds Cape Town, "polo"
 * does not find Polokwane; the location filter is the place to type part of a city). The database
 * keeps both texts lowered with every run of non-letters as one space and spaces around
 * (car_words, city_words; migration 0011), so a word start is always " word" and a whole word
 * " word ", and trigram indexes find them without reading every car.
 */
const escapeLike = (word: string) => word.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
const wordStartPattern = (word: string) => `% ${escapeLike(word)}%`;
const wholeWordPattern = (word: string) => `% ${escapeLike(word)} %`;
const matchesCarOrCity = (word: string) => sql<SqlBool>`(c.car_words LIKE ${wordStartPattern(word)} OR c.city_words LIKE ${wholeWordPattern(word)})`;
/** Relevance: whether the make and model (not only the type) carry every word; read for the matches only. */
const makeAndModelWords = sql<string>`(' ' || regexp_replace(lower(c.car_make || ' ' || c.car_model), '[^[:alnum:]]+', ' ', 'g') || ' ')`;
const makeAndModelMatch = (words: readonly string[]) =>
  sql<SqlBool>`(${sql.join(words.map((w) => sql`${makeAndModelWords} LIKE ${wordStartPattern(w)}`), sql` AND `)})`;

/**
 * Great-circle distance in km from a point (haversine), null for cars without a position: to the
 * area's position for the public browse (a distance to the exact one would give it away by
 * triangulation, decision 055), to the exact one for owners and admins.
 */
export function distanceSql(lat: number, lng: number, scope: CarPageQuery['scope'] = 'all') {
  const [carLat, carLng] = scope === 'public' ? [AREA_LAT, AREA_LNG] : [sql.ref('c.latitude'), sql.ref('c.longitude')];
  return sql<number | null>`(6371 * 2 * asin(least(1, sqrt(
    power(sin(radians(${carLat} - ${lat}::float8) / 2), 2)
    + cos(radians(${lat}::float8)) * cos(radians(${carLat})) * power(sin(radians(${carLng} - ${lng}::float8) / 2), 2)
  ))))`;
}

/**
 * Inside a box, edges included. The listed-position GiST index of point(longitude, latitude) finds
 * the exact positions within half a cell of it; for the public the area's position must then be
 * inside (a box around the exact position would find it, decision 055).
 */
function inBox(scope: CarPageQuery['scope'], { west, south, east, north }: BoundingBox) {
  if (scope !== 'public') return sql<SqlBool>`point(c.longitude, c.latitude) <@ box(point(${west}::float8, ${south}::float8), point(${east}::float8, ${north}::float8))`;
  const m = AREA_HALF_CELL_DEGREES;
  return sql<SqlBool>`(point(c.longitude, c.latitude) <@ box(point(${west - m}::float8, ${south - m}::float8), point(${east + m}::float8, ${north + m}::float8))
    AND point(${AREA_LNG}, ${AREA_LAT}) <@ box(point(${west}::float8, ${south}::float8), point(${east}::float8, ${north}::float8)))`;
}

/** Out on a rental right now, and held in a date window: the availability module's one definition. */
const rentedNow = (today: string) => availabilityRentedNow(sql.ref('c.id'), today);
/**
 * A date window is a daily trip at the booking panel's default times (pickup 09:00 on the first day,
 * return 17:00 on the last): the car is held in it when that trip, with the car's buffer after it,
 * would meet a holding booking or a blocked period, exactly as booking it would be refused.
 */
const heldBetween = (start: string, end: string) => {
  const span = tripSpan({ start_date: start, end_date: end, is_hourly_booking: false })!;
  return availabilityHeldBetween(sql.ref('c.id'), span.from, span.to, sql.ref<number>('c.buffer_minutes'));
};

/** The car offers a pickup option of one of these types (pickup_types: the types of its options, stored). */
const offersPickupType = (types: readonly string[]) => sql<SqlBool>`(${sql.join(types.map((t) => sql`c.pickup_types @> ${JSON.stringify([t])}::jsonb`), sql` OR `)})`;

/**
 * A car in a status as the filters and the admin counters mean it: 'rented' is out on a rental
 * right now, whatever its stored status; 'available' is available and not out; 'offline' and
 * 'maintenance' as stored. 'active' is never stored, so it filters nothing (null).
 */
function carInStatus(status: CarStatus, today: string): RawBuilder<SqlBool> | null {
  switch (status) {
    case 'rented':
      return rentedNow(today);
    case 'available':
      return sql<SqlBool>`(c.status = 'available' AND NOT ${rentedNow(today)})`;
    case 'offline':
    case 'maintenance':
      return sql<SqlBool>`c.status = ${status}`;
    default:
      return null;
  }
}

/** Every car on Karoo (deleted ones left out), counted in one statement: the admin's counters. */
export async function countCarsByState(db: Db, today: string) {
  const count = (condition: RawBuilder<SqlBool> | null) => sql<string>`count(*) FILTER (WHERE ${condition ?? sql`true`})`;
  const row = await db
    .selectFrom('cars as c')
    .where('c.deleted_at', 'is', null)
    .select([
      sql<string>`count(*)`.as('total'),
      count(carInStatus('available', today)).as('available'),
      count(carInStatus('rented', today)).as('rented'),
      count(carInStatus('maintenance', today)).as('maintenance'),
      count(sql<SqlBool>`c.verification_status = 'pending_verification'`).as('pending_verification'),
    ])
    .executeTakeFirstOrThrow();
  return {
    total: Number(row.total),
    available: Number(row.available),
    rented: Number(row.rented),
    maintenance: Number(row.maintenance),
    pending_verification: Number(row.pending_verification),
  };
}

function filteredCars(db: Db, q: CarPageQuery) {
  let query = db.selectFrom('cars as c').where('c.deleted_at', 'is', null);

  if (q.scope === 'public') {
    query = query.where(listedCar('c'));
    // Without a date window a car on a rental right now is hidden; with one, only cars held in it are.
    query = q.window ? query.where(sql<SqlBool>`NOT ${heldBetween(q.window.start, q.window.end)}`) : query.where(sql<SqlBool>`NOT ${rentedNow(q.today)}`);
  } else if (q.window) {
    query = query.where(sql<SqlBool>`NOT ${heldBetween(q.window.start, q.window.end)}`);
  }
  if (q.ownerId) query = query.where('c.owner_id', '=', q.ownerId);
  const inStatus = q.status ? carInStatus(q.status, q.today) : null;
  if (inStatus) query = query.where(inStatus);
  if (q.verificationStatus) query = query.where('c.verification_status', '=', q.verificationStatus);

  if (q.searchPlate) {
    // Every word in the car's words or city, or the whole search inside the plate (the trigram
    // index on the plate key, migration 0017, serves the LIKE).
    const words = q.searchWords.length ? sql.join(q.searchWords.map(matchesCarOrCity), sql` AND `) : sql<SqlBool>`false`;
    query = query.where(sql<SqlBool>`((${words}) OR ${plateKey('c.car_plate_number')} LIKE ${likePattern(q.searchPlate).toUpperCase()})`);
  } else {
    for (const word of q.searchWords) query = query.where(matchesCarOrCity(word));
  }
  if (q.location) query = query.where(sql<SqlBool>`c.city_key LIKE ${likePattern(q.location)}`);
  if (q.type) {
    const { carTypes, maxPriceCents, abovePriceCents } = q.type;
    query = query.where((eb) => {
      const any: Expression<SqlBool>[] = [];
      if (carTypes.length) any.push(eb('c.type_key', 'in', carTypes.map((t) => t.toLowerCase())));
      if (maxPriceCents !== undefined) any.push(eb('c.car_rent_price_cents', '<=', maxPriceCents));
      if (abovePriceCents !== undefined) any.push(eb('c.car_rent_price_cents', '>', abovePriceCents));
      return eb.or(any);
    });
  }
  if (q.transmission) query = query.where('c.transmission_key', '=', q.transmission.toLowerCase());
  if (q.fuel) query = query.where('c.fuel_key', '=', q.fuel.toLowerCase());
  if (q.features.length) query = query.where(sql<SqlBool>`c.features @> ${JSON.stringify(q.features)}::jsonb`);
  if (q.minPriceCents !== undefined) query = query.where('c.car_rent_price_cents', '>=', q.minPriceCents);
  if (q.maxPriceCents !== undefined) query = query.where('c.car_rent_price_cents', '<=', q.maxPriceCents);
  if (q.pickupType === 'HOST_DELIVERY') {
    query = query.where(offersPickupType(HOST_DELIVERY_OPTION_TYPES));
  } else if (q.pickupType === 'PICKUP_POINT') {
    query = query.where(sql<SqlBool>`(c.pickup_types = '[]'::jsonb OR ${offersPickupType(PICKUP_POINT_OPTION_TYPES)})`);
  }
  if (q.instantOnly) query = query.where('c.instant_booking', '=', true);
  // Inside the view (for the public, the area's position).
  if (q.bbox) query = query.where(inBox(q.scope, q.bbox));
  return query;
}

/** Every public car matching the filters (paging and sort ignored), as map points: id, the area's position (decision 055) and price. */
export async function findMatchingPoints(db: Db, q: CarPageQuery): Promise<{ id: string; lat: number; lng: number; price_cents: number }[]> {
  const rows = await filteredCars(db, q)
    .where('c.latitude', 'is not', null)
    .where('c.longitude', 'is not', null)
    .select([AREA_LAT.as('lat'), AREA_LNG.as('lng'), 'c.id', 'c.car_rent_price_cents as price_cents'])
    .execute();
  return rows.map((r) => ({ id: r.id, lat: Number(r.lat), lng: Number(r.lng), price_cents: Number(r.price_cents) }));
}

/** The make and model of these cars (the map's single cars), by id. */
export async function findCarTitles(db: Db, ids: readonly string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const rows = await db.selectFrom('cars').select(['id', 'car_make', 'car_model']).where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [r.id, `${r.car_make} ${r.car_model}`.trim()]));
}

/** Past this many matches a public browse says "1,000+" instead of counting every car (decision 020). */
export const BROWSE_COUNT_CAP = 1000;

function sortOf(q: CarPageQuery, distance: RawBuilder<number | null> | null): RawBuilder<unknown> {
  if (typeof q.sort === 'object') return adminOrderOf(q.sort);
  switch (q.sort) {
    case 'PRICE_LOW':
      return sql`c.car_rent_price_cents ASC, c.id`;
    case 'PRICE_HIGH':
      return sql`c.car_rent_price_cents DESC, c.id`;
    case 'DISTANCE':
      return sql`${distance} ASC NULLS LAST, c.id`;
    default: {
      // Most relevant first: cars whose make and model carry every word before those matched by
      // type or city; without words every car is as relevant, and the listed-relevance index serves.
      const rest = sql`c.rating DESC NULLS LAST, c.total_reviews DESC, c.created_at DESC, c.id`;
      return q.searchWords.length ? sql`(CASE WHEN ${makeAndModelMatch(q.searchWords)} THEN 0 ELSE 1 END), ${rest}` : rest;
    }
  }
}

/** An admin's order, ties broken by id so that pages never overlap. */
function adminOrderOf({ by, order }: AdminCarOrder): RawBuilder<unknown> {
  const direction = order === 'desc' ? sql`DESC` : sql`ASC`;
  switch (by) {
    case 'car':
      return sql`lower(c.car_make) ${direction}, lower(c.car_model) ${direction}, c.car_year DESC, c.id`;
    case 'price':
      return sql`c.car_rent_price_cents ${direction}, c.id`;
    case 'listed':
      return sql`c.created_at ${direction}, c.id ${direction}`;
  }
}

/** The page's ids in order, one more than asked for (so the caller knows whether another page follows). */
async function pageIds(db: Db, q: CarPageQuery, where?: (query: ReturnType<typeof filteredCars>) => ReturnType<typeof filteredCars>, limit = q.offset + q.limit + 1, offset = 0) {
  const distance = q.sort === 'DISTANCE' ? distanceSql(q.origin!.lat, q.origin!.lng, q.scope) : null;
  const base = filteredCars(db, q);
  const rows = await (where ? where(base) : base)
    .select(['c.id', (distance ?? sql<null>`NULL::float8`).as('distance')])
    .orderBy(sortOf(q, distance))
    .limit(limit)
    .offset(offset)
    .execute();
  return rows.map((r) => ({ id: r.id, distance: r.distance === null ? null : Number(r.distance) }));
}

/**
 * Distance sort without measuring every car (public browse over more than BROWSE_COUNT_CAP cars):
 * the nearest cars are looked for in a box around the visitor (the listed-position GiST index),
 * growing until it holds enough cars within the circle the box contains. A car outside the box is
 * farther than any car inside that circle, so the order is exactly the full sort's; when no box is
 * enough (or the box would cross a pole or the antimeridian) every matching car is measured.
 */
const DISTANCE_RADII_KM = [25, 100, 400, 1600];
async function nearestIds(db: Db, q: CarPageQuery): Promise<string[]> {
  const need = q.offset + q.limit + 1;
  const { lat, lng } = q.origin!;
  for (const radius of DISTANCE_RADII_KM) {
    const dLat = radius / 111.19;
    const maxLat = Math.abs(lat) + dLat;
    if (maxLat >= 89) break;
    const dLng = radius / (111.19 * Math.cos((maxLat * Math.PI) / 180));
    if (lng - dLng < -180 || lng + dLng > 180) break;
    const box = { west: lng - dLng, south: lat - dLat, east: lng + dLng, north: lat + dLat };
    const boxed = await pageIds(db, q, (query) => query.where('c.latitude', 'is not', null).where('c.longitude', 'is not', null).where(inBox(q.scope, box)));
    const inCircle = boxed.filter((row) => row.distance !== null && row.distance <= radius);
    if (inCircle.length >= need) return inCircle.slice(q.offset, q.offset + q.limit + 1).map((r) => r.id);
  }
  return (await pageIds(db, q, undefined, q.limit + 1, q.offset)).map((r) => r.id);
}

/** The public count's statement: how many cars match, up to `cap` + 1. */
function cappedCount(db: Db, q: CarPageQuery, cap: number) {
  return db.selectFrom(filteredCars(db, q).select(sql<number>`1`.as('one')).limit(cap + 1).as('m')).select(sql<number>`count(*)`.as('count'));
}

/**
 * One page of matching cars in order (their whole records), whether another page follows, and how
 * many cars match: exactly for owners and admins, and for the public up to BROWSE_COUNT_CAP (beyond
 * it `exact` is false). One statement does it all: the page's ids are an ORDER BY ... LIMIT the
 * sort's index serves (for the distance sort, found box by box first), their records are read for
 * those ids only, and the count stops at the cap, so nothing reads every car.
 */
export async function findCarPage<R extends CarRecord | CarCardRecord = CarRecord>(db: Db, q: CarPageQuery): Promise<{ records: R[]; hasMore: boolean; total: number; exact: boolean }> {
  const distance = q.sort === 'DISTANCE' ? distanceSql(q.origin!.lat, q.origin!.lng, q.scope) : null;
  const cap = countCap(q);
  const matchingCount = (cap === null ? db.selectFrom(filteredCars(db, q).select(sql<number>`1`.as('one')).as('m')).select(sql<number>`count(*)`.as('count')) : cappedCount(db, q, cap)).as(
    'matching_count',
  );
  // A distance sort over more cars than the count's cap looks box by box around the visitor; over
  // fewer, measuring them all is cheaper than the boxes. So is it when a place or search words
  // are asked for: their cars lie together, often far from the visitor, where boxes grow in vain.
  const boxes = q.sort === 'DISTANCE' && cap !== null && !q.location && q.searchWords.length === 0;
  const counted = boxes ? Number((await cappedCount(db, q, cap).executeTakeFirstOrThrow()).count) : null;
  // The page's ids, computed once (a derived table with its LIMIT), then their records by primary key.
  const page =
    counted !== null && counted > cap!
      ? await nearestIds(db, q)
      : filteredCars(db, q)
          .select('c.id')
          .orderBy(sortOf(q, distance))
          .limit(q.limit + 1)
          .offset(q.offset)
          .as('p');
  if (Array.isArray(page) && page.length === 0) return finish([], counted);
  const count = counted === null ? matchingCount : sql<number>`${counted}::int`.as('matching_count');
  const card = q.shape === 'card';
  const fromPage = () => db.selectFrom(page as Exclude<typeof page, string[]>).innerJoin('cars as c', 'c.id', 'p.id').innerJoin('users as u', 'u.id', 'c.owner_id');
  // The card reads its own columns only (decision 046); the full answer, every column.
  const order = sortOf(q, distance);
  const rows = (
    card
      ? await (Array.isArray(page) ? selectCardRecords(db, q.today).where('c.id', 'in', page) : fromPage().select(cardColumns(q.today))).select(count).orderBy(order).execute()
      : await (Array.isArray(page) ? selectCarRecords(db, q.today).where('c.id', 'in', page) : fromPage().selectAll('c').select(recordColumns(q.today))).select(count).orderBy(order).execute()
  ) as unknown as (R & { matching_count: number })[];
  return finish(
    rows.map(({ matching_count: _count, ...record }) => record as unknown as R),
    rows.length ? Number(rows[0]!.matching_count) : counted,
  );

  async function finish(records: R[], counted: number | null) {
    const hasMore = records.length > q.limit;
    const page = records.slice(0, q.limit);
    const last = lastPageTotal(q, page.length, hasMore);
    if (last !== null) return { records: page, hasMore, total: last, exact: true };
    const count =
      counted ??
      Number((await (cap === null ? filteredCars(db, q).select(sql<number>`count(*)`.as('count')) : cappedCount(db, q, cap)).executeTakeFirstOrThrow()).count);
    return { records: page, hasMore, ...countedTotal(count, cap) };
  }
}

/** The public count's cap for a query (null: owners and admins count exactly). */
export function countCap(q: CarPageQuery): number | null {
  return q.scope === 'public' ? Math.max(BROWSE_COUNT_CAP, q.offset + q.limit) : null;
}

/** On the last page (or an empty first one) the total is what came before plus the page: exact, and no count needed. */
export function lastPageTotal(q: CarPageQuery, pageLength: number, hasMore: boolean): number | null {
  return !hasMore && (pageLength > 0 || q.offset === 0) ? q.offset + pageLength : null;
}

/** The total shown from a count (capped at `cap` + 1 when there is a cap): past the cap, the cap and not exact. */
export function countedTotal(count: number, cap: number | null): { total: number; exact: boolean } {
  return cap === null ? { total: count, exact: true } : { total: Math.min(count, cap), exact: count <= cap };
}

/** These cars' records (deleted ones left out), in the order of `ids`: whole, or (shape 'card') what a card reads. */
export async function findCarRecordsInOrder<R extends CarRecord | CarCardRecord = CarRecord>(db: Db, ids: readonly string[], today: string, shape: RecordShape = 'full'): Promise<R[]> {
  if (!ids.length) return [];
  const rows = (shape === 'card'
    ? await selectCardRecords(db, today).where('c.id', 'in', ids).execute()
    : await selectCarRecords(db, today).where('c.id', 'in', ids).execute()) as unknown as R[];
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** A car's rating and review count (the reviews module computes them). */
export async function setCarRating(db: Db, carId: string, rating: number | null, total: number): Promise<void> {
  await db.updateTable('cars').set({ rating, total_reviews: total }).where('id', '=', carId).execute();
}
