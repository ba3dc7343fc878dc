import { ALL_PLATFORMS, PLATFORM_REGISTRY, type Platform } from '@/shared/platforms';

/** The two review sources, as the API names them, and how the UI names them. */
export const APP_STORES = ['apple_app_store', 'google_play_store'] as const;
export type AppStore = (typeof APP_STORES)[number];

export const APP_STORE_NAMES: Record<AppStore, string> = {
  apple_app_store: 'App Store',
  google_play_store: 'Google Play',
};

export function isAppStore(value: unknown): value is AppStore {
  return typeof value === 'string' && (APP_STORES as readonly string[]).includes(value);
}

/** The chat platforms (and e-mail) anyone can connect to from the home page; Slack is the default. */
export const PLATFORMS: readonly Platform[] = ALL_PLATFORMS.filter((p) => PLATFORM_REGISTRY[p].public);
/** What an organisation can add from the dashboard: those, and signed webhooks (a secret its admins keep). */
export const ORG_PLATFORMS: readonly Platform[] = ALL_PLATFORMS;
export type { Platform };
export const DEFAULT_PLATFORM: Platform = 'slack';

export function isPlatform(value: unknown): value is Platform {
  return typeof value === 'string' && (ORG_PLATFORMS as readonly string[]).includes(value);
}

export const DEFAULT_COUNTRY = 'us';
