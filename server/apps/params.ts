/**
 * Request fields shared by the app endpoints, with messages that name the field and say what is expected.
 */
import { z } from 'zod';
import { APP_STORES, type AppStore } from './types';

const required = (what: string) => ({
  error: (issue: { input?: unknown }) => (issue.input === undefined ? 'is required' : `must be ${what}`),
});

export const appStoreSchema = z.enum(APP_STORES, { error: "must be 'apple_app_store' or 'google_play_store'" });

export const countrySchema = z
  .string(required('a two-letter country code'))
  .trim()
  .toLowerCase()
  .regex(/^[a-z]{2}$/, 'must be a two-letter country code, e.g. us')
  .default('us');

const IOS_APP_ID = /^\d{1,15}$/;
// Android package names: letters first, dot-separated segments of letters, digits and underscores.
const PLAY_APP_ID = /^[a-zA-Z]\w*(\.\w+)+$/;

/**
 * The canonical app id, or null when it cannot be one for that store. An App Store id pasted from a link
 * ("id1488223190") is accepted as its digits.
 */
export function normalizeAppId(store: AppStore, raw: string): string | null {
  const id = raw.trim();
  if (store === 'apple_app_store') {
    const digits = id.replace(/^id/i, '');
    return IOS_APP_ID.test(digits) ? digits : null;
  }
  return id.length <= 150 && PLAY_APP_ID.test(id) ? id : null;
}

const APP_ID_HINT: Record<AppStore, string> = {
  apple_app_store: 'must be an App Store app id (digits, e.g. 1488223190)',
  google_play_store: 'must be a Google Play package name (e.g. com.example.app)',
};

/** `{ app_id, app_store }`: extend it, then `.transform(withCheckedAppId)`. */
export const appRefSchema = z.object({
  app_id: z.string(required('text')).max(200, 'is too long'),
  app_store: appStoreSchema,
});

/** Checks app_id against its store (the store is known only once both fields parsed) and normalises it. */
export function withCheckedAppId<V extends { app_id: string; app_store: AppStore }>(value: V, ctx: z.RefinementCtx): V {
  const appId = normalizeAppId(value.app_store, value.app_id);
  if (appId === null) {
    ctx.addIssue({ code: 'custom', path: ['app_id'], message: APP_ID_HINT[value.app_store] });
    return z.NEVER;
  }
  return { ...value, app_id: appId };
}

export const searchQuerySchema = z
  .string(required('text'))
  .trim()
  .min(1, 'must not be empty')
  .max(100, 'must be at most 100 characters');
