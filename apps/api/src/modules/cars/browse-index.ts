// The public browse answered from memory (issue 11; docs/decisions/028-browse-index.md). Each API
// instance keeps what the browse filters and sorts read of every listed car (status available,
// verified, not deleted) and the car's holding bookings: about 300 bytes a car. A public page is
// found here, in the sort's order, with the same rules the SQL of cars.repository.ts applies; only
// the page's records are then read from the database, by primary key (a card's record only when
// this instance has not kept it since the car last changed: browse-cards.ts, decision 054). The SQL stays the reference:
// owners' and admins' lists use it, and browse-index.test.ts holds the two to the same answers.
//
// Freshness: triggers note the car of every write to cars and bookings in browse_changes, with the
// writing transaction's id (migration 0016). Before answering, an instance that was told of a change
// (this instance's writes and the cache bus's browse clears, decision 026) or has not looked for
// BROWSE_INDEX_POLL_MS (a second) reads the notes of every transaction at or after its horizon (the oldest transaction still
// running when it last looked) and reloads those cars. Nothing that commits is missed, whatever the
// order of the commits.
import { sql } from 'kysely';
import { HOST_DELIVERY_OPTION_TYPES, isListedCar, PICKUP_POINT_OPTION_TYPES, tripSpan } from '@karoo/shared';
import type { AppContext } from '../../context';
import type { Db } from '../../db/connection';
import { isDatabaseTimeout } from '../../db/connection-errors';
import type { CacheBus } from '../../lib/cache-bus';
import { selectHoldingBookings, type HoldingBooking } from '../availability';
import { CardRecords } from './browse-cards';
import { areaCoordinate, countCap, countedTotal, findCarRecordsInOrder, lastPageTotal, type CarCardRecord, type CarPageQuery, type CarRecord } from './cars.repository';
import { listedCar } from './listed-car';
import { BROWSE_TOPIC } from './listing-cache';

/** The note of a TRUNCATE (migration 0016): load everything again. */
const RELOAD_ALL = '00000000-0000-0000-0000-000000000000';
/** An instance that has not looked for this long (asleep, cut off) loads everything again. */
const RELOAD_AFTER_MS = 12 * 60 * 60 * 1000;
/** Notes are kept a day (the prune job), twice as long as an instance may go without looking. */
export const BROWSE_CHANGE_RETENTION = '1 day';

