// Browse URLs as visitors make them, never the same one twice: each is a sort (relevance, price
// low/high, distance from a point near a base city), a page 1-5 (mostly 1), none to three filters
// (a search word from the makes, models and cities; a location; a browse or car type; a price band;
// transmission; fuel; features; pickup type) and, one time in three, a date window 1-60 days
// ahead of the server's today. Deterministic (seeded generator); a URL already handed out is drawn
// again, so the browse cache (if on) and PostgreSQL's result reuse never see a repeat.
import { addDays, BASE_CITIES, BROWSE_FEATURES, BROWSE_TRANSMISSIONS, BROWSE_TYPES, FUEL_TYPES, todayIn } from '@karoo/shared';
import { DEMO_MODELS, seededRandom } from '../src/db/seed/demo-cars';

type Random = ReturnType<typeof seededRandom>;
type Params = [string, string][];

const words = [...new Set(DEMO_MODELS.flatMap((m) => [m.make, ...m.model.split(/\s+/)]).concat(BASE_CITIES.map((c) => c.name.split(' ')[0]!)))]
  .map((w) => w.toLowerCase())
  .filter((w) => w.length >= 3);
const carTypes = [...new Set(DEMO_MODELS.map((m) => m.type))];
const PRICE_BANDS: [number | null, number | null][] = [
  [null, 400], [null, 600], [250, 500], [400, 800], [500, 1000], [800, 1500], [1000, 2000], [1500, null], [2000, null], [300, 3000],
];

/** One filter each; a request takes none to three of them. */
const FILTERS: ((r: Random) => Params)[] = [
  (r) => [['search', r.pick(words)]],
  (r) => [['location', r.pick(BASE_CITIES).name]],
  (r) => [['type', r.next() < 0.7 ? r.pick(BROWSE_TYPES) : r.pick(carTypes)]],
  (r) => {
    const [min, max] = r.pick(PRICE_BANDS);
    const jitter = r.int(0, 9) * 10;
    return [...(min !== null ? [['minPrice', String(min + jitter)] as [string, string]] : []), ...(max !== null ? [['maxPrice', String(max + jitter)] as [string, string]] : [])];
  },
  (r) => [['transmission', r.pick(BROWSE_TRANSMISSIONS)]],
  (r) => [['fuel', r.pick(FUEL_TYPES)]],
  (r) => [['features', r.some(BROWSE_FEATURES, 1, 2).join(',')]],
  (r) => [['pickupType', r.pick(['HOST_DELIVERY', 'PICKUP_POINT'])]],
];

function sortParams(r: Random): Params {
  const x = r.next();
  if (x < 0.4) return [];
  if (x < 0.6) return [['sort', 'PRICE_LOW']];
  if (x < 0.75) return [['sort', 'PRICE_HIGH']];
  const city = r.pick(BASE_CITIES);
  const at = (v: number) => (v + (r.next() - 0.5) * 0.2).toFixed(4);
  return [['sort', 'DISTANCE'], ['lat', at(city.latitude)], ['lng', at(city.longitude)]];
}

function windowParams(r: Random, today: string): Params {
  if (r.next() >= 1 / 3) return [];
  const start = addDays(today, r.int(1, 60));
  return [['startDate', start], ['endDate', addDays(start, r.int(1, 14))]];
}

function pageParam(r: Random): string {
  const x = r.next();
  return String(x < 0.6 ? 1 : x < 0.8 ? 2 : r.int(3, 5));
}

/** A generator of browse paths; call it once per request. */
export function browsePaths(seed = 11): () => string {
  const r = seededRandom(seed);
  const seen = new Set<string>();
  const today = todayIn();
  return () => {
    for (;;) {
      const filters = r.some(FILTERS, 0, 3).flatMap((f) => f(r));
      const params: Params = [...filters, ...sortParams(r), ...windowParams(r, today), ['page', pageParam(r)], ['limit', '12']];
      const path = `/api/car/getCarList?${new URLSearchParams(params).toString()}`;
      if (!seen.has(path)) {
        seen.add(path);
        return path;
      }
    }
  };
}

/** Detail paths over the given car ids, in turn. */
export function detailPaths(ids: readonly string[]): () => string {
  let next = 0;
  return () => `/api/car/getCarDetails/${ids[next++ % ids.length]}`;
}
