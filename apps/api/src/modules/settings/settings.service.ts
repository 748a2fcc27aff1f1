// Platform settings (decisions.md section 8): one record, both shapes, read often (prices, the
// maintenance guard), so each app keeps it for a few seconds. A change is seen at once by every
// instance: after its commit, the settings.changed subscriber tells them all to forget (the cache
// bus, decision 026); SETTINGS_CACHE_MS only bounds how long a missed message could matter.
import { mergeSettings, normaliseSettings, type PlatformSettings, type UpdateSettingsBody } from '@karoo/shared';
import type { AppContext } from '../../context';
import type { Db } from '../../db/connection';
import { inTransaction } from '../../events/domain-events';
import type { UserRow } from '../../db/schema';
import { badRequest } from '../../lib/app-error';
import type { CacheBus } from '../../lib/cache-bus';
import * as repo from './settings.repository';

export const SETTINGS_CACHE_MS = 3000;
/** The cache bus topic of the settings. */
export const SETTINGS_TOPIC = 'settings';

export interface SettingsCache {
  settings: PlatformSettings | null;
  loadedAt: number;
  /** Bumped by every forget: a read that began before it is not kept. */
  generation: number;
}

/** An app's settings cache; it forgets whenever the bus says the settings changed (on any instance). */
export function createSettingsCache(bus: CacheBus): SettingsCache {
  const cache: SettingsCache = { settings: null, loadedAt: 0, generation: 0 };
  bus.subscribe(SETTINGS_TOPIC, () => forgetCached(cache));
  return cache;
}

function forgetCached(cache: SettingsCache): void {
  cache.generation += 1;
  cache.settings = null;
}

async function readSettings(ctx: AppContext, db: Db = ctx.db): Promise<PlatformSettings> {
  return normaliseSettings((await repo.readSettingsData(db)) as Partial<PlatformSettings> | null);
}

/** The settings, read through `db` when not cached (a transaction's handle, inside one). */
export async function getSettings(ctx: AppContext, db: Db = ctx.db): Promise<PlatformSettings> {
  const cache = ctx.settingsCache;
  if (cache.settings && Date.now() - cache.loadedAt < SETTINGS_CACHE_MS) return cache.settings;
  const { generation } = cache;
  const startedAt = Date.now();
  const settings = await readSettings(ctx, db);
  if (cache.generation === generation) {
    cache.settings = settings;
    cache.loadedAt = startedAt;
  }
  return settings;
}

/** Forgets this instance's cached settings (told by the bus, or when a test writes the row directly). */
export function forgetSettings(ctx: AppContext): void {
  forgetCached(ctx.settingsCache);
}

/** Every instance forgets its cached settings (this one before the promise settles): settings.changed's subscriber. */
export function forgetSettingsEverywhere(ctx: AppContext): Promise<void> {
  return ctx.cacheBus.publish(SETTINGS_TOPIC);
}

export async function updateSettings(ctx: AppContext, admin: UserRow, body: UpdateSettingsBody): Promise<PlatformSettings> {
  const current = await readSettings(ctx);
  const result = mergeSettings(current, body);
  if ('error' in result) throw badRequest(result.error, { [result.field]: result.error });
  const changedKeys = (Object.keys(result.settings) as (keyof PlatformSettings)[]).filter(
    (key) => JSON.stringify(result.settings[key]) !== JSON.stringify(current[key]),
  );
  await inTransaction(
    ctx,
    async (tx) => {
      await repo.writeSettingsData(tx.db, result.settings, admin.id, tx.now);
      if (changedKeys.length) {
        tx.emit({
          type: 'settings.changed',
          before: Object.fromEntries(changedKeys.map((key) => [key, current[key]])),
          after: Object.fromEntries(changedKeys.map((key) => [key, result.settings[key]])),
        });
      }
    },
    { by: admin },
  );
  return result.settings;
}

export function isMaintenanceOn(settings: PlatformSettings): boolean {
  return settings.maintenanceMode || settings.maintenance_mode;
}