/** Drops the notes older than a day (by the database's clock, which wrote them); returns how many. */
export async function pruneBrowseChanges(db: Db): Promise<number> {
  const result = await sql`DELETE FROM browse_changes WHERE changed_at < now() - ${BROWSE_CHANGE_RETENTION}::interval`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** Distinct strings, numbered, so that a query tests each once and then reads its answer by number. */
class Vocabulary {
  private readonly codes = new Map<string, number>();
  readonly values: string[] = [];
  code(value: string): number {
    let code = this.codes.get(value);
    if (code === undefined) {
      code = this.values.length;
      this.values.push(value);
      this.codes.set(value, code);
    }
    return code;
  }
  /** The number of a string, or -2 (matches no car) when no car has it. */
  find(value: string): number {
    return this.codes.get(value) ?? -2;
  }
  /** The test of every string so far, computed when first asked for a number. */
  memo(test: (value: string) => boolean): (code: number) => boolean {
    const known = new Uint8Array(this.values.length);
    const values = this.values;
    return (code) => {
      const k = known[code];
      if (k !== 0) return k === 1;
      const yes = test(values[code]!);
      known[code] = yes ? 1 : 2;
      return yes;
    };
  }
}

/**
 * Which slots have a value (a type, a transmission, a fuel, a feature, a pickup kind): one bit per
 * slot, so that a query ANDs a few of them and its scan skips every other car with one bit test.
 */
class Bitsets {
  private readonly sets = new Map<string, Uint32Array>();
  private words = 1;

  private setOf(key: string): Uint32Array {
    let set = this.sets.get(key);
    if (!set) this.sets.set(key, (set = new Uint32Array(this.words)));
    return set;
  }

  /** Room for `capacity` slots. */
  resize(capacity: number): void {
    const words = (capacity + 31) >>> 5;
    if (words <= this.words) return;
    this.words = words;
    for (const [key, set] of this.sets) {
      const grown = new Uint32Array(words);
      grown.set(set);
      this.sets.set(key, grown);
    }
  }

  add(key: string, slot: number): void {
    this.setOf(key)[slot >>> 5]! |= 1 << (slot & 31);
  }

  remove(key: string, slot: number): void {
    const set = this.sets.get(key);
    if (set) set[slot >>> 5]! &= ~(1 << (slot & 31));
  }

  /** A set with no slot, the size of the others. */
  empty(): Uint32Array {
    return new Uint32Array(this.words);
  }

  /**
   * The slots in every group, a group being any of its keys, and in `within` when given (a set made
   * by the caller, such as a price band); null when nothing was asked for.
   */
  all(groups: readonly (readonly string[])[], within: Uint32Array | null = null): Uint32Array | null {
    if (!groups.length && !within) return null;
    const result = within ? Uint32Array.from(within) : new Uint32Array(this.words).fill(0xffffffff);
    for (const keys of groups) {
      const any = new Uint32Array(this.words);
      for (const key of keys) {
        const set = this.sets.get(key);
        if (set) for (let i = 0; i < set.length; i += 1) any[i]! |= set[i]!;
      }
      for (let i = 0; i < result.length; i += 1) result[i]! &= any[i]!;
    }
    return result;
  }
}

interface CarRow {
  id: string;
  owner_id: string;
  price: number;
  type_key: string;
  transmission_key: string | null;
  fuel_key: string | null;
  city_key: string;
  car_words: string;
  city_words: string;
  make_model_words: string;
  features: unknown;
  pickup_types: unknown;
  lat: number | null;
  lng: number | null;
  rating: number | null;
  reviews: number;
  created_us: string;
  buffer_minutes: number;
  instant_booking: boolean;
}

const LISTED = listedCar('c');

const LOAD_BATCH = 5_000;
/**
 * A change note naming more cars than this reloads the whole index, in LOAD_BATCH batches, rather
 * than asking for each of them (issue 38: a million named cars in one statement met the statement
 * timeout, and the next look tried the same statement again, for ever).
 */
const FULL_RELOAD_IDS = 50_000;
/**
 * How long a request waits for the index's look before the SQL answers it instead (the look goes on
 * and serves later requests once done): a slow or failing refresh never holds a browse answer
 * longer than this (issue 38).
 */
export const SYNC_WAIT_MS = 300;

/**
 * Listed cars' browse columns: those of `ids`, or (ids null) a batch of all of them in id order after `after`.
 * The index serves the public only, so it keeps the area's position (decision 055), never the exact one.
 */
function selectListed(db: Db, ids: readonly string[] | null, after: string | null = null) {
  return sql<CarRow>`SELECT c.id, c.owner_id, c.car_rent_price_cents::float8 AS price, c.type_key, c.transmission_key, c.fuel_key,
      c.city_key, c.car_words, c.city_words,
      (' ' || regexp_replace(lower(c.car_make || ' ' || c.car_model), '[^[:alnum:]]+', ' ', 'g') || ' ') AS make_model_words,
      c.features, c.pickup_types, ${areaCoordinate('c.latitude')} AS lat, ${areaCoordinate('c.longitude')} AS lng, c.rating::float8 AS rating,
      c.total_reviews AS reviews, (extract(epoch FROM c.created_at) * 1000000)::bigint::text AS created_us, c.buffer_minutes, c.instant_booking
    FROM cars c WHERE ${LISTED}
    ${ids ? sql`AND c.id = ANY(${ids}::uuid[])` : sql`${after ? sql`AND c.id > ${after}::uuid` : sql``} ORDER BY c.id LIMIT ${LOAD_BATCH}`}`.execute(db);
}

/** Holds, bookings and blocks (the availability module's definition): those of the cars `ids`, or a batch after `after`. */
function selectHolding(db: Db, ids: readonly string[] | null, after: string | null = null) {
  return selectHoldingBookings(db, ids, after, LOAD_BATCH).then((rows) => ({ rows }));
}

/** The oldest transaction still running: every transaction before it has ended. */
async function currentHorizon(db: Db): Promise<string> {
  const { rows } = await sql<{ horizon: string }>`SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS horizon`.execute(db);
  return rows[0]!.horizon;
}

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);
const DAY_MS = 86_400_000;
/** A date (YYYY-MM-DD) as a day number, to compare bookings' days as numbers. */
const dayOf = (date: string) => Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) / DAY_MS;
const NO_DAY = 2 ** 31 - 1;
const rad = (d: number) => d * (Math.PI / 180);
const EARTH_KM = 6371;

/**
 * The listed cars, a column per field (typed arrays: compact, and a scan reads them without
 * chasing objects); a car keeps its slot while it stays listed. Strings are vocabulary numbers.
 */
class Columns {
  capacity: number;
  size = 0;
  ids: string[] = [];
  alive: Uint8Array;
  price: Float64Array;
  type: Int32Array;
  transmission: Int32Array;
  fuel: Int32Array;
  owner: Int32Array;
  cityKey: Int32Array;
  carWords: Int32Array;
  cityWords: Int32Array;
  makeModel: Int32Array;
  /** 1: offers host delivery; 2: no pickup options, or one at a pickup point; 4: the host's instant booking is on (decision 078). */
  flags: Uint8Array;
  lat: Float64Array;
  lng: Float64Array;
  /** NaN when the car has no rating. */
  rating: Float64Array;
  reviews: Float64Array;
  /** created_at in microseconds, the database's precision. */
  createdUs: Float64Array;
  /** The first day of the car's active bookings (NO_DAY without one): "rented right now" from that day. */
  activeFrom: Int32Array;
  features: Int32Array[] = [];
  /** Holds (holding bookings with their buffers, and blocks) as [from, to, ...] in minutes since 1970 ([from, to)), or null. */
  holds: (Int32Array | null)[] = [];
  /** The car's buffer after a trip, in minutes. */
  buffer: Int32Array;

  constructor(capacity: number) {
    this.capacity = Math.max(16, capacity);
    const n = this.capacity;
    this.alive = new Uint8Array(n);
    this.price = new Float64Array(n);
    this.type = new Int32Array(n);
    this.transmission = new Int32Array(n);
    this.fuel = new Int32Array(n);
    this.owner = new Int32Array(n);
    this.cityKey = new Int32Array(n);
    this.carWords = new Int32Array(n);
    this.cityWords = new Int32Array(n);
    this.makeModel = new Int32Array(n);
    this.flags = new Uint8Array(n);
    this.lat = new Float64Array(n);
    this.lng = new Float64Array(n);
    this.rating = new Float64Array(n);
    this.reviews = new Float64Array(n);
    this.createdUs = new Float64Array(n);
    this.activeFrom = new Int32Array(n);
    this.buffer = new Int32Array(n);
  }

