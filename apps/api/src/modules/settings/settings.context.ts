// What the settings module keeps per app, added to the AppContext by declaration merging (context.ts).
import type { SettingsCache } from './settings.service';

declare module '../../context' {
  interface AppContext {
    /** The platform settings, kept for a few seconds. */
    settingsCache: SettingsCache;
  }
}
