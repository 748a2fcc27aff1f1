// The browse map (issue 22, decision 046): every public car matching the browse filters, clustered
// on the server with supercluster. The clusters of one filter set are built once (about 0.2 s over
// 100,000 cars) and kept until a browse page changes anywhere (the cache bus's browse topic, decision
// 026) or MAP_INDEX_MS passes; each view (bbox and zoom) is then a lookup of a few milliseconds.
// The points come from the browse index when it is loaded, otherwise from the list's SQL: both
// apply the same filters (browseFilters), so the map and the list always agree.
import { MAX_MAP_ITEMS, type CarMap, type CarMapFilters } from '@karoo/shared';
import Supercluster from 'supercluster';
import type { AppContext } from '../../context';
import { browseIndexEnabled } from './browse-index';
import { browseFilters, instantFilterMatchesNothing } from './car-browse.service';
import * as repo from './cars.repository';
import { today } from './cars.service';
import { BROWSE_TOPIC } from './listing-cache';

/** Clusters kept per filter set for this long at most (the bus clears them at every change). */
export const MAP_INDEX_MS = 60_000;
const MAX_FILTER_SETS = 20;
/** Cluster radius in pixels of a 256 px tile, and the zoom past which cars are never clustered. */
const CLUSTER_RADIUS = 60;
const CLUSTER_MAX_ZOOM = 16;

interface PointProps {
  id: string;
  price_cents: number;
  /** The car's area position (decision 055), answered as it is: Supercluster's projection and back would blur it. */
  lat: number;
  lng: number;
}

/** A cluster's centre (an average of area positions) to 5 decimals (about 1 m): no more digits than it means. */
const centre = (degrees: number) => Math.round(degrees * 1e5) / 1e5;

interface Entry {
  at: number;
  clusters: Promise<Supercluster<PointProps>>;
}

interface MapCache {
  generation: number;
  entries: Map<string, Entry>;
}

const caches = new WeakMap<AppContext, MapCache>();

function cacheOf(ctx: AppContext): MapCache {
  let cache = caches.get(ctx);
  if (!cache) {
    const created: MapCache = { generation: 0, entries: new Map() };
    ctx.cacheBus.subscribe(BROWSE_TOPIC, () => {
      created.generation += 1;
      created.entries.clear();
    });
    caches.set(ctx, (cache = created));
  }
  return cache;
}

async function buildClusters(ctx: AppContext, q: repo.CarPageQuery): Promise<Supercluster<PointProps>> {
  const index = ctx.browseIndex;
  let points: { id: string; lat: number; lng: number; price_cents: number }[] | null = null;
  if (browseIndexEnabled(ctx) && index.loaded) {
    try {
      await index.sync();
      points = index.points(q);
    } catch {
      points = null; // the SQL answers, as for the list
    }
  } else if (browseIndexEnabled(ctx)) index.startLoading();
  points ??= await repo.findMatchingPoints(ctx.db, q);
  // In one order whichever engine found them, so that both give the same clusters.
  points.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const clusters = new Supercluster<PointProps>({ radius: CLUSTER_RADIUS, maxZoom: CLUSTER_MAX_ZOOM, minPoints: 2 });
  clusters.load(
    points.map((p) => ({
      type: 'Feature' as const,
      properties: { id: p.id, price_cents: p.price_cents, lat: p.lat, lng: p.lng },
      geometry: { type: 'Point' as const, coordinates: [p.lng, p.lat] },
    })),
  );
  return clusters;
}

/** The clusters of a filter set: built once, shared by concurrent requests, dropped at any browse change. */
function clustersFor(ctx: AppContext, q: repo.CarPageQuery): Promise<Supercluster<PointProps>> {
  const cache = cacheOf(ctx);
  const key = JSON.stringify(q);
  const entry = cache.entries.get(key);
  if (entry && Date.now() - entry.at < MAP_INDEX_MS) return entry.clusters;
  const generation = cache.generation;
  const clusters = buildClusters(ctx, q);
  const fresh: Entry = { at: Date.now(), clusters };
  cache.entries.delete(key);
  if (cache.entries.size >= MAX_FILTER_SETS) cache.entries.delete(cache.entries.keys().next().value!);
  cache.entries.set(key, fresh);
  clusters.then(
    () => {
      // Begun before a change: answer with it, but do not keep it.
      if (cache.generation !== generation && cache.entries.get(key) === fresh) cache.entries.delete(key);
    },
    () => {
      if (cache.entries.get(key) === fresh) cache.entries.delete(key);
    },
  );
  return clusters;
}

/** GET /api/car/map: the clusters and single cars of a view, for the list's filters. */
export async function carMap(ctx: AppContext, query: CarMapFilters): Promise<CarMap> {
  const { bbox: view, zoom } = query;
  if (await instantFilterMatchesNothing(ctx, query)) return { clusters: [], cars: [], total: 0, capped: false, zoom };
  const filters = browseFilters({ ...query, bbox: undefined }, false);
  const q: repo.CarPageQuery = { scope: 'public', today: today(ctx), ...filters, sort: 'RELEVANCE', limit: 0, offset: 0 };
  const clusters = await clustersFor(ctx, q);
  const found = clusters.getClusters([view.west, view.south, view.east, view.north], zoom);
  let total = 0;
  for (const f of found) total += 'cluster' in f.properties && f.properties.cluster ? f.properties.point_count : 1;
  const shown = found.slice(0, MAX_MAP_ITEMS);
  const single = shown.filter((f) => !('cluster' in f.properties && f.properties.cluster)).map((f) => f.properties as PointProps);
  const titles = await repo.findCarTitles(ctx.db, single.map((p) => p.id));
  const answer: CarMap = { clusters: [], cars: [], total, capped: found.length > shown.length, zoom };
  for (const f of shown) {
    const [lng, lat] = f.geometry.coordinates as [number, number];
    if ('cluster' in f.properties && f.properties.cluster) {
      const id = f.properties.cluster_id;
      answer.clusters.push({ cluster_id: id, latitude: centre(lat), longitude: centre(lng), count: f.properties.point_count, expansion_zoom: Math.min(clusters.getClusterExpansionZoom(id), CLUSTER_MAX_ZOOM + 1) });
    } else {
      const p = f.properties as PointProps;
      const title = titles.get(p.id);
      // A car deleted since the clusters were built (its title is gone) is left out.
      if (title !== undefined) answer.cars.push({ id: p.id, title, price_per_day: p.price_cents / 100, latitude: p.lat, longitude: p.lng });
    }
  }
  return answer;
}