  /** A new slot at the end, the columns doubled when full. */
  add(): number {
    if (this.size === this.capacity) {
      this.capacity *= 2;
      for (const key of TYPED_COLUMNS) {
        const old = this[key];
        const grown = new (old.constructor as new (length: number) => typeof old)(this.capacity);
        grown.set(old);
        (this as Record<(typeof TYPED_COLUMNS)[number], typeof old>)[key] = grown;
      }
    }
    return this.size++;
  }
}
const TYPED_COLUMNS = [
  'alive', 'price', 'type', 'transmission', 'fuel', 'owner', 'cityKey', 'carWords', 'cityWords', 'makeModel', 'flags',
  'lat', 'lng', 'rating', 'reviews', 'createdUs', 'activeFrom', 'buffer',
] as const satisfies readonly (keyof Columns)[];

/** The page's ids (one more than the page when another follows) and the count, up to the cap and one more. */
export interface IndexAnswer {
  ids: string[];
  count: number;
}

/** The sorts' orders, and 'north': by latitude (cars without a position last), where the distance sort starts. */
type Order = 'relevance' | 'low' | 'high' | 'north';

export class BrowseIndex {
  private columns = new Columns(0);
  private slots = new Map<string, number>();
  private free: number[] = [];
  private orders: Record<Order, number[]> = { relevance: [], low: [], high: [], north: [] };
  private vocabulary = new Vocabulary();
  private bitsets = new Bitsets();
  /**
   * The cars of each text (the make, model and type words; the city words; the city), by the text's
   * code. The search words and the location are tested once per text, and only the matching texts'
   * cars are candidates. Lists, not bitsets: memory grows with the cars, not with how many
   * different texts hosts type.
   */
  private textSlots = newTextSlots();
  private horizon: string | null = null;
  private lookedAt = 0;
  /** Changes heard of so far, and how many of them the last finished look began after. */
  private heard = 1;
  private covered = 0;
  private syncing: Promise<void> | null = null;
  /** The records of the cards shown lately, forgotten whenever their cars are reloaded. */
  readonly cards = new CardRecords();

  /**
   * @param pollMs without a change heard of, how often to look for notes anyway (writes no event
   * told of, such as a script's); 0 looks before every answer.
   */
  constructor(
    private readonly db: Db,
    private readonly pollMs: number,
    private readonly now: () => number = Date.now,
    /** Cars asked for per statement when reloading named cars (tests make it small). */
    private readonly reloadBatch: number = LOAD_BATCH,
  ) {}

  /** Looks that the SQL answered for because they took longer than SYNC_WAIT_MS (for the metrics and tests). */
  slowLooks = 0;

  /** A change was heard of (this instance's write, or another's through the cache bus): look before the next answer. */
  markChanged(): void {
    this.heard += 1;
  }

  get size(): number {
    return this.slots.size;
  }

  /** Seconds since the last finished look at the change notes. */
  get ageSeconds(): number {
    return (this.now() - this.lookedAt) / 1000;
  }

  /** Whether the first load has finished (until then the SQL answers). */
  get loaded(): boolean {
    return this.horizon !== null;
  }

  private loading: Promise<void> | null = null;
  private loadFailedAt = -Infinity;
  /** The error of the last failed load, for the logs of whoever warms the index. */
  lastLoadError: unknown = null;

  /** Starts the first load unless it is under way (or failed less than a poll ago); never throws. */
  startLoading(): Promise<void> {
    if (this.loaded) return Promise.resolve();
    if (this.loading) return this.loading;
    if (this.now() - this.loadFailedAt < Math.max(this.pollMs, 1000)) return Promise.resolve();
    const loading = this.sync()
      .catch((error: unknown) => {
        this.loadFailedAt = this.now();
        this.lastLoadError = error;
      })
      .finally(() => {
        if (this.loading === loading) this.loading = null;
      });
    this.loading = loading;
    return loading;
  }

  /** Brings the index up to the database's state as of now (no statement at all when nothing changed). */
  sync(): Promise<void> {
    if (this.fresh()) return Promise.resolve();
    // A look under way may have read the notes before the change just heard of: chain another,
    // which returns at once if that look covered it. A failed look does not fail the next one.
    const run = (this.syncing ?? Promise.resolve()).catch(() => undefined).then(() => this.runSync());
    const tracked = run.finally(() => {
      if (this.syncing === tracked) this.syncing = null;
    });
    this.syncing = tracked;
    return tracked;
  }

  /** Up to date: a finished look began after every change heard of, less than a poll ago. */
  private fresh(): boolean {
    return this.covered === this.heard && this.horizon !== null && this.now() - this.lookedAt < this.pollMs;
  }

  private async runSync(): Promise<void> {
    if (this.fresh()) return;
    const heard = this.heard;
    const startedAt = this.now();
    await this.look(startedAt);
    this.covered = heard;
    this.lookedAt = startedAt;
  }

