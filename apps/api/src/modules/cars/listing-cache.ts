// The browse cache: public browse pages look the same to every visitor, so each app keeps the
// serialised answer for a few seconds (BROWSE_CACHE_MS, default 5 s). Concurrent misses for one
// page share one query; a page past its time is still served while one request refreshes it
// (for up to a minute); any write through the API that can change a page clears the cache of
// every instance, by the cache bus (decision 026): this one at once, the others within
// milliseconds. A load that began before the clear is not kept. A cached page also keeps a gzip
// copy, made once, for the clients that accept it (every browser does).
import { gzipSync } from 'node:zlib';
import type { AppContext } from '../../context';
import type { CacheBus } from '../../lib/cache-bus';
import { forgetSettings } from '../settings';

export const DEFAULT_BROWSE_CACHE_MS = 5000;
/** The cache bus topic of public browse pages. */
export const BROWSE_TOPIC = 'browse';
const MAX_STALE_MS = 60_000;
const MAX_ENTRIES = 500;

/** A serialised page; `gzip()` is its compressed copy, made on first use (null when not cached). */
export interface PageAnswer {
  json: string;
  gzip: (() => Buffer) | null;
}

interface Entry {
  json: string;
  at: number;
  refreshing: boolean;
  gzipped?: Buffer;
}

function answerOf(entry: Entry): PageAnswer {
  return { json: entry.json, gzip: () => (entry.gzipped ??= gzipSync(entry.json, { level: 6 })) };
}

export interface ListingCache {
  generation: number;
  entries: Map<string, Entry>;
  loading: Map<string, Promise<Entry>>;
}

/** An app's page cache; it forgets whenever the bus says a browse page changed (on any instance). */
export function createListingCache(bus: CacheBus): ListingCache {
  const cache: ListingCache = { generation: 0, entries: new Map(), loading: new Map() };
  bus.subscribe(BROWSE_TOPIC, () => clearCache(cache));
  return cache;
}

function clearCache(cache: ListingCache): void {
  cache.generation += 1;
  cache.entries.clear();
  cache.loading.clear();
}

export function browseCacheMs(ctx: AppContext): number {
  return ctx.env.BROWSE_CACHE_MS ?? DEFAULT_BROWSE_CACHE_MS;
}

/** Forgets this instance's cached pages; loads already under way are not stored. */
export function clearBrowseCache(ctx: AppContext): void {
  clearCache(ctx.listingCache);
}

function load(cache: ListingCache, key: string, loader: () => Promise<string>): Promise<Entry> {
  const pending = cache.loading.get(key);
  if (pending) return pending;
  const generation = cache.generation;
  const promise = loader()
    .then((json) => {
      const entry: Entry = { json, at: Date.now(), refreshing: false };
      if (cache.generation === generation) {
        if (cache.entries.size >= MAX_ENTRIES) cache.entries.delete(cache.entries.keys().next().value!);
        cache.entries.delete(key);
        cache.entries.set(key, entry);
      }
      return entry;
    })
    .finally(() => {
      if (cache.loading.get(key) === promise) cache.loading.delete(key);
    });
  cache.loading.set(key, promise);
  return promise;
}

/** The cached answer for `key`, loading it when missing (or refreshing it in the background when old). */
export async function cachedPage(ctx: AppContext, key: string, loader: () => Promise<string>): Promise<PageAnswer> {
  const ttl = browseCacheMs(ctx);
  if (ttl <= 0) return { json: await loader(), gzip: null };
  const cache = ctx.listingCache;
  const entry = cache.entries.get(key);
  const age = entry ? Date.now() - entry.at : Infinity;
  if (entry && age < ttl) return answerOf(entry);
  if (entry && age < ttl + MAX_STALE_MS) {
    if (!entry.refreshing) {
      entry.refreshing = true;
      load(cache, key, loader).catch(() => {
        entry.refreshing = false;
      });
    }
    return answerOf(entry);
  }
  return answerOf(await load(cache, key, loader));
}

/**
 * Every instance forgets its cached pages (this one before the promise settles): the subscriber of
 * every event that can change a public browse page (the cars module's subscriptions, index.ts), run after the commit.
 */
export function forgetBrowsePages(ctx: AppContext): Promise<void> {
  return ctx.cacheBus.publish(BROWSE_TOPIC);
}

/**
 * The settings changed: the cards' Instant badge follows them (decision 056). This instance forgets
 * its cached settings first, so the pages read again are drawn with the new ones.
 */
export async function forgetBrowsePagesOfSettings(ctx: AppContext): Promise<void> {
  forgetSettings(ctx);
  await forgetBrowsePages(ctx);
}
