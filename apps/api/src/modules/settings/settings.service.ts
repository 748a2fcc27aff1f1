// Platform settings (decisions.md section 8): one record, both shapes, read often (prices, the
// maintenance guard), so each app keeps it for a few seconds. A change made through this app is
// seen at once; other instances see it within SETTINGS_CACHE_MS.
import { mergeSettings, normaliseSettings, type PlatformSettings, type UpdateSettingsBody } from '@karoo/shared';
import type { AppContext } from '../../context';
import { inTransaction } from '../../events/domain-events';
import type { UserRow } from '../../db/schema';
import { badRequest } from '../../lib/app-error';
import * as repo from './settings.repository';

export const SETTINGS_CACHE_MS = 3000;

const cache = new WeakMap<AppContext, { settings: PlatformSettings; loadedAt: number }>();

export async function getSettings(ctx: AppContext): Promise<PlatformSettings> {
  const cached = cache.get(ctx);
  if (cached && Date.now() - cached.loadedAt < SETTINGS_CACHE_MS) return cached.settings;
  const settings = normaliseSettings((await repo.readSettingsData(ctx.db)) as Partial<PlatformSettings> | null);
  cache.set(ctx, { settings, loadedAt: Date.now() });
  return settings;
}

/** Forgets the cached settings (after a change, or when a test writes the row directly). */
export function forgetSettings(ctx: AppContext): void {
  cache.delete(ctx);
}

export async function updateSettings(ctx: AppContext, admin: UserRow, body: UpdateSettingsBody): Promise<PlatformSettings> {
  forgetSettings(ctx);
  const current = await getSettings(ctx);
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
  cache.set(ctx, { settings: result.settings, loadedAt: Date.now() });
  return result.settings;
}

export function isMaintenanceOn(settings: PlatformSettings): boolean {
  return settings.maintenanceMode || settings.maintenance_mode;
}