  private async look(startedAt: number): Promise<void> {
    if (this.horizon === null || startedAt - this.lookedAt > RELOAD_AFTER_MS) return this.loadAll();
    // The notes and the new horizon from one snapshot: a transaction not visible in it is at or
    // after that horizon, so its notes are read next time.
    const { rows } = await sql<{ horizon: string; car_ids: string[] }>`SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS horizon,
        ARRAY(SELECT DISTINCT car_id::text FROM browse_changes WHERE xid >= ${this.horizon}::xid8) AS car_ids`.execute(this.db);
    const { horizon, car_ids: ids } = rows[0]!;
    // A TRUNCATE of cars or bookings notes the nil id: nothing tells which cars went.
    if (ids.includes(RELOAD_ALL) || ids.length > FULL_RELOAD_IDS) return this.loadAll();
    if (ids.length) await this.reload(ids);
    this.horizon = horizon;
  }

  private async loadAll(): Promise<void> {
    // The horizon first: whatever commits after it is read again at the next look.
    const horizon = await currentHorizon(this.db);
    this.columns = new Columns(1024);
    this.slots = new Map();
    this.free = [];
    this.vocabulary = new Vocabulary();
    this.bitsets = new Bitsets();
    this.textSlots = newTextSlots();
    // In batches by id, each written at once: the event loop serves other requests between them,
    // and the memory held is one batch, not every row. (No answer reads the index meanwhile: the
    // first load answers in SQL, and a later one makes every request wait for this sync.)
    for (let after: string | null = null; ; ) {
      const { rows } = await selectListed(this.db, null, after);
      for (const row of rows) {
        const slot = this.columns.add();
        this.bitsets.resize(this.columns.capacity);
        this.write(slot, row);
      }
      if (rows.length < LOAD_BATCH) break;
      after = rows[rows.length - 1]!.id;
    }
    for (let after: string | null = null; ; ) {
      const { rows } = await selectHolding(this.db, null, after);
      this.writeBookings(rows);
      if (rows.length < LOAD_BATCH) break;
      after = rows[rows.length - 1]!.id;
    }
    const all = [...this.slots.values()];
    this.orders = { relevance: [...all].sort(this.compare.relevance), low: [...all].sort(this.compare.low), high: [...all].sort(this.compare.high), north: all.sort(this.compare.north) };
    this.horizon = horizon;
    this.cards.forget();
  }

  private async reload(ids: string[]): Promise<void> {
    // Read in batches (each statement bounded, under the statement timeout), applied at once.
    const cars: CarRow[] = [];
    const bookings: Awaited<ReturnType<typeof selectHolding>>['rows'] = [];
    for (let from = 0; from < ids.length; from += this.reloadBatch) {
      const batch = ids.slice(from, from + this.reloadBatch);
      const { rows } = await selectListed(this.db, batch);
      cars.push(...rows);
      if (rows.length) bookings.push(...(await selectHolding(this.db, rows.map((c) => c.id))).rows);
    }
    // Out of every order first, then back in at their places (binary search: the orders stay sorted).
    const changed = new Set(ids.map((id) => this.slots.get(id)).filter((slot) => slot !== undefined));
    if (changed.size) for (const key of ORDERS) this.orders[key] = this.orders[key].filter((slot) => !changed.has(slot));
    const listed = new Set(cars.map((c) => c.id));
    for (const id of ids) {
      const slot = this.slots.get(id);
      if (slot !== undefined && !listed.has(id)) {
        this.unmark(slot);
        this.columns.alive[slot] = 0;
        this.slots.delete(id);
        this.free.push(slot);
      }
    }
    const fresh: number[] = [];
    for (const row of cars) {
      const slot = this.slots.get(row.id) ?? this.free.pop() ?? this.columns.add();
      this.bitsets.resize(this.columns.capacity);
      if (this.columns.alive[slot]) this.unmark(slot);
      this.write(slot, row);
      fresh.push(slot);
    }
    this.writeBookings(bookings);
    for (const key of ORDERS) {
      const order = this.orders[key];
      const compare = this.compare[key];
      for (const slot of fresh) {
        let lo = 0;
        let hi = order.length;
        while (lo < hi) {
          const mid = (lo + hi) >>> 1;
          if (compare(order[mid]!, slot) < 0) lo = mid + 1;
          else hi = mid;
        }
        order.splice(lo, 0, slot);
      }
    }
    this.cards.forget(ids);
  }

