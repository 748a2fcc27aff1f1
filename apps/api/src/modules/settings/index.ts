// The settings module's front door: the only file other modules and the app import.
import type { AppContext } from '../../context';
import type { Subscriptions } from '../../events/domain-events';
import './settings.context';
import { forgetSettingsEverywhere } from './settings.service';

export {
  createSettingsCache,
  forgetSettings,
  forgetSettingsEverywhere,
  getSettings,
  isMaintenanceOn,
  SETTINGS_CACHE_MS,
  type SettingsCache,
} from './settings.service';
export { settingsRoutes } from './settings.routes';

export const settingsSubscriptions: Subscriptions<AppContext> = {
  // Prices, fees and maintenance mode: every instance forgets its cached settings.
  after: { 'settings.changed': [forgetSettingsEverywhere] },
};
