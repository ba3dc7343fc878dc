/**
 * Request schemas for an app reference, built on the one app-id rule of shared/appIds.ts, with messages that name the
 * field and say what is expected. Pure (browser or server), but it brings zod: import it where zod is loaded anyway.
 */
import { z } from 'zod';
import { APP_ID_HINT, normalizeAppId } from '@/shared/appIds';
import { APP_STORES, type AppStore } from '@/shared/appStores';

/** A zod error map: "is required" when the field is missing, "must be <what>" when it has the wrong type. */
export const requiredAs = (what: string) => ({
  error: (issue: { input?: unknown }) => (issue.input === undefined ? 'is required' : `must be ${what}`),
});

export const appStoreSchema = z.enum(APP_STORES, { error: "must be 'apple_app_store' or 'google_play_store'" });

/** `{ app_id, app_store }`: extend it, then `.transform(withCheckedAppId)`. */
export const appRefSchema = z.object({
  app_id: z.string(requiredAs('text')).max(200, 'is too long'),
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