  private write(slot: number, row: CarRow): void {
    const c = this.columns;
    const v = this.vocabulary;
    const pickupTypes = Array.isArray(row.pickup_types) ? strings(row.pickup_types) : null;
    const offers = (types: readonly string[]) => !!pickupTypes && types.some((t) => pickupTypes.includes(t));
    // The SQL's `pickup_types = '[]'`: an empty list, not one whose entries are not text.
    const noOptions = Array.isArray(row.pickup_types) && row.pickup_types.length === 0;
    this.slots.set(row.id, slot);
    c.ids[slot] = row.id;
    c.alive[slot] = 1;
    c.price[slot] = Number(row.price);
    c.type[slot] = v.code(row.type_key);
    c.transmission[slot] = row.transmission_key === null ? -1 : v.code(row.transmission_key);
    c.fuel[slot] = row.fuel_key === null ? -1 : v.code(row.fuel_key);
    c.owner[slot] = v.code(row.owner_id);
    c.cityKey[slot] = v.code(row.city_key);
    c.carWords[slot] = v.code(row.car_words);
    c.cityWords[slot] = v.code(row.city_words);
    c.makeModel[slot] = v.code(row.make_model_words);
    for (const column of TEXT_COLUMNS) {
      const code = c[column][slot]!;
      let slots = this.textSlots[column].get(code);
      if (!slots) this.textSlots[column].set(code, (slots = new Set()));
      slots.add(slot);
    }
    c.features[slot] = Int32Array.from(strings(row.features), (f) => v.code(f));
    c.flags[slot] = (offers(HOST_DELIVERY_OPTION_TYPES) ? 1 : 0) | (noOptions || offers(PICKUP_POINT_OPTION_TYPES) ? 2 : 0) | (row.instant_booking ? 4 : 0);
    c.lat[slot] = row.lat === null || row.lng === null ? NaN : Number(row.lat);
    c.lng[slot] = row.lat === null || row.lng === null ? NaN : Number(row.lng);
    c.rating[slot] = row.rating === null ? NaN : Number(row.rating);
    c.reviews[slot] = Number(row.reviews);
    c.createdUs[slot] = Number(row.created_us);
    c.activeFrom[slot] = NO_DAY;
    c.buffer[slot] = Number(row.buffer_minutes);
    c.holds[slot] = null;
    for (const key of this.keysOf(slot)) this.bitsets.add(key, slot);
  }

  /** The bitset keys of a slot's values. */
  private keysOf(slot: number): string[] {
    const c = this.columns;
    const keys = [`type:${c.type[slot]}`, `transmission:${c.transmission[slot]}`, `fuel:${c.fuel[slot]}`];
    for (const f of c.features[slot]!) keys.push(`feature:${f}`);
    if (c.flags[slot]! & 1) keys.push('pickup:1');
    if (c.flags[slot]! & 2) keys.push('pickup:2');
    if (c.flags[slot]! & 4) keys.push('instant');
    return keys;
  }

  private unmark(slot: number): void {
    for (const key of this.keysOf(slot)) this.bitsets.remove(key, slot);
    for (const column of TEXT_COLUMNS) {
      const texts = this.textSlots[column];
      const code = this.columns[column][slot]!;
      const slots = texts.get(code);
      slots?.delete(slot);
      if (slots?.size === 0) texts.delete(code);
    }
  }

  /** The slots that can match the query's plain filters (null: no such filter), before the full test. */
  private candidates(q: CarPageQuery): Uint32Array | null {
    const v = this.vocabulary;
    const groups: string[][] = [];
    if (q.type && q.type.maxPriceCents === undefined && q.type.abovePriceCents === undefined) {
      groups.push(q.type.carTypes.map((t) => `type:${v.find(t.toLowerCase())}`));
    }
    if (q.transmission) groups.push([`transmission:${v.find(q.transmission.toLowerCase())}`]);
    if (q.fuel) groups.push([`fuel:${v.find(q.fuel.toLowerCase())}`]);
    for (const f of q.features) groups.push([`feature:${v.find(f)}`]);
    if (q.pickupType === 'HOST_DELIVERY') groups.push(['pickup:1']);
    else if (q.pickupType === 'PICKUP_POINT') groups.push(['pickup:2']);
    if (q.instantOnly) groups.push(['instant']);
    // The matcher's tests of the search words and the location, on each text once; the cars of the
    // texts that pass, and of the price band, bound the candidates.
    let within = this.priceBand(q);
    const narrow = (set: Uint32Array) => {
      if (within === null) within = set;
      else for (let i = 0; i < within.length; i += 1) within[i]! &= set[i]!;
    };
    for (const word of q.searchWords) {
      const set = this.bitsets.empty();
      this.markTexts(set, 'carWords', (text) => text.includes(` ${word}`));
      this.markTexts(set, 'cityWords', (text) => text.includes(` ${word} `));
      narrow(set);
    }
    if (q.location !== undefined) {
      const place = q.location.toLowerCase();
      const set = this.bitsets.empty();
      this.markTexts(set, 'cityKey', (city) => city.includes(place));
      narrow(set);
    }
    return this.bitsets.all(groups, within);
  }

  /** Sets the bits of the cars whose text in `column` passes the test. */
  private markTexts(set: Uint32Array, column: TextColumn, test: (text: string) => boolean): void {
    const values = this.vocabulary.values;
    for (const [code, slots] of this.textSlots[column]) {
      if (!test(values[code]!)) continue;
      for (const slot of slots) set[slot >>> 5]! |= 1 << (slot & 31);
    }
  }

  /** The slots priced inside the query's band (null without one), read off the price order by binary search. */
  private priceBand(q: CarPageQuery): Uint32Array | null {
    if (q.minPriceCents === undefined && q.maxPriceCents === undefined) return null;
    const min = q.minPriceCents ?? -Infinity;
    const max = q.maxPriceCents ?? Infinity;
    const order = this.orders.low;
    const price = this.columns.price;
    let from = 0;
    for (let hi = order.length; from < hi; ) {
      const mid = (from + hi) >>> 1;
      if (price[order[mid]!]! < min) from = mid + 1;
      else hi = mid;
    }
    let to = from;
    for (let hi = order.length; to < hi; ) {
      const mid = (to + hi) >>> 1;
      if (price[order[mid]!]! <= max) to = mid + 1;
      else hi = mid;
    }
    const band = this.bitsets.empty();
    for (let i = from; i < to; i += 1) {
      const slot = order[i]!;
      band[slot >>> 5]! |= 1 << (slot & 31);
    }
    return band;
  }

