/**
 * What an app id may be in each store, in one place for the browser and the server: search, app details, the connect
 * payload, the engine and the store adapters all accept exactly the same ids, so an id that passes one never fails the
 * next. Pure: no I/O, no server imports, and no zod: the home page checks ids from links with these functions, and zod
 * would add its weight there (and its start-up probe for eval, which the pages' CSP reports). The request schemas
 * built on these rules are in shared/appIdSchemas.ts.
 */
import type { AppStore } from '@/shared/appStores';

/** App Store ids are positive integers (today up to 10 digits; 12 leaves room without accepting nonsense). */
const IOS_APP_ID = /^[1-9]\d{0,11}$/;
/**
 * Android package names: two or more dot-separated segments, each a letter followed by letters, digits or
 * underscores (the rule Android itself enforces); Google Play caps them at 150 characters.
 */
const PLAY_APP_ID = /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+$/;
const PLAY_APP_ID_MAX = 150;

/** What to tell someone whose id does not fit, per store. */
export const APP_ID_HINT: Record<AppStore, string> = {
  apple_app_store: 'must be an App Store app id (digits, e.g. 1488223190)',
  google_play_store: 'must be a Google Play package name (e.g. com.example.app)',
};

export function isAppStoreAppId(id: string): boolean {
  return IOS_APP_ID.test(id);
}

export function isPlayPackageName(id: string): boolean {
  return id.length <= PLAY_APP_ID_MAX && PLAY_APP_ID.test(id);
}

/**
 * The canonical app id, or null when it cannot be one for that store. Surrounding spaces are dropped, and an App Store
 * id pasted from a link ("id1488223190") is accepted as its digits.
 */
export function normalizeAppId(store: AppStore, raw: string): string | null {
  const id = raw.trim();
  if (store === 'apple_app_store') {
    const digits = id.replace(/^id/i, '');
    return isAppStoreAppId(digits) ? digits : null;
  }
  return isPlayPackageName(id) ? id : null;
}