  /** Adds holds (bookings and blocks) to the cars' (a car just written has none yet). */
  private writeBookings(bookings: readonly HoldingBooking[]): void {
    const c = this.columns;
    const days = new Map<number, number[]>();
    for (const b of bookings) {
      const slot = this.slots.get(b.car_id);
      if (slot === undefined) continue;
      let list = days.get(slot);
      if (!list) days.set(slot, (list = []));
      list.push(b.from_min, b.to_min);
      if (b.status === 'active' && b.start) c.activeFrom[slot] = Math.min(c.activeFrom[slot]!, dayOf(b.start));
    }
    for (const [slot, list] of days) {
      const before = c.holds[slot];
      c.holds[slot] = Int32Array.from(before ? [...before, ...list] : list);
    }
  }

  // Sort orders, exactly those of cars.repository.ts's sortOf (ids compare as the database's uuid order).
  private readonly compare: Record<Order, (a: number, b: number) => number> = {
    relevance: (a, b) => {
      const c = this.columns;
      const ra = c.rating[a]!;
      const rb = c.rating[b]!;
      if (ra !== rb) {
        if (Number.isNaN(ra)) return Number.isNaN(rb) ? this.byReviews(a, b) : 1;
        if (Number.isNaN(rb)) return -1;
        return rb - ra;
      }
      return this.byReviews(a, b);
    },
    low: (a, b) => this.columns.price[a]! - this.columns.price[b]! || this.byId(a, b),
    high: (a, b) => this.columns.price[b]! - this.columns.price[a]! || this.byId(a, b),
    north: (a, b) => {
      const la = this.columns.lat[a]!;
      const lb = this.columns.lat[b]!;
      if (Number.isNaN(la) || Number.isNaN(lb)) return Number.isNaN(la) && Number.isNaN(lb) ? this.byId(a, b) : Number.isNaN(la) ? 1 : -1;
      return la - lb || this.byId(a, b);
    },
  };

  private byReviews(a: number, b: number): number {
    const c = this.columns;
    return c.reviews[b]! - c.reviews[a]! || c.createdUs[b]! - c.createdUs[a]! || this.byId(a, b);
  }

  private byId(a: number, b: number): number {
    const ia = this.columns.ids[a]!;
    const ib = this.columns.ids[b]!;
    return ia < ib ? -1 : ia > ib ? 1 : 0;
  }

  /** Whether the index answers this query: the public browse without the owners' and admins' filters. */
  static serves(q: CarPageQuery): boolean {
    return q.scope === 'public' && !q.status && !q.verificationStatus && (q.sort !== 'DISTANCE' || !!q.origin);
  }

  /** The filters of cars.repository.ts's filteredCars for the public scope, as one test of a slot. */
  private matcher(q: CarPageQuery): (slot: number) => boolean {
    const c = this.columns;
    const v = this.vocabulary;
    const owner = q.ownerId ? v.find(q.ownerId) : -1;
    const minPrice = q.minPriceCents ?? -Infinity;
    const maxPrice = q.maxPriceCents ?? Infinity;
    const transmission = q.transmission ? v.find(q.transmission.toLowerCase()) : -1;
    const fuel = q.fuel ? v.find(q.fuel.toLowerCase()) : -1;
    let types: Uint8Array | null = null;
    let typeMax = -Infinity;
    let typeAbove = Infinity;
    if (q.type) {
      types = new Uint8Array(v.values.length);
      for (const t of q.type.carTypes) {
        const code = v.find(t.toLowerCase());
        if (code >= 0) types[code] = 1;
      }
      if (q.type.maxPriceCents !== undefined) typeMax = q.type.maxPriceCents;
      if (q.type.abovePriceCents !== undefined) typeAbove = q.type.abovePriceCents;
    }
    const pickup = q.pickupType === 'HOST_DELIVERY' ? 1 : q.pickupType === 'PICKUP_POINT' ? 2 : 0;
    const instantOnly = q.instantOnly === true;
    const words = q.searchWords.map((word) => ({
      car: v.memo((text) => text.includes(` ${word}`)),
      city: v.memo((text) => text.includes(` ${word} `)),
    }));
    const place = q.location?.toLowerCase();
    const inPlace = place !== undefined ? v.memo((city) => city.includes(place)) : null;
    const features = q.features.map((f) => v.find(f));
    // A window is a daily trip at the panel's default times (as cars.repository.ts's heldBetween).
    const span = q.window ? tripSpan({ start_date: q.window.start, end_date: q.window.end, is_hourly_booking: false }) : null;
    const windowStart = span ? span.from / 60_000 : 0;
    const windowEnd = span ? span.to / 60_000 : 0;
    const hasWindow = !!q.window;
    const today = dayOf(q.today);
    const bbox = q.bbox;
    return (s) => {
      // Inside the view, edges included (a car without a position is in no view).
      if (bbox && !(c.lat[s]! >= bbox.south && c.lat[s]! <= bbox.north && c.lng[s]! >= bbox.west && c.lng[s]! <= bbox.east)) return false;
      if (owner !== -1 && c.owner[s] !== owner) return false;
      const price = c.price[s]!;
      if (price < minPrice || price > maxPrice) return false;
      if (transmission !== -1 && c.transmission[s] !== transmission) return false;
      if (fuel !== -1 && c.fuel[s] !== fuel) return false;
      if (types !== null && types[c.type[s]!] !== 1 && !(price <= typeMax) && !(price > typeAbove)) return false;
      if (pickup !== 0 && (c.flags[s]! & pickup) === 0) return false;
      if (instantOnly && (c.flags[s]! & 4) === 0) return false;
      for (const word of words) if (!word.car(c.carWords[s]!) && !word.city(c.cityWords[s]!)) return false;
      if (inPlace !== null && !inPlace(c.cityKey[s]!)) return false;
      if (features.length) {
        const has = c.features[s]!;
        for (const f of features) if (!has.includes(f)) return false;
      }
      // Without a date window a car on a rental right now is hidden; with one, only cars held in it are.
      if (hasWindow) {
        const holds = c.holds[s];
        const end = windowEnd + c.buffer[s]!;
        if (holds) for (let i = 0; i < holds.length; i += 2) if (holds[i]! < end && holds[i + 1]! > windowStart) return false;
      } else if (c.activeFrom[s]! <= today) return false;
      return true;
    };
  }

  /** Every car matching the query's filters that has a position (the browse map's points), as findMatchingPoints answers. */
  points(q: CarPageQuery): { id: string; lat: number; lng: number; price_cents: number }[] {
    const test = this.matcher(q);
    const mask = this.candidates(q);
    const c = this.columns;
    const found: { id: string; lat: number; lng: number; price_cents: number }[] = [];
    for (const slot of this.orders.relevance) {
      if (mask !== null && (mask[slot >>> 5]! & (1 << (slot & 31))) === 0) continue;
      if (Number.isNaN(c.lat[slot]!) || !test(slot)) continue;
      found.push({ id: c.ids[slot]!, lat: c.lat[slot]!, lng: c.lng[slot]!, price_cents: c.price[slot]! });
    }
    return found;
  }

  /** The page of a public browse query, in the SQL's order, with the count capped as findCarPage caps it. */
  find(q: CarPageQuery): IndexAnswer {
    const need = q.offset + q.limit + 1;
    const cap = countCap(q)!;
    const test = this.matcher(q);
    const mask = this.candidates(q);
    const matches = mask === null ? test : (slot: number) => (mask[slot >>> 5]! & (1 << (slot & 31))) !== 0 && test(slot);
    const ids = this.columns.ids;
    const pageOf = (slots: number[]) => slots.slice(q.offset, need).map((slot) => ids[slot]!);

    if (q.sort === 'DISTANCE') return this.nearest(q, matches, need, cap);
    if (q.sort === 'RELEVANCE' && q.searchWords.length) {
      // Cars whose make and model carry every word come first, each group in the relevance order.
      const words = q.searchWords.map((word) => this.vocabulary.memo((text) => text.includes(` ${word}`)));
      const makeModel = this.columns.makeModel;
      const first: number[] = [];
      const second: number[] = [];
      let count = 0;
      for (const slot of this.orders.relevance) {
        if (!matches(slot)) continue;
        count += 1;
        if (words.every((word) => word(makeModel[slot]!))) {
          if (first.length < need) first.push(slot);
        } else if (second.length < need) second.push(slot);
        if (count > cap && first.length >= need) break;
      }
      return { ids: pageOf(first.concat(second)), count: Math.min(count, cap + 1) };
    }
    const order = this.orders[q.sort === 'PRICE_LOW' ? 'low' : q.sort === 'PRICE_HIGH' ? 'high' : 'relevance'];
    const found: number[] = [];
    let count = 0;
    for (const slot of order) {
      if (!matches(slot)) continue;
      count += 1;
      if (found.length < need) found.push(slot);
      else if (count > cap) break;
    }
    return { ids: pageOf(found), count: Math.min(count, cap + 1) };
  }

  /**
   * Nearest first (cars without a position last), ties by id, as the SQL's distance sort. The cars
   * are visited outwards from the visitor's latitude, keeping the best `need`; once the latitude
   * difference alone (the great-circle distance is at least that) puts the next car farther than
   * the last of them, no car left can enter, and only the count may still need more cars.
   */
  private nearest(q: CarPageQuery, matches: (slot: number) => boolean, need: number, cap: number): IndexAnswer {
    const c = this.columns;
    const order = this.orders.north;
    const { lat: originLat, lng: originLng } = q.origin!;
    const cosOrigin = Math.cos(rad(originLat));
    const bestSlots: number[] = [];
    const bestDistances: number[] = [];
    let count = 0;
    const keep = (slot: number, d: number) => {
      const full = bestSlots.length === need;
      if (full && (d > bestDistances[need - 1]! || (d === bestDistances[need - 1] && this.byId(slot, bestSlots[need - 1]!) > 0))) return;
      let i = full ? need - 1 : bestSlots.length;
      while (i > 0 && (bestDistances[i - 1]! > d || (bestDistances[i - 1] === d && this.byId(slot, bestSlots[i - 1]!) < 0))) {
        bestSlots[i] = bestSlots[i - 1]!;
        bestDistances[i] = bestDistances[i - 1]!;
        i -= 1;
      }
      bestSlots[i] = slot;
      bestDistances[i] = d;
    };
    // Cars with a position come first in `order`, by latitude; then those without, by id.
    let positioned = order.length;
    for (let lo = 0, hi = order.length; lo < hi; ) {
      const mid = (lo + hi) >>> 1;
      if (Number.isNaN(c.lat[order[mid]!]!)) hi = positioned = mid;
      else lo = mid + 1;
    }
    let up = 0;
    for (let hi = positioned; up < hi; ) {
      const mid = (up + hi) >>> 1;
      if (c.lat[order[mid]!]! < originLat) up = mid + 1;
      else hi = mid;
    }
    let down = up - 1;
    let measuring = true;
    while (down >= 0 || up < positioned) {
      const takeUp = down < 0 || (up < positioned && c.lat[order[up]!]! - originLat <= originLat - c.lat[order[down]!]!);
      const slot = order[takeUp ? up++ : down--]!;
      if (measuring && bestSlots.length === need) {
        const bound = EARTH_KM * Math.abs(rad(c.lat[slot]! - originLat));
        // A margin for rounding: a car is left out only when it is surely farther.
        if (bound > bestDistances[need - 1]! * (1 + 1e-9) + 1e-9) measuring = false;
      }
      if (!measuring && count > cap) break;
      if (!matches(slot)) continue;
      count += 1;
      if (!measuring) continue;
      const lat = c.lat[slot]!;
      // The SQL's formula (distanceSql), in the same steps.
      const a = Math.sin(rad(lat - originLat) / 2) ** 2 + cosOrigin * Math.cos(rad(lat)) * Math.sin(rad(c.lng[slot]! - originLng) / 2) ** 2;
      keep(slot, EARTH_KM * 2 * Math.asin(Math.min(1, Math.sqrt(a))));
    }
    for (let i = positioned; i < order.length && (count <= cap || bestSlots.length < need); i += 1) {
      const slot = order[i]!;
      if (!matches(slot)) continue;
      count += 1;
      if (bestSlots.length < need) keep(slot, Infinity);
    }
    return { ids: bestSlots.slice(q.offset, need).map((slot) => c.ids[slot]!), count: Math.min(count, cap + 1) };
  }
}

const ORDERS: readonly Order[] = ['relevance', 'low', 'high', 'north'];

const TEXT_COLUMNS = ['carWords', 'cityWords', 'cityKey'] as const;
type TextColumn = (typeof TEXT_COLUMNS)[number];
const newTextSlots = (): Record<TextColumn, Map<number, Set<number>>> => ({ carWords: new Map(), cityWords: new Map(), cityKey: new Map() });

/** An app's browse index (it loads at its first sync); it looks again after every browse change the bus carries. */
export function createBrowseIndex(db: Db, pollMs: number, bus: CacheBus, reloadBatch?: number): BrowseIndex {
  const index = new BrowseIndex(db, pollMs, Date.now, reloadBatch);
  // Every change that clears the browse pages (this instance's writes, the others' through the bus).
  bus.subscribe(BROWSE_TOPIC, () => index.markChanged());
  return index;
}

export function browseIndexEnabled(ctx: AppContext): boolean {
  return ctx.env.BROWSE_INDEX !== 'off';
}

/**
 * A public browse page from the index: the same answer as cars.repository.ts's findCarPage, with one
 * statement (the page's records by primary key) when the index is up to date. A record that is no
 * longer listed means a change the index has not heard of yet: it looks again, once; then SQL answers.
 */
const SLOW = Symbol('slow look');

/** Whether `promise` settled within `ms` (true), or not yet (false; it goes on). Its failure is passed on. */
function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  // A look that fails after the wait is nobody's error here (the next request's sync meets it).
  promise.catch(() => {});
  return Promise.race([promise.then(() => true as const), late]).finally(() => clearTimeout(timer));
}

export async function findPublicCarPage<R extends CarRecord | CarCardRecord = CarRecord>(
  ctx: AppContext,
  q: CarPageQuery,
): Promise<{ records: R[]; hasMore: boolean; total: number; exact: boolean } | null> {
  const index = ctx.browseIndex;
  if (!index.loaded) {
    // The first load takes a moment with many cars: the SQL answers meanwhile.
    index.startLoading();
    return null;
  }
  for (let attempt = 0; attempt < 2; attempt += 1) {
    // Should the database fail the look, the SQL answers (or reports the failure) as before, on a
    // connection of its own (after a failover the look may have had one that had died); but after a
    // look that timed out, the SQL would only wait as long again (decision 029).
    // Waited for SYNC_WAIT_MS at most: a look still running then (many cars changed, a slow
    // database) goes on for later requests, and the SQL answers this one.
    const failure = await within(index.sync(), SYNC_WAIT_MS).then(
      (done) => (done ? null : SLOW),
      (error: unknown) => error ?? new Error('browse index look failed'),
    );
    if (failure === SLOW) {
      index.slowLooks += 1;
      return null;
    }
    if (failure !== null) {
      if (isDatabaseTimeout(failure)) throw failure;
      return null;
    }
    const { ids, count } = index.find(q);
    const hasMore = ids.length > q.limit;
    const pageIds = ids.slice(0, q.limit);
    const records = q.shape === 'card' ? ((await index.cards.read(ctx.db, pageIds, q.today)) as R[]) : await findCarRecordsInOrder<R>(ctx.db, pageIds, q.today);
    if (records.length === pageIds.length && records.every(isListedCar)) {
      const last = lastPageTotal(q, records.length, hasMore);
      return { records, hasMore, ...(last !== null ? { total: last, exact: true } : countedTotal(count, countCap(q))) };
    }
    index.markChanged();
  }
  return null;
}
